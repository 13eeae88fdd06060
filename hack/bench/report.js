// Printing the benchmark's figures: one block per size, a summary table, the comparison line.
'use strict';

const int = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
const ms = (n) => (Number.isFinite(n) ? n.toFixed(2) : '-');
const pair = (s) => (s ? `${ms(s.p50)} / ${ms(s.p95)}` : '-');

/** Left-aligns the first `left` columns, right-aligns the rest. */
function table(rows, left = 1) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) => r.map((cell, c) => (c < left ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('   ').trimEnd());
}

/** The detailed block of one size. */
function sizeBlock(r, opts) {
  const c = opts.concurrency;
  const rows = [
    ['', 'ops/s', 'p50 ms', 'p95 ms'],
    [`server  POST create, ${c} in flight (${int(r.timedCount)})`, int(r.creates.perSecond), ms(r.creates.p50), ms(r.creates.p95)],
    [`server  GET by random name, ${c} in flight (${int(opts.gets)})`, int(r.http.gets.perSecond), ms(r.http.gets.p50), ms(r.http.gets.p95)],
    [`server  GET ?limit=100, first page (${opts.firstPages})`, '', ms(r.http.firstPage.p50), ms(r.http.firstPage.p95)],
    [`server  next page, ${r.positions} tokens spread over the set`, '', ms(r.http.nextPage.p50), ms(r.http.nextPage.p95)],
    [`server  next page, walked from the first page (${r.walkedPages})`, '', ms(r.http.walked.p50), ms(r.http.walked.p95)],
    [`server  next page &labelSelector=${opts.selector} (${r.http.selectorItemsPerPage.toFixed(0)} items/page)`, '', ms(r.http.selectorNextPage.p50), ms(r.http.selectorNextPage.p95)],
    ['storage.list() next page, no HTTP', '', ms(r.pg.storageList.p50), ms(r.pg.storageList.p95)],
    [`pg      INSERT one row, ${c} in flight`, int(r.inserts.perSecond), ms(r.inserts.p50), ms(r.inserts.p95)],
    [`pg      SELECT by primary key, ${c} in flight`, int(r.pg.byKey.perSecond), ms(r.pg.byKey.p50), ms(r.pg.byKey.p95)],
    ['pg      keyset first page (LIMIT 101)', '', ms(r.pg.rawPages.firstPage.p50), ms(r.pg.rawPages.firstPage.p95)],
    ['pg      keyset next page (name > $1 ORDER BY name LIMIT 101)', '', ms(r.pg.rawPages.nextPage.p50), ms(r.pg.rawPages.nextPage.p95)],
    [`pg      keyset next page AND ${opts.selector}`, '', ms(r.pg.rawPages.selectorNextPage.p50), ms(r.pg.rawPages.selectorNextPage.p95)],
    ["pg      server's first-page SQL, sent directly", '', ms(r.pg.serverSql.firstPage.p50), ms(r.pg.serverSql.firstPage.p95)],
    ["pg      server's next-page SQL (history), sent directly", '', ms(r.pg.serverSql.nextPage.p50), ms(r.pg.serverSql.nextPage.p95)],
    ["pg      server's next-page SQL with the selector", '', ms(r.pg.serverSql.selectorNextPage.p50), ms(r.pg.serverSql.selectorNextPage.p95)],
  ];
  return [
    '',
    `N = ${int(r.n)}: seeded ${int(r.seeded)} through Storage in ${r.seedSeconds.toFixed(1)} s` +
      (r.seeded > 0 ? ` (${int(r.seeded / r.seedSeconds)}/s)` : '') +
      `, created ${int(r.timedCount)} over HTTP; history rows ${int(r.historyRows)}; VACUUM ANALYZE + CHECKPOINT ${r.analyzeSeconds.toFixed(2)} s`,
    ...table(rows).map((l) => `  ${l}`),
    `  plan of the server's first-page SQL: ${r.plan.first.text}`,
    `  plan of the server's next-page SQL (second page): ${r.plan.next.text}`,
  ].join('\n');
}

/** One table, three rows per size: the server over HTTP, the server's SQL sent directly, the raw pg baseline. */
function summary(results, opts) {
  const rows = [['N', 'source', 'creates/s', 'gets/s', 'first page p50/p95', 'next page p50/p95', `next page ${opts.selector} p50/p95`]];
  for (const r of results) {
    rows.push([int(r.n), 'server HTTP', int(r.creates.perSecond), int(r.http.gets.perSecond), pair(r.http.firstPage), pair(r.http.nextPage), pair(r.http.selectorNextPage)]);
    rows.push(['', 'server SQL', '-', '-', pair(r.pg.serverSql.firstPage), pair(r.pg.serverSql.nextPage), pair(r.pg.serverSql.selectorNextPage)]);
    rows.push(['', 'raw pg', int(r.inserts.perSecond), int(r.pg.byKey.perSecond), pair(r.pg.rawPages.firstPage), pair(r.pg.rawPages.nextPage), pair(r.pg.rawPages.selectorNextPage)]);
  }
  return ['', 'Summary (ms; "server SQL" = the exact list SQL the server sends, run directly; "raw pg" = same-shape queries on a scratch table)', ...table(rows, 2)].join('\n');
}

/** The comparison the requirement is about: next-page p50 at the largest size against the smallest, ending in one line. */
function comparison(results) {
  const a = results[0];
  const b = results[results.length - 1];
  const ratio = (get) => `x${(get(b) / get(a)).toFixed(2)}`;
  const row = (label, get, note = '') => [`  ${label}`, `${ms(get(a))} ms`, '->', `${ms(get(b))} ms`, ratio(get), note];
  const partial = a.http.selectorItemsPerPage < 100 ? `pages at N=${int(a.n)} hold ${a.http.selectorItemsPerPage.toFixed(0)} items: too few matches` : '';
  const rows = [
    row('server over HTTP', (r) => r.http.nextPage.p50),
    row('server over HTTP, with the selector', (r) => r.http.selectorNextPage.p50, partial),
    row("server's next-page SQL alone", (r) => r.pg.serverSql.nextPage.p50),
    row('raw pg keyset page', (r) => r.pg.rawPages.nextPage.p50),
    [`  buffers the server's next-page SQL touches`, String(a.plan.next.buffers), '->', String(b.plan.next.buffers), ratio((r) => r.plan.next.buffers), ''],
  ];
  const nextHttp = (r) => r.http.nextPage.p50;
  const nextSql = (r) => r.pg.serverSql.nextPage.p50;
  return [
    '',
    `Next page p50, N=${int(a.n)} -> N=${int(b.n)}:`,
    ...table(rows),
    `Next page p50 at N=${int(b.n)} vs N=${int(a.n)}: ${ms(nextHttp(b))} vs ${ms(nextHttp(a))} ms over HTTP (${ratio(nextHttp)}), ` +
      `${ms(nextSql(b))} vs ${ms(nextSql(a))} ms for the server's SQL alone (${ratio(nextSql)}).`,
  ].join('\n');
}

module.exports = { sizeBlock, summary, comparison, table, int, ms };
