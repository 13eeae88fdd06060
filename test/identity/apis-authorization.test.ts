import { startTestApp, type TestApp } from '../support/app';
import { as, PASSWORD } from '../support/users';

/**
 * Who may act in an /apis namespace: members only (server admins only where they are members); an org that does not
 * exist is still a 404 namespace. What a member may do there is decided per object (test/access covers it).
 */
let t: TestApp;
let org2: number;
beforeAll(async () => {
  t = await startTestApp();
  const mk = async (login: string) => {
    const res = await t.as.post('/api/admin/users').send({ login, password: PASSWORD });
    expect(res.status).toBe(200);
    return res.body.id as number;
  };
  const editor = await mk('editor');
  const none = await mk('nobody');
  await mk('viewer');
  const other = await mk('otheradmin');
  await t.as.patch(`/api/org/users/${editor}`).send({ role: 'Editor' });
  await t.as.patch(`/api/org/users/${none}`).send({ role: 'None' });
  await t.as.put(`/api/admin/users/${other}/permissions`).send({ isSvcAdmin: true });
  org2 = (await t.as.post('/api/orgs').send({ name: 'Second' })).body.orgId;
});
afterAll(async () => {
  await t.close();
});

const folders = (ns: string) => `/apis/folder.svc.app/v1beta1/namespaces/${ns}/folders`;
const folder = (name: string) => ({ metadata: { name }, spec: { title: name } });

it('anonymous: 401 Status', async () => {
  const res = await t.anonymous.get(folders('default'));
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
});

it('viewer: reads, may not write (403 Forbidden Status)', async () => {
  expect((await as(t, 'viewer').get(folders('default'))).status).toBe(200);
  const res = await as(t, 'viewer').post(folders('default')).send(folder('by-viewer'));
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
  expect(res.body.message).toMatch(/^folders\.folder\.svc\.app is forbidden: User "viewer" cannot access/);
});

it('editor: writes and deletes', async () => {
  expect((await as(t, 'editor').post(folders('default')).send(folder('by-editor'))).status).toBe(201);
  const got = await t.as.get(`${folders('default')}/by-editor`);
  expect(got.body.metadata.annotations['svc.app/createdBy']).toMatch(/^user:[a-z0-9]{14}$/);
  expect((await as(t, 'editor').delete(`${folders('default')}/by-editor`)).status).toBe(200);
});

it('role None: a member, who reads and writes only what it is granted (nothing here)', async () => {
  await t.as.post(folders('default')).send(folder('by-admin')).expect(201);
  const list = await as(t, 'nobody').get(folders('default'));
  expect(list.status).toBe(200);
  expect(list.body.items).toEqual([]);
  const res = await as(t, 'nobody').post(folders('default')).send(folder('by-nobody'));
  expect(res.status).toBe(403);
  expect(res.body.message).toBe('folders.folder.svc.app is forbidden: User "nobody" cannot access resource "folders" in API group "folder.svc.app": missing permission folders:create');
});

it('non-member of an existing org: 403; a missing org: 404 namespace', async () => {
  const res = await as(t, 'editor').get(folders(`org-${org2}`));
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
  const missing = await as(t, 'editor').get(folders('org-77'));
  expect(missing.status).toBe(404);
  expect(missing.body.message).toBe('namespaces "org-77" not found');
});

it('server admins act only where they are members; the org creator is its Admin', async () => {
  expect((await as(t, 'otheradmin').get(folders(`org-${org2}`))).status).toBe(403);
  expect((await t.as.post(folders(`org-${org2}`)).send(folder('in-two'))).status).toBe(201);
  expect((await t.as.get(folders(`org-${org2}`))).body.items.map((f: { metadata: { name: string } }) => f.metadata.name)).toEqual(['in-two']);
});
