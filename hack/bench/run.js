#!/usr/bin/env node
/**
 * List and CRUD benchmark of the dashboards collection at several sizes, with its PostgreSQL baseline measured in
 * the same run on the same database. It prints figures and asserts nothing.
 *
 *   npm run build && npm run bench                      # N = 1,000, 10,000, 100,000 (about 2 minutes on 2 cores)
 *   npm run build && npm run bench -- --quick           # N = 1,000, 5,000
 *   node hack/bench/run.js --sizes=1000,20000 --embedded
 *
 * Flags: --sizes=<n,n,...> --quick --embedded (in-memory PGlite instead of PostgreSQL) --concurrency=16
 *        --creates=1000 --gets=2000 --pages=50 (next-page samples) --explain-all (EXPLAIN at every size)
 * Environment: SVC_BENCH_DATABASE_URL, the PostgreSQL server a throw-away database is created on and dropped from
 * (default postgres://postgres@127.0.0.1:5432/postgres).
 *
 * For each N: dashboards are seeded up to N - creates straight through the server's Storage (batched transactions),
 * then `creates` are POSTed over HTTP (timed), then gets, first pages and next pages are timed over HTTP, and the
 * same shapes are timed as raw SQL. See hack/bench/README.md for what each figure means.
 */
'use strict';
const { withBenchServer } = require('./bench-server');
const { SELECTOR, keyOf, nameOf, seedThroughStorage } = require('./dashboards');
const { httpClient, createOverHttp, measureHttp } = require('./http-phase');
const { createScratchTable, analyze, insertRaw, measurePgReads, explain, planOutline } = require('./pg-phase');
const { sizeBlock, summary, comparison, int } = require('./report');
const { now } = require('./stats');


/** First pages timed per size, and next pages walked from the first page's own token. */
const FIRST_PAGES = 30;
const WALK_PAGES = 20;

const USAGE = `usage: node hack/bench/run.js [--sizes=1000,10000,100000 | --quick] [--embedded] [--concurrency=16]
                              [--creates=1000] [--gets=2000] [--pages=50] [--explain-all]`;

function parseArgs(argv) {
  const opts = { sizes: [1000, 10000, 100000], embedded: false, concurrency: 16, creates: 1000, gets: 2000, pages: 50, explainAll: false };
  const positive = (name, v) => {
    if (!/^[1-9][0-9]*$/.test(v ?? '')) throw new Error(`--${name} takes a positive integer, not ${JSON.stringify(v)}\n${USAGE}`);
    return Number(v);
  };
  for (const arg of argv) {
    const [name, value] = arg.replace(/^--/, '').split('=', 2);
    if (name === 'help' || name === 'h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (name === 'quick') opts.sizes = [1000, 5000];
    else if (name === 'embedded') opts.embedded = true;
    else if (name === 'explain-all') opts.explainAll = true;
    else if (name === 'sizes') opts.sizes = (value ?? '').split(',').map((v) => positive('sizes', v.trim()));
    else if (['concurrency', 'creates', 'gets', 'pages'].includes(name)) opts[name] = positive(name, value);
    else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  opts.sizes = [...new Set(opts.sizes)].sort((a, b) => a - b);
  if (opts.sizes[0] < 202) throw new Error('sizes must be at least 202: next pages are sampled where a full page follows');
  if (opts.pages < 2) throw new Error('--pages must be at least 2');
  return opts;
}

/** `count` names spread evenly from the start of the sorted set to the last one with a full page after it. */
function spreadPositions(sorted, count) {
  const last = sorted.length - 101;
  return Array.from({ length: count }, (_, k) => sorted[Math.floor((k * last) / (count - 1))]);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = now();
  await withBenchServer({ embedded: opts.embedded, rawConnections: 10 }, async ({ db, server, config }) => {
    await createScratchTable(db.raw);
    const http = httpClient(server.url);
    console.log(`dashboard-apiserver bench: ${db.label}; server ${server.url} (pool ${config.database.max_open_conn}); node ${process.version}`);
    console.log(`sizes ${opts.sizes.map(int).join(', ')}; ${opts.concurrency} requests in flight; pages of 100; selector ${SELECTOR} (1 in 10)`);

    // One dashboard over HTTP gives the template seeded envelopes are copied from; a few requests warm the JIT.
    await createOverHttp(http, 0, 1, 1);
    const template = (await server.storage.get(keyOf(nameOf(0)))).value;
    for (let k = 0; k < 200; k++) await http.get(`/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards/${nameOf(0)}`);
    let count = 1;

    const results = [];
    let sql;
    for (const n of opts.sizes) {
      const timedCount = Math.min(opts.creates, n - count);
      const seedTo = n - timedCount;
      const seedStart = now();
      await seedThroughStorage(server.storage, template, count, seedTo);
      const seedSeconds = (now() - seedStart) / 1000;
      const seeded = seedTo - count;
      const creates = await createOverHttp(http, seedTo, n, opts.concurrency);
      const timed = Array.from({ length: timedCount }, (_, k) => seedTo + k);
      const inserts = await insertRaw(db, { template, timed, concurrency: opts.concurrency });
      const analyzeSeconds = await analyze(db.raw);
      count = n;

      const names = Array.from({ length: n }, (_, i) => nameOf(i));
      const sorted = [...names].sort(); // ASCII names: code-unit order is the byte order of COLLATE "C"
      const positions = spreadPositions(sorted, opts.pages);
      const shared = { names, positions, gets: opts.gets, concurrency: opts.concurrency, firstPages: FIRST_PAGES };
      const httpFigures = await measureHttp(http, { ...shared, walkPages: WALK_PAGES });
      const pg = await measurePgReads(db, { ...shared, rv: httpFigures.rv });
      const { rows } = await db.raw.query('SELECT count(*)::int AS c FROM resource_history');
      const plan = { first: await planOutline(db.raw, pg.sql.firstPage), next: await planOutline(db.raw, pg.sql.nextPage, sorted[99]) };
      const walkedPages = Math.min(WALK_PAGES, Math.floor((n - 1) / 100));
      const r = { n, seeded, seedSeconds, timedCount, creates, inserts, analyzeSeconds, http: httpFigures, pg, plan, historyRows: rows[0].c, positions: positions.length, walkedPages };
      results.push(r);
      console.log(sizeBlock(r, { ...opts, selector: SELECTOR, firstPages: FIRST_PAGES }));
      sql = { ...pg.sql, sorted };
      if (opts.explainAll && n !== opts.sizes[opts.sizes.length - 1]) await printExplains(db, sql, n);
    }

    await printExplains(db, sql, opts.sizes[opts.sizes.length - 1]);
    console.log(summary(results, { selector: SELECTOR }));
    console.log(comparison(results));
    console.log(`\ntotal ${((now() - t0) / 1000).toFixed(0)} s`);
  });
}

/** The server's next-page SQL, with its plan for the second page and for a page in the middle of the set. */
async function printExplains(db, sql, n) {
  const second = sql.sorted[99];
  const middle = sql.sorted[Math.floor(sql.sorted.length / 2)];
  console.log(`\nThe server's next-page SQL at N = ${int(n)} (what storage.list sends with a continue token):\n  ${sql.nextPage.sql}`);
  console.log(`\nEXPLAIN (ANALYZE, BUFFERS), second page (after ${JSON.stringify(second)}):\n${indent(await explain(db.raw, sql.nextPage, second))}`);
  console.log(`\nEXPLAIN (ANALYZE, BUFFERS), page in the middle (after ${JSON.stringify(middle)}):\n${indent(await explain(db.raw, sql.nextPage, middle))}`);
  console.log(`\nEXPLAIN (ANALYZE, BUFFERS), second page with ${SELECTOR}:\n${indent(await explain(db.raw, sql.selectorNextPage, second))}`);
}

const indent = (text) => text.replace(/^/gm, '    ');

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
