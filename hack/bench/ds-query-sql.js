#!/usr/bin/env node
/**
 * The SQL half of issue 13's query benchmark, in one run: a PostgreSQL table of 1 million rows, queried with
 * `$__timeGroup` through `POST /api/ds/query` of the compiled server (dist/, a child process of its own) and the same
 * SQL (the answer's `executedQueryString`) sent straight to PostgreSQL with pg, the same number in flight. Prints
 * requests/s, p50 and p95 of both and their ratio; asserts nothing.
 *
 *   npm run build && node hack/bench/ds-query-sql.js
 *   SVC_BENCH_SQL_ROWS=100000 node hack/bench/ds-query-sql.js --duration=5 --connections=2
 *
 * Flags: --duration=<s> per phase (default 10) --connections=<n> requests (and direct queries) in flight (default 4)
 * Environment: SVC_BENCH_DATABASE_URL (as run.js); SVC_BENCH_SQL_ROWS, rows of the table (default 1000000: 10 hosts,
 * one row per host and second). The server keeps its own objects in memory (embedded database): only the data
 * source's database is PostgreSQL, as in a deployment where the queried database is not the server's.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client, Pool } = require('pg');
const { throwAwayDatabase } = require('./database');

const { drive, MAIN, startServer, stopServer } = require('./server-process');
const HOSTS = 10;
const START = Date.UTC(2024, 0, 1);

function parseArgs(argv) {
  const opts = { duration: 10, connections: 4, rows: Number(process.env.SVC_BENCH_SQL_ROWS ?? 1_000_000) };
  for (const arg of argv) {
    const [name, value] = arg.replace(/^--/, '').split('=', 2);
    if (name === 'duration' || name === 'connections') opts[name] = Number(value);
    else throw new Error(`unknown argument ${arg}; see the comment at the top of hack/bench/ds-query-sql.js`);
  }
  return opts;
}

/** A throw-away database with `metrics(time, host, value)`: `rows` rows, one per host and second, indexed on time. */
async function metricsDatabase(rows) {
  const { name, url, drop } = await throwAwayDatabase('svc_dsbench');
  const c = new Client({ connectionString: url.toString() });
  await c.connect();
  await c.query('CREATE TABLE metrics (time timestamptz NOT NULL, host text NOT NULL, value double precision)');
  const seconds = Math.ceil(rows / HOSTS);
  await c.query(
    `INSERT INTO metrics SELECT to_timestamp($1::bigint + s), 'host-' || h, random() * 100
     FROM generate_series(0, $2::int - 1) s, generate_series(1, $3::int) h LIMIT $4`,
    [START / 1000, seconds, HOSTS, rows],
  );
  await c.query('CREATE INDEX ON metrics (time)');
  await c.query('VACUUM ANALYZE metrics');
  await c.end();
  return {
    url,
    name,
    seconds,
    drop,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  console.log(`hack/bench/ds-query-sql.js ${new Date().toISOString()} node ${process.version}, ${os.cpus().length} cores; ${opts.rows.toLocaleString('en')} rows, ${opts.connections} in flight, ${opts.duration} s per phase`);
  const token = execFileSync(process.execPath, [MAIN, '--new-service-account-token'], { encoding: 'utf8' }).trim();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dsbench-'));
  let server;
  let db;
  let pool;
  const cleanup = async () => {
    await stopServer(server);
    await pool?.end().catch(() => undefined);
    await db?.drop().catch((err) => console.error(`dropping the database: ${err.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = () => cleanup().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  try {
    const t0 = Date.now();
    db = await metricsDatabase(opts.rows);
    console.log(`  table seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer(['--server.http_port=0', '--server.http_addr=127.0.0.1', `--paths.data=${dataDir}`], { SVC_AUTH_INITIAL_SERVICE_ACCOUNT_TOKEN: token });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (pathname, body) => {
      const res = await fetch(`${server.url}${pathname}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const json = await res.json();
      if (!res.ok) throw new Error(`POST ${pathname} answered ${res.status}: ${JSON.stringify(json).slice(0, 500)}`);
      return json;
    };
    await post('/api/datasources', {
      uid: 'bench-pg',
      name: 'Bench PostgreSQL',
      type: 'svc-postgresql-datasource',
      access: 'proxy',
      url: `${db.url.hostname}:${db.url.port || 5432}`,
      user: decodeURIComponent(db.url.username) || 'postgres',
      database: db.name,
      jsonData: { sslmode: 'disable', maxOpenConns: opts.connections },
      secureJsonData: { password: decodeURIComponent(db.url.password) },
    });
    const body = {
      from: String(START),
      to: String(START + db.seconds * 1000),
      queries: [{ refId: 'A', datasource: { uid: 'bench-pg' }, format: 'time_series', rawSql: "SELECT $__timeGroupAlias(time, '5m'), host, avg(value) AS value FROM metrics WHERE $__timeFilter(time) GROUP BY 1, 2 ORDER BY 1" }],
    };
    const first = await post('/api/ds/query', body);
    const frame = first.results.A.frames[0];
    const sql = frame.schema.meta.executedQueryString;
    console.log(`  one answer: ${frame.schema.fields.length - 1} series x ${frame.data.values[0].length} points; SQL: ${sql}`);

    const text = JSON.stringify(body);
    const http = await drive(async () => {
      const res = await fetch(`${server.url}/api/ds/query`, { method: 'POST', headers, body: text });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(String(res.status));
    }, opts);
    pool = new Pool({ connectionString: db.url.toString(), max: opts.connections });
    const direct = await drive(() => pool.query(sql), opts);

    const row = (name, r) => console.log(`  ${name.padEnd(44)} ${r.rps.toFixed(1).padStart(8)} /s   p50 ${r.p50.toFixed(1).padStart(7)} ms   p95 ${r.p95.toFixed(1).padStart(7)} ms${r.failures ? `   ${r.failures} failed: VOID` : ''}`);
    row('POST /api/ds/query ($__timeGroup, 5m)', http);
    row('the same SQL straight to PostgreSQL (pg)', direct);
    console.log(`  ratio /api/ds/query / direct: ${(http.rps / direct.rps).toFixed(3)} requests/s, p50 x${(http.p50 / direct.p50).toFixed(2)}`);
  } finally {
    process.off('SIGINT', interrupted);
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
