// The compiled server (dist/) in a child process of its own, and a closed-loop load driver: what the benchmarks that
// drive the server from outside its process share (ratios.js, ds-query-*.js).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
/** The compiled server's entry point in the checkout `root`. */
const mainOf = (root) => path.join(root, 'dist', 'cmd', 'dashboard-apiserver', 'main.js');
const MAIN = mainOf(ROOT);

/**
 * Starts dist/ main.js with `args` and only `env` (plus PATH); resolves once it logs "server started". `root`: the
 * checkout whose dist/ runs (default this one); `nodeArgs`: Node's own flags (`--cpu-prof`, say).
 *
 * @example const server = await startServer(['--server.http_port=0'], { SVC_DATABASE_URL: url });
 */
async function startServer(args, env, { root = ROOT, nodeArgs = [] } = {}) {
  const main = mainOf(root);
  if (!fs.existsSync(main)) throw new Error(`${main} not found: run \`npm run build\` first`);
  const child = spawn(process.execPath, [...nodeArgs, main, ...args], { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  for (let i = 0; i < 3000; i++) {
    const m = /"msg":"server started","url":"([^"]+)"/.exec(out);
    if (m) return { child, url: m[1].replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1'), output: () => out };
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL'); // else the child outlives the bench
  throw new Error(`server did not start: ${out}`);
}

/** SIGTERM, then waits for the exit; nothing when there is no server or it has exited. */
async function stopServer(server) {
  if (!server || server.child.exitCode !== null) return;
  const done = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await done;
}

/** `connections` loops calling `once` for `duration` seconds: requests/s, p50 and p95 in ms, successes, failures. */
async function drive(once, { duration, connections }) {
  const latencies = [];
  let failures = 0;
  const end = Date.now() + duration * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        try {
          await once();
          latencies.push(performance.now() - t0);
        } catch {
          failures++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
  return { rps: latencies.length / duration, p50: at(0.5), p95: at(0.95), ok: latencies.length, failures };
}

module.exports = { drive, MAIN, mainOf, ROOT, startServer, stopServer };
