#!/usr/bin/env node
/**
 * The testdata half of issue 13's query benchmark, in one run: `POST /api/ds/query` of the compiled server (dist/,
 * a child process of its own) asking the testdata plugin for 100 random-walk series of 1,000 points each, and the
 * same server's `GET /api/health` with the same number in flight, as the baseline of what a request costs at all.
 * Prints requests/s, p50 and p95 of both and their ratio; asserts nothing.
 *
 *   npm run build && node hack/bench/ds-query-testdata.js
 *   node hack/bench/ds-query-testdata.js --duration=5 --connections=2 --series=10 --points=100
 *
 * Flags: --duration=<s> per phase (default 10) --connections=<n> requests in flight (default 4) --series=<n>
 * (default 100) --points=<n> per series (default 1000). The server stores its objects in the embedded database (the
 * query touches none of them but the data source).
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { drive, MAIN, startServer, stopServer } = require('./server-process');
const FROM = Date.UTC(2024, 0, 1);

function parseArgs(argv) {
  const opts = { duration: 10, connections: 4, series: 100, points: 1000 };
  for (const arg of argv) {
    const [name, value] = arg.replace(/^--/, '').split('=', 2);
    if (name in opts) opts[name] = Number(value);
    else throw new Error(`unknown argument ${arg}; see the comment at the top of hack/bench/ds-query-testdata.js`);
  }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  console.log(`hack/bench/ds-query-testdata.js ${new Date().toISOString()} node ${process.version}, ${os.cpus().length} cores; ${opts.series} series x ${opts.points} points, ${opts.connections} in flight, ${opts.duration} s per phase`);
  const token = execFileSync(process.execPath, [MAIN, '--new-service-account-token'], { encoding: 'utf8' }).trim();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tdbench-'));
  let server;
  const cleanup = async () => {
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = () => cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  try {
    server = await startServer(['--server.http_port=0', '--server.http_addr=127.0.0.1', `--paths.data=${dataDir}`], { SVC_AUTH_INITIAL_SERVICE_ACCOUNT_TOKEN: token });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/datasources`, { method: 'POST', headers, body: JSON.stringify({ uid: 'bench-td', name: 'Bench TestData', type: 'svc-testdata-datasource', access: 'proxy' }) });
    if (!created.ok) throw new Error(`creating the data source answered ${created.status}: ${await created.text()}`);
    const body = JSON.stringify({
      from: String(FROM),
      to: String(FROM + opts.points * 1000),
      queries: [{ refId: 'A', datasource: { uid: 'bench-td' }, scenarioId: 'random_walk', seriesCount: opts.series, intervalMs: 1000, maxDataPoints: opts.points }],
    });
    const first = await fetch(`${server.url}/api/ds/query`, { method: 'POST', headers, body });
    const text = await first.text();
    if (first.status !== 200) throw new Error(`POST /api/ds/query answered ${first.status}: ${text.slice(0, 500)}`);
    const frames = JSON.parse(text).results.A.frames;
    console.log(`  one answer: ${frames.length} frames x ${frames[0].data.values[0].length} points, ${(text.length / 1024).toFixed(0)} KiB`);

    const query = await drive(async () => {
      const res = await fetch(`${server.url}/api/ds/query`, { method: 'POST', headers, body });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(String(res.status));
    }, opts);
    const health = await drive(async () => {
      const res = await fetch(`${server.url}/api/health`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(String(res.status));
    }, opts);

    const row = (name, r) => console.log(`  ${name.padEnd(44)} ${r.rps.toFixed(1).padStart(8)} /s   p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms${r.failures ? `   ${r.failures} failed: VOID` : ''}`);
    row(`POST /api/ds/query (testdata, ${opts.series}x${opts.points})`, query);
    row('GET /api/health (same server, same load)', health);
    console.log(`  ratio /api/ds/query / /api/health: ${(query.rps / health.rps).toFixed(4)} requests/s, p50 x${(query.p50 / health.p50).toFixed(1)}, p95 x${(query.p95 / health.p95).toFixed(1)}`);
  } finally {
    process.off('SIGINT', interrupted);
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
