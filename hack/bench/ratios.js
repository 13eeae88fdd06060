#!/usr/bin/env node
/**
 * The ratios of issue 16, in one run: the compiled server (dist/) in a child process of its own, driven by
 * autocannon from this process (so the load generator never shares the server's event loop), against pgbench on the
 * same database and against the server's own `GET /api/health`. It prints figures and asserts nothing.
 *
 *   npm run build && node hack/bench/ratios.js                 # PostgreSQL, then the embedded database
 *   node hack/bench/ratios.js --postgres --duration=5          # one backend, shorter phases
 *   SVC_BENCH_DASHBOARDS=10000 SVC_BENCH_WATCHES=200 node hack/bench/ratios.js
 *
 * Flags: --postgres / --embedded (default both) --duration=<s> per phase (default 10) --connections=<n> (default 8)
 * --pairs=<n> (default 3): creates and pgbench INSERT alternate n times, and the create ratio is the median of the n
 * pairs (this machine's speed drifts by tens of per cent within minutes: a pair is measured a few seconds apart)
 * --node-args='<flags>' (Node's own flags for the server, space-separated: --node-args=--trace-gc)
 * Environment: SVC_BENCH_DATABASE_URL (as run.js); SVC_BENCH_DASHBOARDS, the dashboards seeded before RSS is read
 * (default 100000, 0 skips the memory phase) and SVC_BENCH_EMBEDDED_DASHBOARDS, the same for the embedded database
 * (default 10000: seeding PGlite is slow); SVC_BENCH_WATCHES, idle watches opened after that (default 1000);
 * SVC_BENCH_USERS, users created before the timed phases (default 100: the legacy GET resolves logins).
 */
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const { Client } = require('pg');
const dist = require('./dist');
const { throwAwayDatabase } = require('./database');
const { COLLECTION, RATIOS_SPEC, bodyOf, keyOf, nameOf, seedThroughStorage } = require('./dashboards');

const { MAIN, ROOT, startServer, stopServer } = require('./server-process');
const { cpuMeter } = require('./cpu');
const { flag, nodeArgsOf } = require('./flags');
const DOC = JSON.stringify(RATIOS_SPEC);

function parseArgs(argv) {
  const opts = { backends: [], duration: 10, connections: 8, pairs: 3, nodeArgs: [] };
  for (const arg of argv) {
    const [name, value] = flag(arg);
    if (name === 'postgres' || name === 'embedded') opts.backends.push(name);
    else if (name === 'node-args' && value) opts.nodeArgs = nodeArgsOf(value);
    else if (name === 'duration' || name === 'connections' || name === 'pairs') opts[name] = Number(value);
    else throw new Error(`unknown argument ${arg}; see the comment at the top of hack/bench/ratios.js`);
  }
  if (opts.backends.length === 0) opts.backends = ['postgres', 'embedded'];
  const env = (name, fallback) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
  opts.dashboards = env('SVC_BENCH_DASHBOARDS', 100_000);
  opts.embeddedDashboards = env('SVC_BENCH_EMBEDDED_DASHBOARDS', 10_000);
  opts.watches = env('SVC_BENCH_WATCHES', 1000);
  opts.users = env('SVC_BENCH_USERS', 100);
  return opts;
}

// ---------------------------------------------------------------- the server process

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/**
 * What the server's RSS holds, from its own /metrics (prom-client's default process metrics): V8's heap used and
 * committed, memory outside it (Buffers, native), and the /apis answers kept. Empty when /metrics is off.
 */
async function memoryOf(base) {
  const res = await fetch(`${base}/metrics`);
  if (!res.ok) return '';
  const text = await res.text();
  const value = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)}`;
  return ` [heap ${mib(value('nodejs_heap_size_used_bytes'))} used of ${mib(value('nodejs_heap_size_total_bytes'))}, external ${mib(value('nodejs_external_memory_bytes'))}, answers kept ${mib(value('dashboard_apiserver_apis_answers_kept_bytes'))} MiB]`;
}

// ---------------------------------------------------------------- load

/** Requests per second of one autocannon phase; every non-2xx answer makes the figure void (said so). */
async function rate(url, { duration, connections, method = 'GET', headers = {}, body, distinct = false, meter }) {
  // distinct: a query parameter the server ignores makes each request's URL new, so no kept answer serves it.
  let n = 0;
  const requests = distinct ? [{ setupRequest: (req) => ({ ...req, path: `${req.path}${req.path.includes('?') ? '&' : '?'}bench=${n++}` }) }] : undefined;
  const used = meter?.();
  const r = await autocannon({ url, duration, connections, method, headers, body, ...(requests ? { requests } : {}) });
  const cpu = used?.();
  const bad = r.non2xx + r.errors + r.timeouts;
  const per = (us) => (us === undefined || !r.requests.total ? undefined : us / r.requests.total);
  return { rps: r.requests.mean, p50: r.latency.p50, p99: r.latency.p99, bad, total: r.requests.total, serverCpu: per(cpu?.server), dbCpu: per(cpu?.db) };
}

/**
 * pgbench TPS of a one-statement script on `url`, `connections` clients, and the database's CPU per transaction (µs;
 * with `meter`), or undefined without pgbench.
 */
function pgbench(url, script, { duration, connections, meter }) {
  if (spawnSync('pgbench', ['--version']).status !== 0) return undefined;
  const file = path.join(os.tmpdir(), `svc-bench-${process.pid}-${randomBytes(3).toString('hex')}.sql`);
  fs.writeFileSync(file, script);
  try {
    const used = meter?.();
    const out = execFileSync('pgbench', ['-n', '-M', 'prepared', '-c', String(connections), '-j', '2', '-T', String(duration), '-f', file, url], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const db = used?.().db;
    const done = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? 0);
    return { tps: Number(/tps = ([0-9.]+)/.exec(out)[1]), dbCpu: db === undefined || !done ? undefined : db / done };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function call(base, method, pathname, headers, body) {
  const res = await fetch(`${base}${pathname}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

// ---------------------------------------------------------------- one backend

async function runBackend(backend, opts) {
  const token = execFileSync(process.execPath, [MAIN, '--new-service-account-token'], { encoding: 'utf8' }).trim();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ratios-'));
  const db = backend === 'postgres' ? await throwAwayDatabase('svc_ratios').then((d) => ({ url: d.url.toString(), drop: d.drop })) : undefined;
  const args = ['--server.http_port=0', '--server.http_addr=127.0.0.1', '--registry.compaction_interval_seconds=86400', `--paths.data=${dataDir}`, ...(db ? [`--database.url=${db.url}`] : [])];
  const env = { SVC_AUTH_INITIAL_SERVICE_ACCOUNT_TOKEN: token };
  let server;
  const cleanup = async () => {
    if (server) await stopServer(server);
    await db?.drop().catch((err) => console.error(`dropping the database: ${err.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = () => cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  server = await startServer(args, env, { nodeArgs: opts.nodeArgs });
  const lines = [];
  const out = (s) => {
    lines.push(s);
    console.log(s);
  };
  try {
    const bearer = { authorization: `Bearer ${token}` };
    const base = server.url;
    const createBody = JSON.stringify({ apiVersion: 'dashboard.svc.app/v1beta1', kind: 'Dashboard', metadata: { generateName: 'c-' }, spec: RATIOS_SPEC });
    await call(base, 'POST', '/api/folders', bearer, { uid: 'bench-folder', title: 'Bench folder' });
    await call(base, 'POST', '/api/dashboards/db', bearer, { dashboard: { uid: 'bench-one', title: 'Bench one', panels: [] }, folderUid: 'bench-folder' });
    for (let i = 0; i < 120; i++) await call(base, 'POST', COLLECTION, bearer, bodyOf(i));
    for (let i = 0; i < opts.users; i += 10) {
      await Promise.all(Array.from({ length: Math.min(10, opts.users - i) }, (_, k) => call(base, 'POST', '/api/admin/users', { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` }, { login: `u${i + k}`, email: `u${i + k}@example.com`, password: `pw-${randomBytes(6).toString('hex')}` })));
    }
    const meter = cpuMeter(server.child.pid, Boolean(db));
    const phase = { duration: opts.duration, connections: opts.connections, meter };
    const g = (p, extra = {}) => rate(`${base}${p}`, { ...phase, headers: bearer, ...extra });
    // A short warm-up so the JIT and the pools are the same for every phase.
    await rate(`${base}${COLLECTION}/bench-one`, { duration: 2, connections: opts.connections, headers: bearer });
    // The same for creates (their first batches compile their code): outside the timed create phase.
    await rate(`${base}${COLLECTION}`, { duration: 2, connections: opts.connections, method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: createBody });

    const health = await rate(`${base}/api/health`, phase);
    // The reads whose answers are kept first, then those computed at every request: a phase of new URLs fills the
    // kept answers with tens of thousands of entries, whose collection would otherwise fall in the next phase.
    const get = await g(`${COLLECTION}/bench-one`);
    const legacy = await g('/api/dashboards/uid/bench-one');
    const list = await g(`${COLLECTION}?limit=100`);
    const getComputed = await g(`${COLLECTION}/bench-one`, { distinct: true });
    const listComputed = await g(`${COLLECTION}?limit=100`, { distinct: true });
    const createPhase = () => g(COLLECTION, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: createBody });
    const create = await createPhase();
    let insert;
    let select;
    // Each create phase with the pgbench INSERT run right after it, `pairs` times (on PostgreSQL).
    const pairs = [];
    if (db) {
      const c = new Client({ connectionString: db.url });
      await c.connect();
      await c.query('CREATE TABLE bench_doc (id bigserial PRIMARY KEY, doc jsonb NOT NULL)');
      await c.query(`INSERT INTO bench_doc (doc) SELECT $1::jsonb FROM generate_series(1, 10000)`, [DOC]);
      await c.end();
      const insertPhase = () => pgbench(db.url, `INSERT INTO bench_doc (doc) VALUES ('${DOC}');\n`, phase);
      insert = insertPhase();
      if (insert) {
        pairs.push({ create, insert });
        for (let i = 1; i < opts.pairs; i++) {
          const again = await createPhase();
          pairs.push({ create: again, insert: insertPhase() });
        }
      }
      select = pgbench(db.url, `\\set id random(1, 10000)\nSELECT doc FROM bench_doc WHERE id = :id;\n`, phase);
    }

    const f = (x) => (x === undefined ? 'n/a' : x.toFixed(x < 10 ? 2 : 0));
    const ratio = (a, b) => (a === undefined || b === undefined || b === 0 ? 'n/a' : (a / b).toFixed(3));
    // CPU per request: the server's (all its threads), and the database's where it is a process of its own.
    const cpu = (r) => (r?.serverCpu === undefined && r?.dbCpu === undefined ? '' : `   cpu/req: server ${f(r.serverCpu).padStart(5)} us${r.dbCpu === undefined ? '' : `, db ${f(r.dbCpu).padStart(4)} us`}`);
    const row = (name, r) => out(`  ${name.padEnd(40)} ${f(r.rps).padStart(8)} /s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(5)} ms${cpu(r)}${r.bad ? `   ${r.bad} of ${r.total} not 2xx: VOID` : ''}`);
    out(`\n== ${backend}: ${opts.connections} connections, ${opts.duration} s per phase, server pid ${server.child.pid}`);
    row('GET /api/health', health);
    row('GET /apis/.../dashboards/<name> (bearer)', get);
    row('  the same, a new URL each (not kept)', getComputed);
    row('GET /api/dashboards/uid/<uid> (bearer)', legacy);
    row('GET /apis/.../dashboards?limit=100', list);
    row('  the same, a new URL each (not kept)', listComputed);
    row('POST /apis/.../dashboards (create)', create);
    const dbOnly = (r) => (r?.dbCpu === undefined ? '' : `${' '.repeat(32)}cpu/txn: db ${f(r.dbCpu).padStart(4)} us`);
    out(`  ${'pgbench INSERT ~400 B jsonb'.padEnd(40)} ${f(insert?.tps).padStart(8)} /s${dbOnly(insert)}`);
    out(`  ${'pgbench SELECT by primary key'.padEnd(40)} ${f(select?.tps).padStart(8)} /s${dbOnly(select)}`);
    // The create ratio: the median of the pairs' (the first pair's rates are the rows above).
    const pairRatios = pairs.map((p) => p.create.rps / p.insert.tps).sort((a, b) => a - b);
    const createRatio = pairRatios.length ? pairRatios[Math.floor((pairRatios.length - 1) / 2)].toFixed(3) : ratio(create.rps, insert?.tps);
    if (pairs.length > 1) {
      out(`  create then pgbench INSERT, ${pairs.length} pairs: ${pairs.map((p) => `${f(p.create.rps)}/${f(p.insert.tps)} = ${(p.create.rps / p.insert.tps).toFixed(3)}${p.create.bad ? ' VOID' : ''}`).join(', ')}`);
    }
    out(`  ratios: GET/health ${ratio(get.rps, health.rps)} (target >= 0.5)   create/pgbench-insert ${createRatio}${pairs.length > 1 ? ' (median)' : ''} (>= 0.1)`);
    out(`          list-page/GET ${ratio(list.rps, get.rps)} (>= 0.33)   legacy/apis ${ratio(legacy.rps, get.rps)} (>= 0.75)`);
    out(`   not kept: GET/health ${ratio(getComputed.rps, health.rps)}   list-page/GET ${ratio(listComputed.rps, getComputed.rps)}`);

    const dashboards = backend === 'embedded' ? opts.embeddedDashboards : opts.dashboards;
    if (dashboards > 0) {
      const t0 = Date.now();
      const created = await seed(backend, db, dataDir, dashboards, () => stopServer(server));
      if (server.child.exitCode !== null) server = await startServer(args, env, { nodeArgs: opts.nodeArgs });
      const seedSeconds = (Date.now() - t0) / 1000;
      // What a client does after: a list page, a search, a few gets.
      await call(server.url, 'GET', `${COLLECTION}?limit=100`, bearer);
      await call(server.url, 'GET', '/api/search?limit=100', bearer);
      for (let i = 0; i < 50; i++) await call(server.url, 'GET', `${COLLECTION}/${nameOf(1000 + i)}`, bearer);
      const rss = rssOf(server.child.pid);
      const held = await memoryOf(server.url);
      out(`  RSS with ${created.toLocaleString('en')} dashboards: ${(rss / 2 ** 20).toFixed(0)} MiB (target <= 250 MiB on PostgreSQL; seeded in ${seedSeconds.toFixed(0)} s)${held}`);
    }
    if (opts.watches > 0) {
      const before = rssOf(server.child.pid);
      const sockets = await openWatches(server.url, bearer, opts.watches);
      await new Promise((r) => setTimeout(r, 5000));
      const after = rssOf(server.child.pid);
      const held = await memoryOf(server.url);
      out(`  RSS with ${opts.watches} idle watches: ${(after / 2 ** 20).toFixed(0)} MiB (${((after - before) / opts.watches / 1024).toFixed(1)} KiB per watch)${held}`);
      for (const s of sockets) s.destroy();
    }
  } finally {
    process.off('SIGINT', interrupted);
    await cleanup();
  }
  return lines;
}

/**
 * Seeds dashboards straight through the server's Storage (as run.js does), from a template the registry stored.
 * The embedded database has one owner at a time, so the server is stopped first there (`stop`) and restarted after.
 */
async function seed(backend, db, dataDir, count, stop) {
  const { openStorage } = dist('storage');
  const name = nameOf(0);
  if (backend === 'embedded') await stop();
  const storage = await openStorage({ url: db?.url, dataDir, maxConnections: 4 });
  try {
    const template = (await storage.get(keyOf(name))).value;
    await seedThroughStorage(storage, template, 1000, 1000 + count);
  } finally {
    await storage.close();
  }
  return count;
}

/** Opens `count` watches of the dashboards collection as informers do (from a list's resourceVersion). */
async function openWatches(base, headers, count) {
  const list = await call(base, 'GET', `${COLLECTION}?limit=1`, headers);
  const url = new URL(`${base}${COLLECTION}?watch=true&allowWatchBookmarks=true&resourceVersion=${list.metadata.resourceVersion}`);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const open = () => new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`watch answered ${res.statusCode}`));
      res.on('data', () => undefined);
      resolve(req);
    });
    req.on('error', reject);
  });
  const sockets = [];
  for (let i = 0; i < count; i += 50) sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, open))));
  return sockets;
}

/** The commit dist/ was built from (hack/build-info.js writes it), else the checkout's. */
function commit() {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'build-info.json'), 'utf8')).commit;
  } catch {
    // No build info: the checkout's commit below.
  }
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const head = `hack/bench/ratios.js ${new Date().toISOString()} node ${process.version}, ${os.cpus().length} cores; commit ${commit()}; dashboards ${opts.dashboards}, watches ${opts.watches}`;
  console.log(head);
  for (const backend of opts.backends) await runBackend(backend, opts);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
