// The PostgreSQL baseline, on the same database in the same run: raw queries of the same shape as the server's
// (a scratch table shaped like `resource`), and the server's own list SQL sent directly, without HTTP or JSON.
'use strict';
const { GROUP, RESOURCE, NAMESPACE, nameOf, storedValueOf } = require('./dashboards');
const { now, runConcurrent, runSequential } = require('./stats');

const SCRATCH = 'bench_raw';
const LABEL_SQL = `(value -> 'metadata' -> 'labels' ->> 'team') = 't3'`;

/** The scratch table: `resource`'s columns, primary key (group, resource, namespace, name COLLATE "C") and indexes. */
async function createScratchTable(raw) {
  await raw.query(`CREATE TABLE ${SCRATCH} (LIKE resource INCLUDING ALL)`);
}

/** Copies into the scratch table every current object except `except` (those are inserted by the timed part). */
async function syncScratchTable(raw, except) {
  await raw.query(
    `INSERT INTO ${SCRATCH} SELECT * FROM resource WHERE NOT (name = ANY($1::text[])) ON CONFLICT DO NOTHING`,
    [except],
  );
}

/**
 * VACUUM (ANALYZE) and CHECKPOINT, as autovacuum and the checkpointer would soon after a bulk load: plans are made on the tables' real sizes, and
 * autovacuum, having nothing left to do, does not compete with the timed parts for the CPU.
 */
async function analyze(raw) {
  const t0 = now();
  await raw.query(`VACUUM (ANALYZE) resource, resource_history, resource_version, ${SCRATCH}`);
  // The load's dirty pages are written now rather than by a checkpoint in the middle of a timed part. Needs
  // superuser or pg_checkpoint; without it (or on PGlite) the checkpointer does it whenever it does.
  await raw.query('CHECKPOINT').catch(() => undefined);
  return (now() - t0) / 1000;
}

/**
 * Records the SQL the server sends for a list (through the probe: the same SqlStorage code with kysely's query
 * log on) and returns it with a function that binds another `after` to it.
 */
async function captureListSql(db, query) {
  const SENTINEL = '\u0001after';
  db.captured.length = 0;
  await db.probe.list({ ...query, after: query.after === undefined ? undefined : SENTINEL });
  // kysely writes from "resource", the skip scan FROM resource_history; with a selector it may take several batches,
  // of which this replays the first (the storage.list() row times the whole page).
  const listSql = db.captured.filter((q) => /from\s+"?resource(_history)?"?[\s)]/i.test(q.sql)).pop();
  if (!listSql) throw new Error(`no list query captured, only: ${db.captured.map((q) => q.sql).join(' | ')}`);
  return { sql: listSql.sql, bind: (after) => listSql.parameters.map((p) => (p === SENTINEL ? after : p)) };
}

/** The server's list queries at this size: first page (current table), next page and next page with the selector (history). */
async function captureServerSql(db, rv) {
  const base = { group: GROUP, resource: RESOURCE, namespace: NAMESPACE, limit: 100 };
  const labels = [{ key: 'team', operator: 'Equals', values: ['t3'] }];
  return {
    firstPage: await captureListSql(db, base),
    nextPage: await captureListSql(db, { ...base, after: '', atResourceVersion: rv }),
    selectorNextPage: await captureListSql(db, { ...base, after: '', atResourceVersion: rv, labels }),
  };
}

/**
 * INSERTs, one row per statement (autocommit), into the scratch table the dashboards the server just created over
 * HTTP (indexes `timed`), after copying in everything else: both tables then hold the same keys.
 */
async function insertRaw(db, { template, timed, concurrency }) {
  await syncScratchTable(db.raw, timed.map(nameOf));
  return runConcurrent(timed.length, concurrency, (k) => {
    const value = storedValueOf(template, timed[k]);
    return db.raw.query(
      `INSERT INTO ${SCRATCH} ("group", resource, namespace, name, folder, resource_version, value) VALUES ($1, $2, $3, $4, '', $5, $6)`,
      [GROUP, RESOURCE, NAMESPACE, value.metadata.name, Date.now() * 1000, JSON.stringify(value)],
    );
  });
}

/** The read baseline at the current size: raw queries on the scratch table, then the server's own SQL, directly. */
async function measurePgReads(db, { names, positions, gets, concurrency, firstPages, rv }) {
  const { raw } = db;
  const key = [GROUP, RESOURCE, NAMESPACE];
  const byKey = await runConcurrent(gets, concurrency, () =>
    raw.query(`SELECT namespace, name, resource_version, value FROM ${SCRATCH} WHERE "group" = $1 AND resource = $2 AND namespace = $3 AND name = $4`, [
      ...key,
      names[Math.floor(Math.random() * names.length)],
    ]),
  );
  const keyset = (filter) =>
    `SELECT namespace, name, resource_version, value FROM ${SCRATCH} WHERE "group" = $1 AND resource = $2 AND namespace = $3 AND name > $4${filter} ORDER BY name LIMIT 101`;
  const rawPages = {
    firstPage: await runSequential(firstPages, () => raw.query(keyset(''), [...key, ''])),
    nextPage: await runSequential(positions.length, (k) => raw.query(keyset(''), [...key, positions[k]])),
    selectorNextPage: await runSequential(positions.length, (k) => raw.query(keyset(` AND ${LABEL_SQL}`), [...key, positions[k]])),
  };

  const sql = await captureServerSql(db, rv);
  const serverSql = {
    firstPage: await runSequential(firstPages, () => raw.query(sql.firstPage.sql, sql.firstPage.bind())),
    nextPage: await runSequential(positions.length, (k) => raw.query(sql.nextPage.sql, sql.nextPage.bind(positions[k]))),
    selectorNextPage: await runSequential(positions.length, (k) => raw.query(sql.selectorNextPage.sql, sql.selectorNextPage.bind(positions[k]))),
  };
  const storageList = await runSequential(positions.length, (k) =>
    db.probe.list({ group: GROUP, resource: RESOURCE, namespace: NAMESPACE, limit: 100, after: positions[k], atResourceVersion: rv }),
  );
  return { byKey, rawPages, serverSql, storageList, sql };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a captured query bound to `after`: the plan text. */
async function explain(raw, captured, after) {
  const { rows } = await raw.query(`EXPLAIN (ANALYZE, BUFFERS) ${captured.sql}`, captured.bind(after));
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/**
 * The plan of a captured query bound to `after`: one line of its nodes, top down, and the shared buffers it touched
 * (a count that does not depend on how busy the machine is).
 */
async function planOutline(raw, captured, after) {
  const { rows } = await raw.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${captured.sql}`, captured.bind(after));
  const plan = (typeof rows[0]['QUERY PLAN'] === 'string' ? JSON.parse(rows[0]['QUERY PLAN']) : rows[0]['QUERY PLAN'])[0];
  const nodes = [];
  const walk = (node) => {
    nodes.push(`${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${node['Sort Method'] ? ` (${node['Sort Method']})` : ''}`);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan.Plan);
  const buffers = (plan.Plan['Shared Hit Blocks'] ?? 0) + (plan.Plan['Shared Read Blocks'] ?? 0);
  return { text: `${nodes.join(' > ')}; ${buffers} buffers, ${plan['Execution Time'].toFixed(2)} ms`, buffers };
}

module.exports = { createScratchTable, analyze, insertRaw, measurePgReads, explain, planOutline };
