#!/usr/bin/env node
/**
 * GET /api/search at 100,000 dashboards: first-page latencies over HTTP for the usual searches, and the same searches
 * through storage.search() alone (the index's share). It prints figures and asserts nothing.
 *
 *   npm run build && node hack/bench/search.js                 # 100,000 dashboards in 100 folders
 *   node hack/bench/search.js --size=20000 --samples=20 --embedded
 *
 * Flags: --size=100000 --folders=100 --samples=30 (requests per search) --embedded (in-memory PGlite)
 * Environment: SVC_BENCH_DATABASE_URL, as hack/bench/run.js.
 *
 * Dashboards are seeded as stored rows copied from one created over HTTP (see seedDashboards), indexed by the
 * server's storage.syncSearchIndex, the tables vacuumed and analyzed; then each search is requested `samples` times,
 * one after another, as the admin, and a few as a Viewer who may view half the folders.
 */
'use strict';
const dist = require('./dist');
const { withBenchServer } = require('./bench-server');
const { GROUP, RESOURCE, NAMESPACE, COLLECTION, nameOf, bodyOf, keyOf, storedValueOf } = require('./dashboards');
const { httpClient } = require('./http-phase');
const { table, int, ms } = require('./report');
const { now, runSequential } = require('./stats');

const { dashboardKind } = dist('apis');
const { searchFieldsOf } = dist('pkg/registry/search');
const { StoredPermissions } = dist('pkg/auth/stored-permissions');
const { IdentityDirectory, SYSTEM } = dist('pkg/auth/identity-directory');

const FOLDERS = `/apis/folder.svc.app/v1beta1/namespaces/${NAMESPACE}/folders`;
const SEED_BATCH = 1000;

const USAGE = 'usage: node hack/bench/search.js [--size=100000] [--folders=100] [--samples=30] [--embedded]';

function parseArgs(argv) {
  const opts = { size: 100000, folders: 100, samples: 30, embedded: false };
  for (const arg of argv) {
    const [name, value] = arg.replace(/^--/, '').split('=', 2);
    if (name === 'help' || name === 'h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (name === 'embedded') opts.embedded = true;
    else if (['size', 'folders', 'samples'].includes(name) && /^[1-9][0-9]*$/.test(value ?? '')) opts[name] = Number(value);
    else throw new Error(`bad argument ${arg}\n${USAGE}`);
  }
  return opts;
}

const folderName = (f) => `bench-folder-${String(f).padStart(3, '0')}`;

/** The i-th seeded dashboard's envelope: the template's shape, in folder i mod `folders`, with numeric id i + 1. */
function seededValue(template, i, folders) {
  const value = storedValueOf(template, i);
  value.metadata.annotations = { ...value.metadata.annotations, 'svc.app/folder': folderName(i % folders) };
  value.metadata.labels = { ...value.metadata.labels, 'svc.app/deprecatedInternalID': String(i + 1) };
  return value;
}

/**
 * Seeds dashboards [1, size) as stored rows (`resource` and its `resource_history` ADDED row, the versions storage
 * would hand out), SEED_BATCH rows per statement: row-at-a-time creates would take many minutes at 100,000 on a
 * shared machine. Their search rows are then written by the server's own code, storage.syncSearchIndex (what a
 * start-up does for objects stored before the index existed), which is timed.
 */
async function seedDashboards(db, storage, template, opts) {
  const { rows } = await db.raw.query('SELECT resource_version FROM resource_version WHERE "group" = $1 AND resource = $2', [GROUP, RESOURCE]);
  let rv = Number(rows[0].resource_version);
  for (let start = 1; start < opts.size; start += SEED_BATCH) {
    const params = [];
    const tuples = [];
    for (let i = start; i < Math.min(opts.size, start + SEED_BATCH); i++) {
      rv += 1;
      const b = params.length;
      params.push(nameOf(i), folderName(i % opts.folders), rv, JSON.stringify(seededValue(template, i, opts.folders)));
      tuples.push(`('${GROUP}', '${RESOURCE}', '${NAMESPACE}', $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}::jsonb)`);
    }
    await db.raw.query(`INSERT INTO resource ("group", resource, namespace, name, folder, resource_version, value) VALUES ${tuples.join(',')}`, params);
    const history = tuples.map((t) => t.replace(/\)$/, ", 0, 'ADDED')"));
    await db.raw.query(
      `INSERT INTO resource_history ("group", resource, namespace, name, folder, resource_version, value, previous_resource_version, action) VALUES ${history.join(',')}`,
      params,
    );
  }
  await db.raw.query('UPDATE resource_version SET resource_version = $1, last_internal_id = $2 WHERE "group" = $3 AND resource = $4', [rv, opts.size, GROUP, RESOURCE]);
  const t0 = now();
  const indexed = await storage.syncSearchIndex({ group: GROUP, resource: RESOURCE }, (value) => searchFieldsOf(dashboardKind, value));
  return { indexed, indexSeconds: (now() - t0) / 1000 };
}

/** The searches timed: [label, query string]. Titles are "Service <i> latency", tags api, bench and t0..t9. */
function searches(opts) {
  const rare = Math.floor(opts.size * 0.77);
  return [
    ['(baseline: GET /api/user, authentication and one read)', null],
    ['no query (folders, then dashboards)', ''],
    ['no query, limit=100', '?limit=100'],
    ['no query, sort=alpha-desc', '?sort=alpha-desc'],
    ['type=dash-db, page 50 of 100 (limit=100)', '?type=dash-db&limit=100&page=50'],
    ['query=latency (every dashboard)', '?query=latency'],
    [`query=service ${rare} latency (one dashboard)`, `?query=${encodeURIComponent(`service ${rare} latency`)}`],
    ['tag=t3 (1 in 10)', '?tag=t3'],
    ['tag=t3&tag=api', '?tag=t3&tag=api'],
    ['folderUIDs=<one folder>', `?folderUIDs=${folderName(7)}`],
    ['starred=true (5 stars)', '?starred=true'],
    ['as a Viewer of half the folders: no query', { viewer: '' }],
    ['as a Viewer of half the folders: tag=t3', { viewer: '?tag=t3' }],
    ['as a Viewer of half the folders: page 20 (limit=100)', { viewer: '?type=dash-db&limit=100&page=20' }],
  ];
}

/** What storage.search() is asked for the same search, without HTTP, permissions or conversion. */
function storageQuery(qs, opts) {
  const p = new URLSearchParams(qs);
  const types = p.get('type') === 'dash-db' ? [{ group: GROUP, resource: RESOURCE }] : [{ group: 'folder.svc.app', resource: 'folders' }, { group: GROUP, resource: RESOURCE }];
  const limit = Number(p.get('limit') ?? 1000);
  return {
    namespace: NAMESPACE,
    types: p.get('sort') ? types : [types[types.length - 1]],
    title: p.get('query') ?? undefined,
    tags: p.getAll('tag').length ? p.getAll('tag') : undefined,
    folders: p.get('folderUIDs') ? [p.get('folderUIDs')] : undefined,
    names: p.get('starred') ? Array.from({ length: 5 }, (_, k) => nameOf(k * Math.floor(opts.size / 5) + 1)) : undefined,
    order: p.get('sort') === 'alpha-desc' ? 'desc' : 'asc',
    limit: limit * Number(p.get('page') ?? 1),
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const t0 = now();
  await withBenchServer({ embedded: opts.embedded, rawConnections: 2 }, async ({ db, server }) => {
    const admin = httpClient(server.url);
    console.log(`search bench: ${db.label}; ${int(opts.size)} dashboards in ${opts.folders} folders; ${opts.samples} requests per search, one at a time; node ${process.version}`);

    for (let f = 0; f < opts.folders; f++) await admin.post(FOLDERS, { metadata: { name: folderName(f) }, spec: { title: `Team ${f} folder` } });
    await admin.post(COLLECTION, { ...bodyOf(0), metadata: { ...bodyOf(0).metadata, annotations: { 'svc.app/folder': folderName(0) } } });
    const template = (await server.storage.get(keyOf(nameOf(0)))).value;
    const seedStart = now();
    const { indexed, indexSeconds } = await seedDashboards(db, server.storage, template, opts);
    const seedSeconds = (now() - seedStart) / 1000;
    const vacuumStart = now();
    await db.raw.query('VACUUM (ANALYZE) resource, resource_history, search_index');
    const { rows: counted } = await db.raw.query('SELECT count(*)::int AS n FROM search_index WHERE resource = $1', [RESOURCE]);
    if (counted[0].n !== opts.size) throw new Error(`the index holds ${counted[0].n} dashboards, not ${opts.size}`);
    console.log(
      `seeded ${int(opts.size - 1)} rows in ${seedSeconds.toFixed(1)} s, of which storage.syncSearchIndex indexing ${int(indexed)} in ${indexSeconds.toFixed(1)} s; ` +
        `VACUUM ANALYZE ${((now() - vacuumStart) / 1000).toFixed(1)} s`,
    );
    for (let k = 0; k < 5; k++) await admin.post(`/api/user/stars/dashboard/uid/${nameOf(k * Math.floor(opts.size / 5) + 1)}`);
    // A Viewer, who views the folders (and so their dashboards) through the default items a root folder gets, less
    // every other folder, whose Viewer item is taken away: half the hits of each index read are dropped.
    await admin.post('/api/admin/users', { login: 'bench-viewer', password: 'bench-viewer-pw', email: 'bench-viewer@example.com' });
    const viewer = httpClient(server.url, 'bench-viewer', 'bench-viewer-pw');
    const permissions = new StoredPermissions(new IdentityDirectory(server.storage).registry);
    for (let f = 0; f < opts.folders; f += 2) {
      const items = await permissions.itemsOf(1, 'folders', folderName(f));
      await permissions.replace(SYSTEM, 1, 'folders', folderName(f), items.filter((i) => !(i.grantee.kind === 'role' && i.grantee.role === 'Viewer')));
    }

    const rows = [['GET /api/search', 'hits', 'KiB', 'HTTP p50 ms', 'p95 ms', 'storage.search p50', 'p95']];
    for (const [label, qs] of searches(opts)) {
      const asViewer = qs !== null && typeof qs === 'object';
      const client = asViewer ? viewer : admin;
      const url = qs === null ? '/api/user' : `/api/search${asViewer ? qs.viewer : qs}`;
      let body;
      for (let k = 0; k < 3; k++) body = await client.get(url); // warm the plan cache and the JIT
      const httpTimes = await runSequential(opts.samples, async () => {
        body = await client.get(url);
      });
      if (qs === null || asViewer) {
        const hits = Array.isArray(body) ? int(body.length) : '';
        rows.push([label, hits, hits && int(Buffer.byteLength(JSON.stringify(body)) / 1024), ms(httpTimes.p50), ms(httpTimes.p95), '', '']);
        continue;
      }
      const query = storageQuery(qs, opts);
      const storageTimes = await runSequential(opts.samples, () => server.storage.search(query));
      const kib = Buffer.byteLength(JSON.stringify(body)) / 1024;
      rows.push([label, int(body.length), int(kib), ms(httpTimes.p50), ms(httpTimes.p95), ms(storageTimes.p50), ms(storageTimes.p95)]);
    }
    console.log(table(rows, 1).map((l) => `  ${l}`).join('\n'));
    console.log('\nstorage.search is the index query alone (one type, or both merged with a sort; the whole offset for page 50).');
    console.log(`\ntotal ${((now() - t0) / 1000).toFixed(0)} s`);
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exitCode = 1;
});
