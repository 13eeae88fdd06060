#!/usr/bin/env node
/**
 * One phase of ratios.js, for working on it: the compiled server in a child process on a throw-away database,
 * autocannon from this process, and what one request cost in CPU (the server's, the database's, the load
 * generator's). With --against, runs alternate between this checkout's dist/ and another's and the medians are
 * compared: on a shared 2-core machine one run's rate drifts by 10 % and more, so a change of a few per cent shows
 * only in the medians of alternated runs.
 *
 *   npm run build && node hack/bench/profile.js create
 *   node hack/bench/profile.js get-new --runs=4 --against=../before     # ../before: a checkout with its own dist/
 *   node hack/bench/profile.js create --cpu-prof=/tmp/prof               # a .cpuprofile of the server per run
 *   node hack/bench/profile.js create --duration=20 --node-args=--perf-basic-prof   # then, while it runs:
 *     perf record -e cpu-clock -F 1999 -g -p <server pid> -- sleep 8    # (see hack/bench/README.md)
 *
 * Phases: health (GET /api/health), get (one dashboard, the same URL: a kept answer), get-new (the same with a query
 * parameter the server ignores, new at each request: computed), legacy (GET /api/dashboards/uid/<uid> of that dashboard,
 * a kept answer), create, create-dry (?dryRun=All).
 * Flags: --duration=<s> (default 10) --connections=<n> (8) --rate=<requests/s> (a fixed rate instead of as fast as
 * it goes) --runs=<n> (1; with --against, pairs) --embedded --cpu-prof=<dir> --against=<checkout>
 * --node-args='<flags>' (Node's own flags for the server, space-separated).
 * It prints figures and asserts nothing.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { throwAwayDatabase } = require('./database');
const { COLLECTION, RATIOS_SPEC: SPEC } = require('./dashboards');
const { cpuMeter } = require('./cpu');
const { flag, nodeArgsOf } = require('./flags');
const { mainOf, ROOT, startServer, stopServer } = require('./server-process');

const PHASES = ['health', 'get', 'get-new', 'legacy', 'create', 'create-dry'];

function parseArgs(argv) {
  const opts = { phase: undefined, duration: 10, connections: 8, runs: 1, rate: undefined, embedded: false, cpuProf: undefined, against: undefined, nodeArgs: [] };
  for (const arg of argv) {
    if (!arg.startsWith('--')) {
      opts.phase = arg;
      continue;
    }
    const [name, value = ''] = flag(arg);
    if (name === 'embedded') opts.embedded = true;
    else if (name === 'cpu-prof') opts.cpuProf = path.resolve(value);
    else if (name === 'against') opts.against = path.resolve(value);
    else if (name === 'node-args' && value) opts.nodeArgs = nodeArgsOf(value);
    else if (['duration', 'connections', 'runs', 'rate'].includes(name) && Number(value) > 0) opts[name] = Number(value);
    else throw new Error(`unknown argument ${arg}; see the comment at the top of hack/bench/profile.js`);
  }
  if (!PHASES.includes(opts.phase)) throw new Error(`name a phase: ${PHASES.join(', ')}`);
  return opts;
}

/** The autocannon options of a phase against `base`. */
function load(phase, base, bearer) {
  const json = { ...bearer, 'content-type': 'application/json' };
  const body = JSON.stringify({ apiVersion: 'dashboard.svc.app/v1beta1', kind: 'Dashboard', metadata: { generateName: 'c-' }, spec: SPEC });
  let n = 0;
  switch (phase) {
    case 'health':
      return { url: `${base}/api/health` };
    case 'get':
      return { url: `${base}${COLLECTION}/bench-one`, headers: bearer };
    case 'get-new':
      return { url: `${base}${COLLECTION}/bench-one`, headers: bearer, requests: [{ setupRequest: (req) => ({ ...req, path: `${req.path}?bench=${n++}` }) }] };
    case 'legacy':
      return { url: `${base}/api/dashboards/uid/bench-one`, headers: bearer };
    case 'create':
      return { url: `${base}${COLLECTION}`, method: 'POST', headers: json, body };
    default:
      return { url: `${base}${COLLECTION}?dryRun=All`, method: 'POST', headers: json, body };
  }
}

/** One run: a server of `root` on a new database, warmed up 3 s, then the timed phase. */
async function run(root, opts) {
  const token = execFileSync(process.execPath, [mainOf(root), '--new-service-account-token'], { encoding: 'utf8' }).trim();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-profile-'));
  const db = opts.embedded ? undefined : await throwAwayDatabase('svc_profile');
  const args = ['--server.http_port=0', '--server.http_addr=127.0.0.1', '--registry.compaction_interval_seconds=86400', `--paths.data=${dataDir}`, ...(db ? [`--database.url=${db.url}`] : [])];
  const nodeArgs = [...(opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProf}`] : []), ...opts.nodeArgs];
  let server;
  try {
    server = await startServer(args, { SVC_AUTH_INITIAL_SERVICE_ACCOUNT_TOKEN: token }, { root, nodeArgs });
    const bearer = { authorization: `Bearer ${token}` };
    const res = await fetch(`${server.url}${COLLECTION}`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'dashboard.svc.app/v1beta1', kind: 'Dashboard', metadata: { name: 'bench-one' }, spec: SPEC }),
    });
    if (!res.ok) throw new Error(`creating the dashboard to read answered ${res.status}`);
    const phase = load(opts.phase, server.url, bearer);
    await autocannon({ ...phase, duration: 3, connections: opts.connections });
    const used = cpuMeter(server.child.pid, Boolean(db))();
    const own0 = process.cpuUsage();
    const r = await autocannon({ ...phase, duration: opts.duration, connections: opts.connections, ...(opts.rate ? { overallRate: opts.rate } : {}) });
    const [cpu, own] = [used(), process.cpuUsage(own0)];
    const n = r.requests.total || 1;
    return {
      rps: r.requests.mean,
      p50: r.latency.p50,
      p99: r.latency.p99,
      bad: r.non2xx + r.errors + r.timeouts,
      server: cpu.server / n,
      db: cpu.db === undefined ? undefined : cpu.db / n,
      loadgen: (own.user + own.system) / n,
    };
  } finally {
    await stopServer(server);
    await db?.drop().catch((err) => console.error(`dropping the database: ${err.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const line = (label, r) =>
  `${label.padEnd(12)} ${r.rps.toFixed(0).padStart(6)} /s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms   cpu/req: server ${r.server.toFixed(0).padStart(4)} us` +
  `${r.db === undefined ? '' : `, db ${r.db.toFixed(0).padStart(4)} us`}, load ${r.loadgen.toFixed(0).padStart(3)} us   server/load ${(r.server / r.loadgen).toFixed(2)}${r.bad ? `   ${r.bad} not 2xx: VOID` : ''}`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const roots = [['this', ROOT], ...(opts.against ? [['against', opts.against]] : [])];
  console.log(`hack/bench/profile.js ${opts.phase} ${new Date().toISOString()} node ${process.version}, ${os.cpus().length} cores, ${opts.embedded ? 'embedded' : 'PostgreSQL'}, ${opts.connections} connections, ${opts.duration} s${opts.rate ? `, ${opts.rate}/s` : ''}`);
  const results = new Map(roots.map(([label]) => [label, []]));
  for (let i = 0; i < opts.runs; i++) {
    for (const [label, root] of roots) {
      const r = await run(root, opts);
      results.get(label).push(r);
      console.log(line(label, r));
    }
  }
  if (opts.runs > 1) {
    for (const [label, rs] of results) {
      const m = (f) => median(rs.map(f));
      console.log(`median ${label.padEnd(7)} ${m((r) => r.rps).toFixed(0).padStart(6)} /s   cpu/req: server ${m((r) => r.server).toFixed(0)} us, load ${m((r) => r.loadgen).toFixed(0)} us   server/load ${m((r) => r.server / r.loadgen).toFixed(2)}`);
    }
  }
  if (opts.cpuProf) console.log(`cpu profiles of the server: ${opts.cpuProf}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
