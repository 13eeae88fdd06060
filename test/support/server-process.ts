import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'cmd', 'dashboard-apiserver', 'main.ts');

export type ServerProcess = ChildProcess & { output: () => string };

/** `dashboard-apiserver` as a child process (the TypeScript sources, no build), its stdout and stderr collected. */
export function runMain(args: string[], env: Record<string, string> = {}): ServerProcess {
  const child = spawn(process.execPath, ['-r', path.join(ROOT, 'test', 'support', 'ts-register.js'), MAIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode) : new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

/** The URL from the server's "server started" log line (up to 60 s by default: start-up is slow on a loaded machine). */
export async function startedUrl(child: ServerProcess, timeoutMs = 60_000): Promise<string> {
  for (let i = 0; i < timeoutMs / 200; i++) {
    const m = /"msg":"server started","url":"([^"]+)"/.exec(child.output());
    if (m) return m[1];
    if (child.exitCode !== null) throw new Error(`server exited: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start: ${child.output()}`);
}

/** Stops the server with SIGTERM (SIGKILL if it has not exited after 10 s); nothing when it has already exited. */
export async function stopMain(child: ServerProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await done;
  clearTimeout(timer);
}
