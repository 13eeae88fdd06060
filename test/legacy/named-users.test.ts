/**
 * Routes that name the users (and teams) of what they answer (folder and dashboard permissions, data source
 * permissions, the snapshot list, library elements and their connections) read those users only, in one query,
 * never the whole directory nor one query per user; and answer the same records as before.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { recordReads } from '../support/storage-reads';
import { as, createUser } from '../support/users';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await startTestApp(['--server.edition=enterprise']);
  // Users the routes never name: a directory read whole would answer them too.
  for (const login of ['nu-ana', 'nu-bob', 'nu-cy', 'nu-dee', 'nu-eve', 'nu-fay', 'nu-gus', 'nu-hal']) ids[login] = (await createUser(t, login, { 1: 'Viewer' })).id;
  expect((await t.as.post(DASHBOARDS).send({ metadata: { name: 'nu-board' }, spec: { title: 'Named users board' } })).status).toBe(201);
}, 120_000);
afterAll(() => t.close());

test('folder and dashboard permissions read the users and teams their items name, one query each', async () => {
  await t.as.post('/api/folders').send({ uid: 'nu-folder', title: 'Named users' }).expect(200);
  const team = (await t.as.post('/api/teams').send({ name: 'nu-team', email: 'team@example.com' }).expect(200)).body.teamId as number;
  const items = [
    { userId: ids['nu-bob'], permission: 1 },
    { userId: ids['nu-dee'], permission: 2 },
    { teamId: team, permission: 1 },
    { role: 'Editor', permission: 2 },
  ];
  await t.as.post('/api/folders/nu-folder/permissions').send({ items }).expect(200);
  const reads = recordReads(t.storage);
  let listed;
  try {
    listed = (await t.as.get('/api/folders/nu-folder/permissions').expect(200)).body;
    expect(reads.of('users')).toEqual([{ op: 'page', items: 2 }]);
    expect(reads.of('teams')).toEqual([{ op: 'page', items: 1 }]);
  } finally {
    reads.stop();
  }
  const who = (p: Record<string, unknown>) => [p.userLogin || p.team || p.role, p.userId || p.teamId || 0, p.userEmail || p.teamEmail || '', p.permission];
  expect(listed.map(who)).toEqual([
    ['nu-bob', ids['nu-bob'], 'nu-bob@example.com', 1],
    ['nu-dee', ids['nu-dee'], 'nu-dee@example.com', 2],
    ['nu-team', team, 'team@example.com', 1],
    ['Editor', 0, '', 2],
  ]);

  // A dashboard in the folder lists its own items and those it inherits, the users of both read together.
  await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'nu-dash', title: 'Inherits' }, folderUid: 'nu-folder' }).expect(200);
  await t.as.post('/api/dashboards/uid/nu-dash/permissions').send({ items: [{ userId: ids['nu-fay'], permission: 4 }] }).expect(200);
  const again = recordReads(t.storage);
  try {
    const res = await t.as.get('/api/dashboards/uid/nu-dash/permissions').expect(200);
    expect(res.body.map((p: Record<string, unknown>) => [p.userLogin || p.team || p.role, p.inherited])).toEqual([
      ['nu-fay', false],
      ['nu-bob', true],
      ['nu-dee', true],
      ['nu-team', true],
      ['Editor', true],
    ]);
    expect(again.of('users')).toEqual([{ op: 'page', items: 3 }]);
  } finally {
    again.stop();
  }
});

test('data source permissions read the users their items name, once for the whole list', async () => {
  const id = (await t.as.post('/api/datasources').send({ name: 'nu-ds', uid: 'nu-ds', type: 'loki', access: 'proxy', url: 'http://loki' }).expect(200)).body.id as number;
  for (const login of ['nu-ana', 'nu-cy']) await t.as.post(`/api/datasources/${id}/permissions`).send({ userId: ids[login], permission: 1 }).expect(200);
  const reads = recordReads(t.storage);
  try {
    const res = await t.as.get(`/api/datasources/${id}/permissions`).expect(200);
    expect(res.body.permissions.map((p: Record<string, unknown>) => [p.userLogin || p.builtInRole, p.userId ?? 0])).toEqual([
      ['admin', 1],
      ['Viewer', 0],
      ['nu-ana', ids['nu-ana']],
      ['nu-cy', ids['nu-cy']],
    ]);
    // The creator (admin) and the two users: one read of three.
    expect(reads.of('users')).toEqual([{ op: 'page', items: 3 }]);
  } finally {
    reads.stop();
  }
});

test('the snapshot list reads the creators of the snapshots it answers only', async () => {
  for (const [login, name] of [['nu-eve', 'nu snap B'], ['nu-gus', 'nu snap A'], ['nu-hal', 'nu snap C']]) {
    await as(t, login).post('/api/snapshots').send({ dashboard: { title: 'Named users board' }, name }).expect(200);
  }
  const reads = recordReads(t.storage);
  try {
    const res = await t.as.get('/api/dashboard/snapshots?query=nu snap&limit=2').expect(200);
    expect(res.body.map((s: { name: string; userId: number }) => [s.name, s.userId])).toEqual([
      ['nu snap A', ids['nu-gus']],
      ['nu snap B', ids['nu-eve']],
    ]);
    expect(reads.of('users')).toEqual([{ op: 'page', items: 2 }]);
  } finally {
    reads.stop();
  }
});

test('library elements and their connections read the users who wrote them in one query', async () => {
  for (const login of ['nu-ana', 'nu-bob']) {
    await t.users.setRole(SYSTEM, 1, ids[login], 'Editor');
    await as(t, login).post('/api/library-elements').send({ uid: `el-${login}`, name: `nu element ${login}`, kind: 1, model: { type: 'stat' } }).expect(200);
  }
  await as(t, 'nu-bob').post('/api/dashboards/db').send({ dashboard: { uid: 'nu-uses', title: 'Uses', panels: [{ id: 1, libraryPanel: { uid: 'el-nu-ana' } }] } }).expect(200);
  const reads = recordReads(t.storage);
  try {
    const found = await t.as.get('/api/library-elements?searchString=nu element').expect(200);
    expect(found.body.result.elements.map((e: { uid: string; meta: { createdBy: { id: number; name: string } } }) => [e.uid, e.meta.createdBy.id, e.meta.createdBy.name])).toEqual([
      ['el-nu-ana', ids['nu-ana'], 'nu-ana'],
      ['el-nu-bob', ids['nu-bob'], 'nu-bob'],
    ]);
    expect(reads.of('users')).toEqual([{ op: 'page', items: 2 }]);
    reads.reads.length = 0;
    const connections = await t.as.get('/api/library-elements/el-nu-ana/connections').expect(200);
    expect(connections.body.result.map((c: { connectionUid: string; createdBy: { name: string } }) => [c.connectionUid, c.createdBy.name])).toEqual([['nu-uses', 'nu-bob']]);
    expect(reads.of('users')).toEqual([{ op: 'page', items: 1 }]);
  } finally {
    reads.stop();
  }
});

test('a dashboard whose writer was deleted reads that user only, and shows it as the anchor shows an unknown writer', async () => {
  const gone = await createUser(t, 'nu-gone', { 1: 'Editor' });
  await as(t, 'nu-gone').post('/api/dashboards/db').send({ dashboard: { uid: 'nu-orphan', title: 'Orphan' } }).expect(200);
  await t.as.delete(`/api/admin/users/${gone.id}`).expect(200);
  const reads = recordReads(t.storage);
  try {
    const { meta } = (await t.as.get('/api/dashboards/uid/nu-orphan').expect(200)).body;
    expect([meta.createdBy, meta.updatedBy]).toEqual(['Anonymous', 'Anonymous']);
    // The uid's label lookup finds no one, then the database selects by the uid field: no read answers any user.
    expect(reads.of('users')).toEqual([{ op: 'list', items: 0 }, { op: 'page', items: 0 }]);
  } finally {
    reads.stop();
  }
  // A writer that is no user's uid at all (not even well-formed) reads nothing.
  expect(await t.users.userByUid('no such uid!')).toBeUndefined();
});
