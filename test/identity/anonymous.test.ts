import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { FOLDERS } from '../support/paths';
import { startTestApp, type TestApp } from '../support/app';
import { PASSWORD } from '../support/users';

/** Anonymous access (`[auth.anonymous]`): off by default; when on, a Viewer of one org that can read, not write. */
const OTHER_FOLDERS = (orgId: number) => `/apis/folder.svc.app/v1beta1/namespaces/org-${orgId}/folders`;
const folder = (name: string) => ({ apiVersion: 'folder.svc.app/v1beta1', kind: 'Folder', metadata: { name }, spec: { title: name } });

describe('anonymous access off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses requests without credentials with 401', async () => {
    const legacy = await t.anonymous.get('/api/user');
    expect(legacy.status).toBe(401);
    expect(legacy.body).toEqual({ message: 'Unauthorized' });
    const apis = await t.anonymous.get(FOLDERS);
    expect(apis.status).toBe(401);
    expect(apis.body).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
  });
});

describe('anonymous access on', () => {
  let t: TestApp;
  let otherOrg: number;
  beforeAll(async () => {
    t = await startTestApp(['--auth.anonymous.enabled=true']);
    expect((await t.as.post(FOLDERS).send(folder('shared'))).status).toBe(201);
    otherOrg = (await t.users!.createOrg(SYSTEM, 'Other')).id;
    await t.users!.setRole(SYSTEM, otherOrg, 1, 'Admin');
    expect((await t.as.post(OTHER_FOLDERS(otherOrg)).send(folder('secret'))).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads the configured org as a Viewer, through /apis and /api', async () => {
    const list = await t.anonymous.get(FOLDERS);
    expect(list.status).toBe(200);
    expect(list.body.items.map((f: { metadata: { name: string } }) => f.metadata.name)).toEqual(['shared']);
    const me = await t.anonymous.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 0, uid: 'anonymous:1', login: '', orgId: 1, isSvcAdmin: false });
  });

  it('cannot write (403)', async () => {
    const res = await t.anonymous.post(FOLDERS).send(folder('nope'));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ kind: 'Status', code: 403, reason: 'Forbidden' });
    const admin = await t.anonymous.post('/api/admin/users').send({ login: 'x', password: PASSWORD });
    expect(admin.status).toBe(403);
    expect(admin.body).toEqual({ message: 'Permission denied' });
    const tokens = await t.anonymous.get('/api/user/auth-tokens');
    expect(tokens.status).toBe(403);
    expect(tokens.body).toEqual({ message: 'Endpoint only available for users' });
  });

  it('sees nothing of another organization', async () => {
    const res = await t.anonymous.get(OTHER_FOLDERS(otherOrg));
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('secret');
    const legacy = await t.anonymous.get('/api/user').set('X-Svc-Org-Id', String(otherOrg));
    expect(legacy.status).toBe(403);
    expect(legacy.body).toEqual({ message: 'Permission denied' });
  });

  it('wrong credentials and stale session cookies stay 401', async () => {
    expect((await t.anonymous.get(FOLDERS).auth('admin', 'wrong')).status).toBe(401);
    expect((await t.anonymous.get(FOLDERS).set('Cookie', 'svc_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(401);
  });

  it('signed-in users are themselves, not anonymous', async () => {
    const me = await t.as.get('/api/user');
    expect(me.body).toMatchObject({ id: 1, login: 'admin' });
  });
});

describe('anonymous access with a role and org of its own', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(['--auth.anonymous.enabled=true', '--auth.anonymous.org_name=Public', '--auth.anonymous.org_role=Editor']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is nobody while the configured org does not exist', async () => {
    expect((await t.anonymous.get('/api/user')).status).toBe(401);
  });

  it('acts in that org with that role once it exists', async () => {
    const org = await t.users!.createOrg(SYSTEM, 'Public');
    const res = await t.anonymous.post(OTHER_FOLDERS(org.id)).send(folder('by-anonymous'));
    expect(res.status).toBe(201);
    expect(res.body.metadata.annotations['svc.app/createdBy']).toBe(`anonymous:${org.id}`);
    expect((await t.anonymous.get(FOLDERS)).status).toBe(403);
  });
});
