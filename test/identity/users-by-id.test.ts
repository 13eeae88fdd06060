import { startTestApp, type TestApp } from '../support/app';
import { recordReads } from '../support/storage-reads';
import { as, createUser, PASSWORD } from '../support/users';

/**
 * A user by id (`/api/users/:id`, its orgs and teams; server admins) and the signed-in user's own account
 * (`PUT /api/user`, its password, its teams, its help flags), with the anchor's bodies and messages.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ACE = expect.stringMatching(/^ACE\d{10}$/);
const denied = (needed: string) => ({ title: 'Access denied', message: `You'll need additional permissions to perform this action. Permissions needed: ${needed}`, accessErrorId: ACE });

describe('a user by id', () => {
  it('reads a user, its orgs and its teams in the org the request acts in', async () => {
    const ana = await createUser(t, 'ana', { 1: 'Editor' });
    const org = (await t.as.post('/api/orgs').send({ name: 'Ana Org' })).body.orgId as number;
    await t.as.post('/api/org/users').set('X-Svc-Org-Id', String(org)).send({ loginOrEmail: 'ana', role: 'Viewer' }).expect(200);
    const team = (await t.as.post('/api/teams').send({ name: 'Zeta', email: 'z@example.com' })).body.teamId as number;
    const other = (await t.as.post('/api/teams').send({ name: 'Alpha' })).body.teamId as number;
    await t.as.post(`/api/teams/${team}/members`).send({ userId: ana.id }).expect(200);
    await t.as.post(`/api/teams/${other}/members`).send({ userId: ana.id }).expect(200);

    const got = await t.as.get(`/api/users/${ana.id}`);
    expect([got.status, got.body]).toEqual([200, {
      id: ana.id, uid: ana.uid, email: 'ana@example.com', name: 'ana', login: 'ana', theme: '', orgId: 1, isSvcAdmin: false, isDisabled: false, isExternal: false,
      authLabels: [], updatedAt: expect.any(String), createdAt: expect.any(String), avatarUrl: expect.stringMatching(/^\/avatar\/[0-9a-f]{32}$/),
    }]);
    expect((await t.as.get(`/api/users/${ana.id}/orgs`)).body).toEqual([{ orgId: 1, name: 'Main Org.', role: 'Editor' }, { orgId: org, name: 'Ana Org', role: 'Viewer' }]);
    const reads = recordReads(t.storage);
    const teams = await Promise.resolve(t.as.get(`/api/users/${ana.id}/teams`)).finally(reads.stop);
    // Three reads whatever the number of teams: her memberships, those teams, and their memberships (to count).
    expect([reads.of('teams'), reads.of('teambindings')]).toEqual([[{ op: 'page', items: 2 }], [{ op: 'list', items: 2 }, { op: 'page', items: 4 }]]);
    expect(teams.body.map((x: { name: string; memberCount: number; permission: number; orgId: number }) => [x.name, x.memberCount, x.permission, x.orgId])).toEqual([['Alpha', 2, 0, 1], ['Zeta', 2, 0, 1]]); // the creator (admin) is the other member
    expect((await t.as.get(`/api/users/${ana.id}/teams`).set('X-Svc-Org-Id', String(org))).body).toEqual([]);
    // Her own teams, as the signed-in user.
    expect((await as(t, 'ana').get('/api/user/teams')).body.map((x: { id: number }) => x.id)).toEqual([other, team]);
  });

  it('updates login, email and name; a blank login takes the email; a taken login is 409 and changes nothing', async () => {
    const bo = await createUser(t, 'bo', { 1: 'Viewer' });
    await createUser(t, 'taken', { 1: 'Viewer' });
    const upd = await t.as.put(`/api/users/${bo.id}`).send({ login: ' bob ', email: 'bob@example.com', name: 'Bob', theme: 'dark' });
    expect([upd.status, upd.body]).toEqual([200, { message: 'User updated' }]);
    expect((await t.as.get(`/api/users/${bo.id}`)).body).toMatchObject({ login: 'bob', email: 'bob@example.com', name: 'Bob' });
    expect((await as(t, 'bob').get('/api/user')).status).toBe(200);
    // Blank fields keep their value; no login takes the email.
    expect((await t.as.put(`/api/users/${bo.id}`).send({ email: 'robert@example.com' })).status).toBe(200);
    expect((await t.as.get(`/api/users/${bo.id}`)).body).toMatchObject({ login: 'robert@example.com', email: 'robert@example.com', name: 'Bob' });
    const clash = await t.as.put(`/api/users/${bo.id}`).send({ login: 'TAKEN', email: 'x@example.com' });
    expect([clash.status, clash.body]).toEqual([409, { message: 'Update would result in user login conflict' }]);
    expect((await t.as.get(`/api/users/${bo.id}`)).body).toMatchObject({ login: 'robert@example.com', email: 'robert@example.com' });
  });

  it('is for server admins: an org Admin gets the RBAC 403', async () => {
    const cy = await createUser(t, 'cy-admin', { 1: 'Admin' });
    for (const [method, path, needed] of [['get', `/api/users/${cy.id}`, 'users:read'], ['put', `/api/users/${cy.id}`, 'users:write'], ['get', `/api/users/${cy.id}/orgs`, 'users:read'], ['get', `/api/users/${cy.id}/teams`, 'users:read']] as const) {
      const res = await as(t, 'cy-admin')[method](path).send({ login: 'hacked' });
      expect([path, res.status, res.body]).toEqual([path, 403, denied(needed)]);
    }
    expect((await t.as.get(`/api/users/${cy.id}`)).body.login).toBe('cy-admin');
  });

  it('answers bad input with 4xx {message} and changes nothing', async () => {
    const dee = await createUser(t, 'dee', { 1: 'Viewer' });
    const before = (await t.as.get(`/api/users/${dee.id}`)).body;
    const cases: [string, () => Promise<{ status: number; body: { message?: unknown } }>, number, string][] = [
      ['unknown id', () => t.as.get('/api/users/99999'), 404, 'user not found'],
      ['id not a number', () => t.as.get('/api/users/abc'), 400, 'id is invalid'],
      ['id zero', () => t.as.get('/api/users/0/orgs'), 400, 'id is invalid'],
      ['teams of unknown id', () => t.as.get('/api/users/99999/teams'), 404, 'user not found'],
      ['update unknown id', () => t.as.put('/api/users/99999').send({ login: 'x' }), 404, 'user not found'],
      ['update: no login nor email', () => t.as.put(`/api/users/${dee.id}`).send({ name: 'Only a name' }), 400, 'Validation error, need to specify either username or email'],
      ['update: login a number', () => t.as.put(`/api/users/${dee.id}`).send({ login: 7 }), 400, 'bad request data'],
      ['update: body an array', () => t.as.put(`/api/users/${dee.id}`).send([{ login: 'x' }]), 400, 'bad request data'],
      ['update: malformed JSON', () => t.as.put(`/api/users/${dee.id}`).set('Content-Type', 'application/json').send('{"login":'), 400, expect.any(String)],
      ['update: login too long', () => t.as.put(`/api/users/${dee.id}`).send({ login: 'x'.repeat(300) }), 400, expect.any(String)],
    ];
    for (const [label, send, status, message] of cases) {
      const res = await send();
      expect([label, res.status, res.body.message]).toEqual([label, status, message]);
    }
    expect((await t.as.get(`/api/users/${dee.id}`)).body).toEqual(before);
  });
});

describe('the signed-in user', () => {
  it('changes its own login, email and name', async () => {
    await createUser(t, 'eve', { 1: 'Viewer' });
    const res = await as(t, 'eve').put('/api/user').send({ login: 'eve2', email: 'eve2@example.com', name: 'Eve' });
    expect([res.status, res.body]).toEqual([200, { message: 'User updated' }]);
    expect((await as(t, 'eve2').get('/api/user')).body).toMatchObject({ login: 'eve2', email: 'eve2@example.com', name: 'Eve' });
    const clash = await as(t, 'eve2').put('/api/user').send({ login: 'admin' });
    expect([clash.status, clash.body]).toEqual([409, { message: 'Update would result in user login conflict' }]);
    const empty = await as(t, 'eve2').put('/api/user').send({ name: 'x' });
    expect([empty.status, empty.body]).toEqual([400, { message: 'Validation error, need to specify either username or email' }]);
    expect((await as(t, 'eve2').get('/api/user')).body).toMatchObject({ login: 'eve2', name: 'Eve' });
  });

  it('changes its password given the old one; the old one stops working at once', async () => {
    await createUser(t, 'fay', { 1: 'Viewer' });
    const wrong = await as(t, 'fay').put('/api/user/password').send({ oldPassword: 'nope', newPassword: 'new-password' });
    expect([wrong.status, wrong.body]).toEqual([401, { message: 'Invalid old password' }]);
    const short = await as(t, 'fay').put('/api/user/password').send({ oldPassword: PASSWORD, newPassword: 'abc' });
    expect([short.status, short.body]).toEqual([400, { message: 'New password is too short' }]);
    const typed = await as(t, 'fay').put('/api/user/password').send({ oldPassword: PASSWORD, newPassword: 12345678 });
    expect([typed.status, typed.body]).toEqual([400, { message: 'bad request data' }]);
    expect((await as(t, 'fay').get('/api/user')).status).toBe(200);
    const ok = await as(t, 'fay').put('/api/user/password').send({ oldPassword: PASSWORD, newPassword: 'new-password' });
    expect([ok.status, ok.body]).toEqual([200, { message: 'User password changed' }]);
    expect((await as(t, 'fay').get('/api/user')).status).toBe(401);
    expect((await as(t, 'fay', 'new-password').get('/api/user')).status).toBe(200);
  });

  it('sets and clears help flags (bits, up to 53 of them)', async () => {
    await createUser(t, 'gus', { 1: 'Viewer' });
    const gus = as(t, 'gus');
    expect((await gus.put('/api/user/helpflags/1')).body).toEqual({ message: 'Help flag set', helpFlags1: 1 });
    expect((await gus.put('/api/user/helpflags/4')).body).toEqual({ message: 'Help flag set', helpFlags1: 5 });
    expect((await gus.put('/api/user/helpflags/1')).body).toEqual({ message: 'Help flag set', helpFlags1: 5 });
    expect((await gus.put(`/api/user/helpflags/${2 ** 40}`)).body).toEqual({ message: 'Help flag set', helpFlags1: 2 ** 40 + 5 });
    for (const bad of ['abc', '-1', '1.5', '99999999999999999999']) {
      const res = await gus.put(`/api/user/helpflags/${bad}`);
      expect([bad, res.status, res.body]).toEqual([bad, 400, { message: 'Invalid flag id' }]);
    }
    expect((await gus.get('/api/user/helpflags/clear')).body).toEqual({ message: 'Help flag set', helpFlags1: 0 });
    expect((await gus.put('/api/user/helpflags/2')).body).toEqual({ message: 'Help flag set', helpFlags1: 2 });
  });

  it('a service account is no user: 403 "Endpoint only available for users"', async () => {
    const sa = await t.as.post('/api/serviceaccounts').send({ name: 'robot', role: 'Admin' });
    const key = (await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'robot-key' })).body.key as string;
    for (const [method, path] of [['put', '/api/user'], ['put', '/api/user/password'], ['get', '/api/user/teams'], ['put', '/api/user/helpflags/1'], ['get', '/api/user/helpflags/clear']] as const) {
      const res = await t.anonymous[method](path).set('Authorization', `Bearer ${key}`).send({ login: 'robot', oldPassword: 'x', newPassword: 'yyyyy' });
      expect([path, res.status, res.body]).toEqual([path, 403, { message: 'Endpoint only available for users' }]);
    }
  });
});
