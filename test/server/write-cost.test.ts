/**
 * What a write costs while it holds its type's lock (issue 16: that lock makes writes of one type run one at a time,
 * so every statement inside the transaction is paid by every concurrent writer): counted statements of a dashboard
 * create, update and delete through /apis, on both backends. The object row, its history row and the type's counter
 * are written by one statement, and concurrent writes of one type share a transaction and its commit (group commit),
 * each still atomic on its own.
 */
import type { JsonObject } from '../../pkg/meta';
import { permissionObjectName } from '../../pkg/auth/authorization/stored-permissions';
import { startTestApp, type TestApp } from '../support/app';
import { watchApis } from '../support/apis-watch';
import { PREPARED } from '../../storage/postgres/prepared';
import { THEN_COMMIT } from '../../storage/postgres/folded-statements';
import { testBackend } from '../support/backend';

const DASHBOARDS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';

let t: TestApp;
let counting = false;
/** Messages that began a transaction with its lock statement, and that ended one with its write (folded-statements.ts). */
let folded = 0;
let foldedCommits = 0;
const statements: string[] = [];
beforeAll(async () => {
  t = await startTestApp();
  // A grouped write's transaction on PostgreSQL begins with BEGIN and its lock in one message, and ends with its write
  // and COMMIT in one (folded-statements.ts): each counted as the statements it holds.
  const record = (sql: string) => statements.push(sql.replace(/\s+/g, ' ').replace(PREPARED, '').trim());
  t.storage.observeQueries((_s, _f, sql) => {
    if (!counting) return;
    if (/^begin; /.test(sql)) folded++;
    if (sql.startsWith(THEN_COMMIT)) foldedCommits++;
    (/^begin; /.test(sql) ? ['begin', sql.slice('begin; '.length)] : sql.startsWith(THEN_COMMIT) ? [sql.slice(THEN_COMMIT.length), 'commit'] : [sql]).forEach(record);
  });
  await t.as.post('/api/folders').send({ uid: 'f', title: 'F' }).expect(200);
}, 60_000);
afterAll(() => t.close());

/** The statements of the transaction of `request` (from begin to commit). */
async function transaction(request: () => Promise<unknown>): Promise<string[]> {
  statements.length = 0;
  folded = 0;
  foldedCommits = 0;
  counting = true;
  try {
    await request();
  } finally {
    counting = false;
  }
  const begin = statements.findIndex((s) => /^begin/i.test(s));
  const commit = statements.findIndex((s) => /^commit/i.test(s));
  expect(begin).toBeGreaterThanOrEqual(0);
  expect(commit).toBeGreaterThan(begin);
  return statements.slice(begin + 1, commit);
}

/**
 * Runs `requests` while another transaction holds the dashboards' counter (PostgreSQL: the first batch's statement
 * waits there for a second, so the writes sent meanwhile queue behind it and ride in the batch after it, whatever the
 * machine's speed); on the embedded database, whose one connection the holder would take, it just runs them.
 */
async function whileHeld<T>(requests: () => Promise<T>): Promise<T> {
  if (testBackend() !== 'postgres') return requests();
  let release!: () => void;
  let locked!: () => void;
  const held = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.storage.transact(async (tx) => {
    await tx.lockTypes([{ group: 'dashboard.svc.app', resource: 'dashboards' }]);
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await held;
  const answers = requests();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  release();
  await holder;
  return answers;
}

const objectWrites = (sql: string[]) => sql.filter((s) => /^WITH (counter\d*|input) AS/.test(s));
const separateWrites = (sql: string[]) => sql.filter((s) => /^(insert into "resource_history"|update "?resource_version"?|insert into "?resource"? |insert into "?search_index"?)/i.test(s));

test('a create in a folder: both counters locked by one statement, the dashboard and its permissions written by one, three in all', async () => {
  const body = { metadata: { name: 'd1', annotations: { 'svc.app/folder': 'f' } }, spec: { title: 'D1' } };
  const sql = await transaction(() => t.as.post(DASHBOARDS).send(body).expect(201));
  // The dashboard and its managed permission, deferred to the transaction's end: both counters, both objects and
  // both history rows in one statement.
  expect(objectWrites(sql)).toHaveLength(1);
  expect(objectWrites(sql)[0]).toMatch(/^WITH input AS .*jsonb_to_recordset\(\$2::jsonb\)/);
  // The search row and the legacy internal id go with the dashboard's statement.
  expect(separateWrites(sql)).toEqual([]);
  // No existence check before an insert, no references replaced on a new object.
  expect(sql.filter((s) => /delete from "object_reference"/i.test(s))).toEqual([]);
  // Both counters locked by one statement (the dashboards' and the permissions'), the folder's check, the dashboard
  // and its permission object (not read first).
  const locks = sql.filter((s) => /for update$/i.test(s));
  expect(locks).toHaveLength(1);
  if (testBackend() === 'postgres') {
    // Sent with BEGIN, in one message: the types written into the text, in the lock order.
    expect(locks[0]).toMatch(/\('dashboard\.svc\.app', 'dashboards'\), \('iam\.svc\.app', 'resourcepermissions'\)/);
    expect(folded).toBe(1);
    // And the write of both objects is sent with COMMIT: two messages in all.
    expect(foldedCommits).toBe(1);
  } else {
    expect(locks[0]).toMatch(/unnest/);
  }
  expect(sql.length).toBeLessThanOrEqual(3);
  // What the one statement wrote is there: the search row (found by title) and the internal id.
  const hits = (await t.as.get('/api/search?query=D1').expect(200)).body as { uid: string; id: number }[];
  const got = await t.as.get(`${DASHBOARDS}/d1`).expect(200);
  expect(hits.map((h) => [h.uid, h.id])).toEqual([['d1', Number(got.body.metadata.labels['svc.app/deprecatedInternalID'])]]);
});

test('a create by a known caller reads nothing of the caller but the versions before its transaction', async () => {
  const before = async (request: () => Promise<unknown>) => {
    statements.length = 0;
    counting = true;
    try {
      await request();
    } finally {
      counting = false;
    }
    return statements.slice(0, statements.findIndex((s) => /^begin/i.test(s)));
  };
  const sa = await t.as.post('/api/serviceaccounts').send({ name: 'writer', role: 'Editor' }).expect(201);
  const { key } = (await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'k' }).expect(200)).body;
  const create = (name: string) => () => t.anonymous.post(DASHBOARDS).set('Authorization', `Bearer ${key}`).send({ metadata: { name }, spec: { title: name } }).expect(201);
  // The first requests meet the caller (and the token's first use records its lastUsedAt).
  await create('w1')();
  await create('w2')();
  const sql = await before(create('w3'));
  // Token, service account, organization, membership: from memory, validated by one read of every type's version.
  expect(sql).toEqual([expect.stringMatching(/from "?resource_version"?/)]);
  // A revoked token is refused at once all the same.
  const tokens = (await t.as.get(`/api/serviceaccounts/${sa.body.id}/tokens`).expect(200)).body as { id: number }[];
  await t.as.delete(`/api/serviceaccounts/${sa.body.id}/tokens/${tokens[0].id}`).expect(200);
  const refused = await t.anonymous.post(DASHBOARDS).set('Authorization', `Bearer ${key}`).send({ metadata: { name: 'w4' }, spec: { title: 'w4' } });
  expect(refused.status).toBe(401);
  expect((await t.as.get(`${DASHBOARDS}/w4`)).status).toBe(404);
});

test('an update (PUT) and a delete: one statement writes the object, its history and the counter', async () => {
  const got = await t.as.get(`${DASHBOARDS}/d1`).expect(200);
  const put = await transaction(() => t.as.put(`${DASHBOARDS}/d1`).send({ ...got.body, spec: { title: 'D1 again' } }).expect(200));
  expect(objectWrites(put)).toHaveLength(1);
  expect(separateWrites(put)).toEqual([]);
  const del = await transaction(() => t.as.delete(`${DASHBOARDS}/d1`).expect(200));
  expect(objectWrites(del).length).toBeGreaterThanOrEqual(1);
  expect(separateWrites(del)).toEqual([]);
  // What the statements wrote reads back: the history holds the update and the deletion.
  expect((await t.as.get(`${DASHBOARDS}/d1`)).status).toBe(404);
});

test('a stale update and a delete of a missing object answer as before (409, 404) and change nothing', async () => {
  const created = await t.as.post(DASHBOARDS).send({ metadata: { name: 'd2' }, spec: { title: 'D2' } }).expect(201);
  await t.as.put(`${DASHBOARDS}/d2`).send({ ...created.body, spec: { title: 'first' } }).expect(200);
  const stale = await t.as.put(`${DASHBOARDS}/d2`).send({ ...created.body, spec: { title: 'second' } });
  expect(stale.status).toBe(409);
  expect((await t.as.get(`${DASHBOARDS}/d2`).expect(200)).body.spec.title).toBe('first');
  expect((await t.as.delete(`${DASHBOARDS}/nope`)).status).toBe(404);
  const again = await t.as.post(DASHBOARDS).send({ metadata: { name: 'd2' }, spec: { title: 'D2 again' } });
  expect(again.status).toBe(409);
  expect(again.body.reason).toBe('AlreadyExists');
  expect((await t.as.get(`${DASHBOARDS}/d2`).expect(200)).body.spec.title).toBe('first');
});

test('concurrent creates of one type share commits; a failing one fails alone; versions and events in commit order', async () => {
  const start = (await t.as.get(`${DASHBOARDS}?limit=1`).expect(200)).body.metadata.resourceVersion;
  const w = await watchApis(t.app, `${DASHBOARDS}?watch=true&resourceVersion=${start}`);
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'taken' }, spec: { title: 'Taken' } }).expect(201);
  statements.length = 0;
  counting = true;
  // 30 at once: every fifth names the taken dashboard (409), every seventh has a title that is not a string (422).
  const answers = await whileHeld(() =>
    Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const name = i % 5 === 4 ? 'taken' : `g${i}`;
        const title = i % 7 === 6 ? 42 : `G${i}`;
        return t.as.post(DASHBOARDS).send({ metadata: { name }, spec: { title } });
      }),
    ),
  );
  counting = false;
  const expected = answers.map((_, i) => (i % 7 === 6 ? 422 : i % 5 === 4 ? 409 : 201));
  expect(answers.map((a) => a.status)).toEqual(expected);
  const created = answers.filter((a) => a.status === 201);
  // Fewer transactions than creates: some rode in another's transaction (a batch that failed runs again with a
  // savepoint per member after the first; whether one runs again with several members depends on timing:
  // commit-group.test.ts and test/storage/deferred-creates.test.ts show it). Not on the embedded database: its one
  // connection serves the reads before each transaction one at a time, so no write ever finds another's transaction
  // still open to join.
  if (testBackend() === 'postgres') {
    // Each transaction ends with a commit, or is the one statement of a batch that assumed its counters (no commit
    // right after it: a folded write is recorded with its commit next to it).
    const ends = statements.filter((s, i) => /^commit/i.test(s) || (s.startsWith('WITH input AS') && !/^commit/i.test(statements[i + 1] ?? '')));
    expect(ends.length).toBeLessThan(created.length);
  }
  // Each created dashboard is stored, once, with its own version; the refused ones left nothing.
  const listed = (await t.as.get(DASHBOARDS).expect(200)).body.items as { metadata: { name: string; resourceVersion: string } }[];
  const names = listed.map((d) => d.metadata.name).filter((n) => /^g\d+$/.test(n)).sort();
  expect(names).toEqual(created.map((a) => a.body.metadata.name).sort());
  expect(new Set(created.map((a) => a.body.metadata.resourceVersion)).size).toBe(created.length);
  expect((await t.as.get(`${DASHBOARDS}/taken`).expect(200)).body.spec.title).toBe('Taken');
  // The watch sees the creates once each, in increasing resourceVersion.
  const events = (await w.until(created.length + 1)).filter((e) => e.object.metadata.name !== 'taken');
  await w.close();
  expect(events.map((e) => e.type)).toEqual(created.map(() => 'ADDED'));
  const rvs = events.map((e) => BigInt(e.object.metadata.resourceVersion));
  expect(rvs).toEqual([...rvs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  expect(events.map((e) => e.object.metadata.name).sort()).toEqual(names);
  // Internal ids (counted in the locked counter, stored by the write statement) are handed out once each, and a later
  // transaction carries on after the highest.
  const ids = created.map((a) => Number(a.body.metadata.labels['svc.app/deprecatedInternalID']));
  expect(new Set(ids).size).toBe(created.length);
  const next = await t.as.post(DASHBOARDS).send({ metadata: { name: 'after' }, spec: { title: 'After' } }).expect(201);
  expect(Number(next.body.metadata.labels['svc.app/deprecatedInternalID'])).toBeGreaterThan(Math.max(...ids));
}, 60_000);

test('concurrent creates that all succeed share commits with no savepoint between them', async () => {
  statements.length = 0;
  counting = true;
  const answers = await whileHeld(() => Promise.all(Array.from({ length: 12 }, (_, i) => t.as.post(DASHBOARDS).send({ metadata: { name: `ok${i}` }, spec: { title: `OK ${i}` } }))));
  counting = false;
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
  // A savepoint is taken only in the batch after a member failed (see commit-group.ts).
  expect(statements.filter((s) => /^SAVEPOINT/i.test(s))).toEqual([]);
  // The members' creates (dashboard and permissions) are deferred to their transaction's end, all written by one
  // statement: far fewer than two each. Not on the embedded database (no write there finds another's open transaction).
  if (testBackend() === 'postgres') expect(objectWrites(statements).length).toBeLessThan(answers.length);
  for (const a of answers) expect((await t.as.get(`${DASHBOARDS}/${a.body.metadata.name}`).expect(200)).body.spec.title).toBe(a.body.spec.title);
}, 60_000);

test("a new dashboard's permissions replace a stale permission object of its name (written first, read only then)", async () => {
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'fresh' }, spec: { title: 'Fresh' } }).expect(201);
  const permissionKey = (uid: string) => ({ group: 'iam.svc.app', resource: 'resourcepermissions', namespace: 'default', name: permissionObjectName('dashboards', uid) });
  const freshPermissions = (await t.storage.get(permissionKey('fresh')))!.value as { metadata: JsonObject; spec: { resource: JsonObject; permissions: unknown[] } };
  expect(freshPermissions.spec.permissions.length).toBeGreaterThan(0);
  // Left behind by no one in particular: the same object for the name 'stale', with no permission in it.
  const stale = { ...freshPermissions, metadata: { ...freshPermissions.metadata, name: permissionObjectName('dashboards', 'stale') }, spec: { resource: { ...freshPermissions.spec.resource, name: 'stale' }, permissions: [] } };
  await t.storage.transact((tx) => tx.create(permissionKey('stale'), stale as unknown as JsonObject, { folder: '' }));
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'stale' }, spec: { title: 'Stale' } }).expect(201);
  const replaced = (await t.storage.get(permissionKey('stale')))!.value as typeof freshPermissions;
  expect(replaced.spec).toEqual({ ...freshPermissions.spec, resource: { ...freshPermissions.spec.resource, name: 'stale' } });
});

test('two creates of one name at once: one is created, the other answers 409, and one history row is written', async () => {
  const answers = await Promise.all([1, 2, 3].map((i) => t.as.post(DASHBOARDS).send({ metadata: { name: 'twice' }, spec: { title: `Twice ${i}` } })));
  expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
  const winner = answers.find((a) => a.status === 201)!;
  expect((await t.as.get(`${DASHBOARDS}/twice`).expect(200)).body.spec.title).toBe(winner.body.spec.title);
  for (const a of answers.filter((x) => x.status === 409)) expect(a.body.reason).toBe('AlreadyExists');
  const history = await t.storage.objectHistory({ group: 'dashboard.svc.app', resource: 'dashboards', namespace: 'default', name: 'twice' }, { limit: 10 });
  expect(history.map((h) => h.action)).toEqual(['ADDED']);
});
