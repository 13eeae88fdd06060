import { startTestApp, type TestApp } from '../support/app';
import { as, createUser, PASSWORD } from '../support/users';

/**
 * What real clients of the anchor's API saw differ (issue 15): who wrote a dashboard or folder through a service
 * account, the client flow that creates its user when missing, and the anchor's messages.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ACE = expect.stringMatching(/^ACE\d{10}$/);
const denied = (needed: string) => ({ title: 'Access denied', message: `You'll need additional permissions to perform this action. Permissions needed: ${needed}`, accessErrorId: ACE });

async function serviceAccountKey(name: string, role = 'Editor'): Promise<{ key: string; login: string }> {
  const sa = await t.as.post('/api/serviceaccounts').send({ name, role });
  expect(sa.status).toBe(201);
  const token = await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'k' });
  expect(token.status).toBe(200);
  return { key: token.body.key as string, login: sa.body.login as string };
}

describe("a service account's writes", () => {
  it('name the service account in meta.createdBy/updatedBy of dashboards and folders and createdBy of versions', async () => {
    const { key, login } = await serviceAccountKey('CI Bot');
    expect(login).toBe('sa-1-ci-bot');
    const bearer = { Authorization: `Bearer ${key}` };
    const folder = await t.anonymous.post('/api/folders').set(bearer).send({ uid: 'sa-folder', title: 'By CI' });
    expect(folder.status).toBe(200);
    expect(folder.body).toMatchObject({ createdBy: login, updatedBy: login });
    expect((await t.as.get('/api/folders/sa-folder')).body).toMatchObject({ createdBy: login, updatedBy: login });

    expect((await t.anonymous.post('/api/dashboards/db').set(bearer).send({ dashboard: { uid: 'sa-dash', title: 'By CI' }, folderUid: 'sa-folder' })).status).toBe(200);
    // The admin saves next: updatedBy is the admin, createdBy still the service account.
    expect((await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'sa-dash', title: 'By admin' }, folderUid: 'sa-folder', overwrite: true })).status).toBe(200);
    const meta = (await t.as.get('/api/dashboards/uid/sa-dash')).body.meta;
    expect(meta).toMatchObject({ createdBy: login, updatedBy: 'admin' });
    const versions = (await t.as.get('/api/dashboards/uid/sa-dash/versions')).body.versions as { version: number; createdBy: string }[];
    expect(versions.map((v) => [v.version, v.createdBy])).toEqual([[2, 'admin'], [1, login]]);
    expect((await t.as.get('/api/dashboards/uid/sa-dash/versions/1')).body.createdBy).toBe(login);
  });

  it('of a deleted service account show as "Anonymous", as the anchor shows an unknown writer', async () => {
    const sa = await t.as.post('/api/serviceaccounts').send({ name: 'Gone Bot', role: 'Editor' });
    const token = await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'gone-key' });
    await t.anonymous.post('/api/dashboards/db').set('Authorization', `Bearer ${token.body.key}`).send({ dashboard: { uid: 'gone-dash', title: 'Orphan' } }).expect(200);
    await t.as.delete(`/api/serviceaccounts/${sa.body.id}`).expect(200);
    expect((await t.as.get('/api/dashboards/uid/gone-dash')).body.meta).toMatchObject({ createdBy: 'Anonymous', updatedBy: 'Anonymous' });
  });
});

describe('the client that creates its user when missing', () => {
  it('POST /api/admin/users → 412 with the anchor\'s message → GET /api/users/lookup → PATCH /api/org/users/<id>', async () => {
    const form = { name: 'Tess', login: 'tess', email: 'tess@example.com', password: PASSWORD };
    const first = await t.as.post('/api/admin/users').send(form);
    expect(first.status).toBe(200);
    const again = await t.as.post('/api/admin/users').send({ ...form, login: 'Tess2', email: 'TESS@example.com' });
    expect([again.status, again.body]).toEqual([412, { message: "User with email 'TESS@example.com' or username 'Tess2' already exists" }]);

    for (const loginOrEmail of ['tess', 'TESS@example.com', ' Tess ']) {
      const found = await t.as.get(`/api/users/lookup?loginOrEmail=${encodeURIComponent(loginOrEmail)}`);
      expect([found.status, found.body]).toEqual([200, expect.objectContaining({ id: first.body.id, uid: first.body.uid, login: 'tess', email: 'tess@example.com', name: 'Tess', orgId: 1, isSvcAdmin: false })]);
      expect(JSON.stringify(found.body)).not.toMatch(/password/i);
    }
    const patched = await t.as.patch(`/api/org/users/${first.body.id}`).send({ role: 'Editor' });
    expect([patched.status, patched.body]).toEqual([200, { message: 'Organization user updated' }]);
    expect((await as(t, 'tess').get('/api/user/orgs')).body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Editor' }]);
  });

  it('lookup: 404 "user not found" for no such user and without loginOrEmail; users:read needed', async () => {
    for (const q of ['?loginOrEmail=ghost', '', '?loginOrEmail=', '?loginOrEmail[a]=b', '?loginOrEmail=a&loginOrEmail=b']) {
      const res = await t.as.get(`/api/users/lookup${q}`);
      expect([q, res.status, res.body]).toEqual([q, 404, { message: 'user not found' }]);
    }
    await createUser(t, 'lookup-viewer', { 1: 'Admin' });
    const refused = await as(t, 'lookup-viewer').get('/api/users/lookup?loginOrEmail=admin');
    expect([refused.status, refused.body]).toEqual([403, denied('users:read')]);
  });
});

describe("the anchor's messages", () => {
  it('GET /api/org/users refused with the RBAC body naming org.users:read', async () => {
    await createUser(t, 'org-viewer', { 1: 'Viewer' });
    const res = await as(t, 'org-viewer').get('/api/org/users');
    expect([res.status, res.body]).toEqual([403, denied('org.users:read')]);
    const add = await as(t, 'org-viewer').post('/api/org/users').send({ loginOrEmail: 'admin', role: 'Viewer' });
    expect([add.status, add.body]).toEqual([403, denied('org.users:add')]);
  });

  it('a permission list reads "any of a, b"', async () => {
    await createUser(t, 'dash-viewer', { 1: 'Viewer' });
    const res = await as(t, 'dash-viewer').post('/api/dashboards/db').send({ dashboard: { title: 'Nope' } });
    expect([res.status, res.body]).toEqual([403, denied('any of dashboards:create, dashboards:write')]);
  });
});
