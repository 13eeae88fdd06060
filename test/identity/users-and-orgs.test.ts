import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { as, PASSWORD } from '../support/users';

/**
 * Users, organizations and org selection through HTTP (legacy /api), on the stored identity kinds. Users are made
 * by the admin endpoints, as an operator would.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A user made by `POST /api/admin/users`, as an operator makes one. */
async function createUserByAdmin(login: string, password = PASSWORD, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await t.as.post('/api/admin/users').send({ login, email: `${login}@example.com`, name: login, password, ...extra });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ message: 'User created' });
  return res.body.id as number;
}

describe('start-up', () => {
  it('stores org 1 and the configured admin, a server admin and Admin of org 1', async () => {
    const me = await t.as.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 1, login: ADMIN.user, email: 'admin@localhost', orgId: 1, isSvcAdmin: true, isDisabled: false });
    expect(me.body.uid).toBe(ADMIN.user);
    expect(JSON.stringify(me.body)).not.toMatch(/password/i);
    const orgs = await t.as.get('/api/user/orgs');
    expect(orgs.body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Admin' }]);
  });

  it('keeps the password hash out of every registry output', async () => {
    const reg = t.users!.registry;
    const ctx = { requester: { identity: 'user:test' }, namespace: 'svc-identity', fieldManager: 'test' };
    const [userKind] = reg.kinds;
    const got = await reg.get(ctx, userKind, '1');
    expect(got.spec).not.toHaveProperty('passwordHash');
    const listed = await reg.list(ctx, userKind, {});
    // managedFields may name the field (f:passwordHash); no value of it is ever in an output.
    expect(JSON.stringify(listed)).not.toMatch(/"passwordHash":|scrypt\$/);
    // An update that never saw the hash keeps it: the admin can still log in.
    await reg.patch(ctx, userKind, '1', (cur) => ({ ...cur, spec: { ...cur.spec, name: 'The Admin' } }));
    expect((await t.as.get('/api/user')).body.name).toBe('The Admin');
    expect(await t.users!.passwordHashOf(1)).toMatch(/^scrypt\$/);
  });
});

describe('authentication', () => {
  it('refuses a wrong password with 401 in the shape of each API', async () => {
    const legacy = await t.anonymous.get('/api/user').auth(ADMIN.user, 'wrong');
    expect(legacy.status).toBe(401);
    expect(legacy.body).toEqual({ message: 'Unauthorized' });
    const apis = await t.anonymous.get('/apis/folder.svc.app/v1beta1/namespaces/default/folders').auth('nobody', 'x');
    expect(apis.status).toBe(401);
    expect(apis.body).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
  });

  it('logs in by login or email and blocks a login after five failures, even with the right password', async () => {
    await createUserByAdmin('throttled');
    expect((await as(t, 'throttled@example.com').get('/api/user')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await as(t, 'throttled', 'bad').get('/api/user')).status).toBe(401);
    expect((await as(t, 'throttled').get('/api/user')).status).toBe(401);
  });

  it('refuses disabled users', async () => {
    const id = await createUserByAdmin('disabled');
    expect((await as(t, 'disabled').get('/api/user')).status).toBe(200);
    await t.users!.updateUser({ identity: 'user:test' }, id, (s) => ({ ...s, isDisabled: true }));
    expect((await as(t, 'disabled').get('/api/user')).status).toBe(401);
  });

  it('a password change invalidates the remembered login at once', async () => {
    const id = await createUserByAdmin('changer', 'first-pw');
    expect((await as(t, 'changer', 'first-pw').get('/api/user')).status).toBe(200);
    const res = await t.as.put(`/api/admin/users/${id}/password`).send({ password: 'second-pw' });
    expect(res.body).toEqual({ message: 'User password updated' });
    expect((await as(t, 'changer', 'first-pw').get('/api/user')).status).toBe(401);
    expect((await as(t, 'changer', 'second-pw').get('/api/user')).status).toBe(200);
  });
});

describe('admin users endpoints', () => {
  it('are for server admins only', async () => {
    await createUserByAdmin('plain');
    const res = await as(t, 'plain').post('/api/admin/users').send({ login: 'x', password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Permission denied' });
  });

  it('create (new users join org 1 as Viewer), refuse duplicates, grant server admin, delete', async () => {
    const id = await createUserByAdmin('dora');
    const me = await as(t, 'dora').get('/api/user');
    expect(me.body).toMatchObject({ id, login: 'dora', orgId: 1, isSvcAdmin: false });
    expect((await as(t, 'dora').get('/api/user/orgs')).body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Viewer' }]);
    const dup = await t.as.post('/api/admin/users').send({ login: 'DORA', password: PASSWORD });
    expect(dup.status).toBe(412);
    expect(dup.body).toEqual({ message: "User with email '' or username 'DORA' already exists" });
    expect((await t.as.post('/api/admin/users').send({ login: 'short', password: 'x' })).status).toBe(400);

    const perm = await t.as.put(`/api/admin/users/${id}/permissions`).send({ isSvcAdmin: true });
    expect(perm.body).toEqual({ message: 'User permissions updated' });
    expect((await as(t, 'dora').get('/api/user')).body.isSvcAdmin).toBe(true);

    const del = await t.as.delete(`/api/admin/users/${id}`);
    expect(del.body).toEqual({ message: 'User deleted' });
    expect((await as(t, 'dora').get('/api/user')).status).toBe(401);
    expect((await t.as.delete(`/api/admin/users/${id}`)).body).toEqual({ message: 'User not found' });
  });

  it('never give a deleted user\'s id to another user', async () => {
    const gone = [await createUserByAdmin('gone-1'), await createUserByAdmin('gone-2')];
    for (const id of gone) expect((await t.as.delete(`/api/admin/users/${id}`)).status).toBe(200);
    const next = [await createUserByAdmin('next-1'), await createUserByAdmin('next-2')];
    expect(next.every((id) => id > Math.max(...gone))).toBe(true);
    const ids = ((await t.as.get('/api/users')).body as { id: number }[]).map((u) => u.id);
    expect(ids.filter((id) => gone.includes(id))).toEqual([]);
  });

  it('refuse deleting oneself, and removing the last server admin by deletion or by its permission', async () => {
    const self = await t.as.delete('/api/admin/users/1');
    expect([self.status, self.body]).toEqual([400, { message: 'You cannot delete your own user' }]);
    const demote = await t.as.put('/api/admin/users/1/permissions').send({ isSvcAdmin: false });
    expect([demote.status, demote.body]).toEqual([400, { message: 'cannot remove last server admin' }]);
    // With a second server admin, each may go, but not both.
    const other = await createUserByAdmin('second-admin');
    expect((await t.as.put(`/api/admin/users/${other}/permissions`).send({ isSvcAdmin: true })).status).toBe(200);
    expect((await t.as.put('/api/admin/users/1/permissions').send({ isSvcAdmin: false })).status).toBe(200);
    expect((await t.as.get('/api/user')).body.isSvcAdmin).toBe(false);
    const last = await as(t, 'second-admin').put(`/api/admin/users/${other}/permissions`).send({ isSvcAdmin: false });
    expect([last.status, last.body]).toEqual([400, { message: 'cannot remove last server admin' }]);
    expect((await as(t, 'second-admin').put('/api/admin/users/1/permissions').send({ isSvcAdmin: true })).status).toBe(200);
    expect((await t.as.delete(`/api/admin/users/${other}`)).status).toBe(200);
    // Two admins removing each other's server-admin permission at once: exactly one succeeds (the other is refused
    // as the last server admin's removal, or, when it came second, as no server admin any more).
    const third = await createUserByAdmin('third-admin');
    expect((await t.as.put(`/api/admin/users/${third}/permissions`).send({ isSvcAdmin: true })).status).toBe(200);
    const both = await Promise.all([
      t.as.put(`/api/admin/users/${third}/permissions`).send({ isSvcAdmin: false }),
      as(t, 'third-admin').put('/api/admin/users/1/permissions').send({ isSvcAdmin: false }),
    ]);
    expect(both.filter((r) => r.status === 200)).toHaveLength(1);
    expect(both.filter((r) => r.status === 400 || r.status === 403)).toHaveLength(1);
    if (both[1].status === 200) expect((await as(t, 'third-admin').put('/api/admin/users/1/permissions').send({ isSvcAdmin: true })).status).toBe(200);
    // The admin is still a server admin and still a member of org 1.
    expect((await t.as.get('/api/user')).body).toMatchObject({ id: 1, isSvcAdmin: true });
    expect((await t.as.get('/api/user/orgs')).body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Admin' }]);
  });

  it('new users join with users.auto_assign_org_role', async () => {
    const editors = await startTestApp(['--users.auto_assign_org_role=Editor']);
    try {
      const res = await editors.as.post('/api/admin/users').send({ login: 'eve', password: PASSWORD });
      expect(res.status).toBe(200);
      const orgs = await editors.anonymous.get('/api/user/orgs').auth('eve', PASSWORD);
      expect(orgs.body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Editor' }]);
    } finally {
      await editors.close();
    }
  });
});

describe('organizations', () => {
  let orgId: number;
  beforeAll(async () => {
    const res = await t.as.post('/api/orgs').send({ name: 'Ops' });
    expect(res.body).toMatchObject({ message: 'Organization created' });
    orgId = res.body.orgId;
  });

  it('lists organizations for server admins', async () => {
    expect(orgId).toBeGreaterThan(1);
    expect((await t.as.get('/api/orgs')).body).toEqual(expect.arrayContaining([{ id: 1, name: 'Main Org.' }, { id: orgId, name: 'Ops' }]));
    expect((await t.as.post('/api/orgs').send({ name: 'ops' })).status).toBe(409);
    await createUserByAdmin('nonadmin');
    expect((await as(t, 'nonadmin').get('/api/orgs')).status).toBe(403);
  });

  it('selects the org by X-Svc-Org-Id for members only, and switches the current org', async () => {
    const me = await t.as.get('/api/user').set('X-Svc-Org-Id', String(orgId));
    expect(me.body.orgId).toBe(orgId);
    await createUserByAdmin('outsider');
    const denied = await as(t, 'outsider').get('/api/user').set('X-Svc-Org-Id', String(orgId));
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: 'Permission denied' });
    // A header that names no organization at all is the client's mistake, not a refusal.
    for (const bad of ['abc', '0', '-1', '1.5', '12345678901']) {
      const res = await t.as.get('/api/user').set('X-Svc-Org-Id', bad);
      expect([bad, res.status, res.body]).toEqual([bad, 400, { message: 'invalid X-Svc-Org-Id header: expected an organization id' }]);
    }
    const notValid = await as(t, 'outsider').post(`/api/user/using/${orgId}`);
    expect(notValid.status).toBe(401);
    expect(notValid.body).toEqual({ message: 'Not a valid organization' });

    const using = await t.as.post(`/api/user/using/${orgId}`);
    expect(using.body).toEqual({ message: 'Active organization changed' });
    expect((await t.as.get('/api/user')).body.orgId).toBe(orgId);
    await t.as.post('/api/user/using/1');
  });

  it('manages the members of the current org', async () => {
    const id = await createUserByAdmin('member');
    const hdr = ['X-Svc-Org-Id', String(orgId)] as const;
    const add = await t.as.post('/api/org/users').set(...hdr).send({ loginOrEmail: 'member@example.com', role: 'Viewer' });
    expect(add.body).toEqual({ message: 'User added to organization', userId: id });
    const again = await t.as.post('/api/org/users').set(...hdr).send({ loginOrEmail: 'member', role: 'Viewer' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'User is already member of this organization', userId: id });
    expect((await t.as.post('/api/org/users').set(...hdr).send({ loginOrEmail: 'ghost', role: 'Viewer' })).body).toEqual({ message: 'User not found' });
    expect((await t.as.post('/api/org/users').set(...hdr).send({ loginOrEmail: 'member', role: 'Boss' })).body).toEqual({ message: 'Invalid role specified' });

    const list = await t.as.get('/api/org/users').set(...hdr);
    expect(list.body.map((u: { login: string; role: string }) => [u.login, u.role])).toEqual([[ADMIN.user, 'Admin'], ['member', 'Viewer']]);
    const refused = await as(t, 'member').get('/api/org/users').set(...hdr);
    expect([refused.status, refused.body.message]).toEqual([403, "You'll need additional permissions to perform this action. Permissions needed: org.users:read"]);

    const upd = await t.as.patch(`/api/org/users/${id}`).set(...hdr).send({ role: 'Editor' });
    expect(upd.body).toEqual({ message: 'Organization user updated' });
    expect((await as(t, 'member').get('/api/user/orgs')).body).toContainEqual({ orgId, name: 'Ops', role: 'Editor' });
    // The last Admin stays.
    expect((await t.as.patch('/api/org/users/1').set(...hdr).send({ role: 'Viewer' })).body).toEqual({ message: 'Cannot change role so that there is no organization admin left' });
    expect((await t.as.delete('/api/org/users/1').set(...hdr)).body).toEqual({ message: 'Cannot remove last organization admin' });

    const del = await t.as.delete(`/api/org/users/${id}`).set(...hdr);
    expect(del.body).toEqual({ message: 'User removed from organization' });
    expect((await as(t, 'member').get('/api/user').set(...hdr)).status).toBe(403);
    // Removed from its last organization, a user is deleted, as in the anchor.
    const last = await t.as.delete(`/api/org/users/${id}`);
    expect(last.body).toEqual({ message: 'User deleted' });
    expect((await as(t, 'member').get('/api/user')).status).toBe(401);
  });
});
