/**
 * `npm start` runs the built server: it builds only when dist/ is missing or older than a source, keeps the
 * build's output off stdout, and a SIGTERM sent to npm reaches the server (no shell left holding it).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exited, startedUrl, type ServerProcess } from '../support/server-process';

const ROOT = path.resolve(__dirname, '..', '..');

/** A project of the same layout whose "build" is a small script: start.js's decisions, without a 20 s compile. */
function fixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-start-'));
  fs.mkdirSync(path.join(dir, 'hack'));
  fs.copyFileSync(path.join(ROOT, 'hack', 'start.js'), path.join(dir, 'hack', 'start.js'));
  fs.mkdirSync(path.join(dir, 'pkg'));
  fs.writeFileSync(path.join(dir, 'pkg', 'a.ts'), 'export const a = 1;\n');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { build: 'node build.js' } }));
  fs.writeFileSync(
    path.join(dir, 'build.js'),
    `const fs = require('fs');
fs.mkdirSync('dist/cmd/dashboard-apiserver', { recursive: true });
fs.writeFileSync('dist/cmd/dashboard-apiserver/main.js', 'process.stdout.write("ran " + process.argv.slice(2).join(" ") + "\\\\n")');
fs.writeFileSync('dist/build-info.json', '{}');
console.log('compiled');
`,
  );
  return dir;
}

function start(dir: string, args: string[]) {
  const res = spawnSync(process.execPath, [path.join(dir, 'hack', 'start.js'), ...args], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

const setTime = (file: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, t, t);
};

test('start.js builds when dist/ is missing or older than a source, not otherwise; the build writes to stderr only', () => {
  const dir = fixture();
  try {
    const first = start(dir, ['--help']);
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('ran --help\n');
    expect(first.stderr).toContain('building');
    expect(first.stderr).toContain('compiled');

    // A fresh build: no build at all.
    setTime(path.join(dir, 'pkg', 'a.ts'), 60);
    const second = start(dir, ['--x']);
    expect(second).toEqual({ status: 0, stdout: 'ran --x\n', stderr: '' });

    // A source changed after the build: built again.
    setTime(path.join(dir, 'dist', 'build-info.json'), 120);
    expect(start(dir, []).stderr).toContain('compiled');
    expect(start(dir, []).stderr).toBe('');

    // A failed build does not run the stale server.
    fs.writeFileSync(path.join(dir, 'build.js'), 'process.exit(3)');
    fs.writeFileSync(path.join(dir, 'pkg', 'b.ts'), 'export const b = 1;\n');
    const failed = start(dir, []);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toContain('the build failed');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('SIGTERM sent to `npm start` stops the server itself (it drains and exits; nothing keeps listening)', async () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-npm-start-'));
  const child = spawn('npm', ['start', '--silent', '--', '--server.http_port=0', '--server.http_addr=127.0.0.1'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), SVC_PATHS_DATA: data },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const server = Object.assign(child, { output: () => out }) as ServerProcess;
  try {
    // Up to a build (when dist/ is older than the sources) plus a start.
    const url = await startedUrl(server, 240_000);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(out).toContain('"msg":"shutting down","signal":"SIGTERM"');
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(data, { recursive: true, force: true });
  }
}, 300_000);
