import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

/**
 * Organizations by id and name, their names and addresses (`/api/org`, `/api/orgs/:orgId`), and the members of any
 * organization (`/api/orgs/:orgId/users...`, server admins), with the anchor's bodies and messages.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ACE = expect.stringMatching(/^ACE\d{10}$/);
const denied = (needed: string) => ({ title: 'Access denied', message: `You'll need additional permissions to perform this action. Permissions needed: ${needed}`, accessErrorId: ACE });
const noAddress = { address1: '', address2: '', city: '', zipCode: '', state: '', country: '' };

async function newOrg(name: string): Promise<number> {
  const res = await t.as.post('/api/orgs').send({ name });
  expect(res.status).toBe(200);
  return res.body.orgId as number;
}

describe('GET /api/orgs', () => {
  it("searches as the anchor's store: a name prefix in any case, an exact name, pages of perpage counted from 0, by id", async () => {
    const a = await newOrg('Search Alpha');
    const b = await newOrg('search beta');
    const c = await newOrg('Searching Gamma');
    const names = async (q: string) => ((await t.as.get(`/api/orgs${q}`).expect(200)).body as { id: number; name: string }[]).map((o) => o.name);
    expect(await names('?query=search')).toEqual(['Search Alpha', 'search beta', 'Searching Gamma']);
    expect(await names('?query=SEARCH%20')).toEqual(['Search Alpha', 'search beta']);
    expect(await names('?name=search%20beta')).toEqual(['search beta']);
    expect(await names('?name=Search%20Beta')).toEqual([]);
    expect(await names('?query=search&perpage=2')).toEqual(['Search Alpha', 'search beta']);
    expect(await names('?query=search&perpage=2&page=1')).toEqual(['Searching Gamma']);
    expect(await names('?query=search&perpage=2&page=0')).toEqual(['Search Alpha', 'search beta']);
    // What the anchor's QueryInt makes of junk: 0, so the defaults.
    expect(await names('?query=search&perpage=abc&page=-3')).toEqual(['Search Alpha', 'search beta', 'Searching Gamma']);
    const all = (await t.as.get('/api/orgs').expect(200)).body as { id: number }[];
    expect(all.map((o) => o.id)).toEqual([...all.map((o) => o.id)].sort((x, y) => x - y));
    expect(all.map((o) => o.id)).toEqual(expect.arrayContaining([1, a, b, c]));
  });
});

describe('an organization', () => {
  it('reads, renames and addresses the current org; a Viewer reads it, an Editor may not change it', async () => {
    expect((await t.as.get('/api/org')).body).toEqual({ id: 1, name: 'Main Org.', address: noAddress });
    const org = await newOrg('Ops');
    const hdr = ['X-Svc-Org-Id', String(org)] as const;
    expect((await t.as.put('/api/org').set(...hdr).send({ name: 'Operations' })).body).toEqual({ message: 'Organization updated' });
    const addr = await t.as.put('/api/org/address').set(...hdr).send({ address1: 'Karl Johans gate 1', city: 'Oslo', zipcode: '0154', country: 'Norway' });
    expect([addr.status, addr.body]).toEqual([200, { message: 'Address updated' }]);
    expect((await t.as.get('/api/org').set(...hdr)).body).toEqual({ id: org, name: 'Operations', address: { ...noAddress, address1: 'Karl Johans gate 1', city: 'Oslo', zipCode: '0154', country: 'Norway' } });
    // The address is written whole: lines left out are emptied.
    await t.as.put('/api/org/address').set(...hdr).send({ city: 'Bergen' }).expect(200);
    expect((await t.as.get(`/api/orgs/${org}`)).body.address).toEqual({ ...noAddress, city: 'Bergen' });

    await createUser(t, 'org-viewer', { 1: 'Viewer' });
    await createUser(t, 'org-editor', { 1: 'Editor' });
    expect((await as(t, 'org-viewer').get('/api/org')).body).toMatchObject({ id: 1, name: 'Main Org.' });
    const refused = await as(t, 'org-editor').put('/api/org').send({ name: 'Mine' });
    expect([refused.status, refused.body]).toEqual([403, denied('orgs:write')]);
    expect((await as(t, 'org-editor').put('/api/org/address').send({ city: 'x' })).status).toBe(403);
    expect((await t.as.get('/api/org')).body).toEqual({ id: 1, name: 'Main Org.', address: noAddress });
  });

  it('by id and by name (any case), for server admins; renames refuse a taken name', async () => {
    const org = await newOrg('Finance');
    expect((await t.as.get(`/api/orgs/${org}`)).body).toEqual({ id: org, name: 'Finance', address: noAddress });
    expect((await t.as.get('/api/orgs/name/FINANCE')).body).toEqual({ id: org, name: 'Finance', address: noAddress });
    expect((await t.as.put(`/api/orgs/${org}`).send({ name: 'Money' })).body).toEqual({ message: 'Organization updated' });
    expect((await t.as.put(`/api/orgs/${org}/address`).send({ state: 'Viken' })).body).toEqual({ message: 'Address updated' });
    expect((await t.as.get('/api/orgs/name/money')).body).toEqual({ id: org, name: 'Money', address: { ...noAddress, state: 'Viken' } });
    const taken = await t.as.put(`/api/orgs/${org}`).send({ name: 'main org.' });
    expect([taken.status, taken.body]).toEqual([409, { message: 'Organization name taken' }]);
    const current = await t.as.put('/api/org').send({ name: 'MONEY' });
    expect([current.status, current.body]).toEqual([409, { message: 'Organization name taken' }]);
    await createUser(t, 'org-admin', { 1: 'Admin' });
    expect((await as(t, 'org-admin').get(`/api/orgs/${org}`)).body).toEqual({ message: 'Permission denied' });
    expect((await as(t, 'org-admin').get('/api/orgs/name/Money')).status).toBe(403);
  });

  it('answers bad input with 4xx {message} and changes nothing', async () => {
    const org = await newOrg('Stable');
    await t.as.put(`/api/orgs/${org}/address`).send({ city: 'Oslo' }).expect(200);
    const before = (await t.as.get(`/api/orgs/${org}`)).body;
    const cases: [string, () => Promise<{ status: number; body: { message?: unknown } }>, number, string][] = [
      ['unknown id', () => t.as.get('/api/orgs/99999'), 404, 'Organization not found'],
      ['id not a number', () => t.as.get('/api/orgs/abc'), 400, 'orgId is invalid'],
      ['unknown name', () => t.as.get('/api/orgs/name/nothing-here'), 404, 'Organization not found'],
      ['rename unknown id', () => t.as.put('/api/orgs/99999').send({ name: 'x' }), 404, 'Organization not found'],
      ['rename: no name', () => t.as.put(`/api/orgs/${org}`).send({}), 400, 'bad request data'],
      ['rename: blank name', () => t.as.put(`/api/orgs/${org}`).send({ name: '  ' }), 400, 'bad request data'],
      ['rename: name a number', () => t.as.put(`/api/orgs/${org}`).send({ name: 5 }), 400, 'bad request data'],
      ['rename: name too long', () => t.as.put(`/api/orgs/${org}`).send({ name: 'x'.repeat(300) }), 400, expect.any(String)],
      ['rename: malformed JSON', () => t.as.put(`/api/orgs/${org}`).set('Content-Type', 'application/json').send('{"name":'), 400, expect.any(String)],
      ['address: a line a number', () => t.as.put(`/api/orgs/${org}/address`).send({ city: 7 }), 400, 'bad request data'],
      ['address: body an array', () => t.as.put(`/api/orgs/${org}/address`).send(['Oslo']), 400, 'bad request data'],
      ['address: line too long', () => t.as.put(`/api/orgs/${org}/address`).send({ city: 'x'.repeat(300) }), 400, expect.any(String)],
      ['address of unknown id', () => t.as.put('/api/orgs/99999/address').send({ city: 'x' }), 404, 'Organization not found'],
      ['members of unknown id', () => t.as.get('/api/orgs/99999/users'), 404, 'Organization not found'],
      ['add to unknown id', () => t.as.post('/api/orgs/99999/users').send({ loginOrEmail: 'admin', role: 'Viewer' }), 404, 'Organization not found'],
      ['add: unknown user', () => t.as.post(`/api/orgs/${org}/users`).send({ loginOrEmail: 'ghost', role: 'Viewer' }), 404, 'User not found'],
      ['add: bad role', () => t.as.post(`/api/orgs/${org}/users`).send({ loginOrEmail: 'admin', role: 'Boss' }), 400, 'Invalid role specified'],
      ['patch: not a member', () => t.as.patch(`/api/orgs/${org}/users/99999`).send({ role: 'Viewer' }), 404, 'User not found'],
      ['patch: userId not a number', () => t.as.patch(`/api/orgs/${org}/users/x`).send({ role: 'Viewer' }), 400, 'userId is invalid'],
      ['remove: not a member', () => t.as.delete(`/api/orgs/${org}/users/99999`), 404, 'User not found'],
    ];
    for (const [label, send, status, message] of cases) {
      const res = await send();
      expect([label, res.status, res.body.message]).toEqual([label, status, message]);
    }
    expect((await t.as.get(`/api/orgs/${org}`)).body).toEqual(before);
    expect((await t.as.get(`/api/orgs/${org}/users`)).body.map((u: { login: string }) => u.login)).toEqual(['admin']);
  });
});

describe('the members of an organization by id', () => {
  it('lists, searches, adds, changes and removes members; a user removed from its last org stays', async () => {
    const org = await newOrg('Members');
    const kim = await createUser(t, 'kim', {}, { orgId: org });
    const lee = await createUser(t, 'lee', { 1: 'Viewer' });
    const add = await t.as.post(`/api/orgs/${org}/users`).send({ loginOrEmail: 'kim@example.com', role: 'Editor' });
    expect([add.status, add.body]).toEqual([200, { message: 'User added to organization', userId: kim.id }]);
    await t.as.post(`/api/orgs/${org}/users`).send({ loginOrEmail: 'lee', role: 'Viewer' }).expect(200);
    const again = await t.as.post(`/api/orgs/${org}/users`).send({ loginOrEmail: 'lee', role: 'Viewer' });
    expect([again.status, again.body]).toEqual([409, { message: 'User is already member of this organization', userId: lee.id }]);

    const list = (await t.as.get(`/api/orgs/${org}/users`)).body as { orgId: number; login: string; role: string; lastSeenAtAge: string }[];
    expect(list.map((u) => [u.orgId, u.login, u.role])).toEqual([[org, 'admin', 'Admin'], [org, 'kim', 'Editor'], [org, 'lee', 'Viewer']]);
    const search = await t.as.get(`/api/orgs/${org}/users/search?query=E&perpage=1&page=2`);
    expect(search.body).toMatchObject({ totalCount: 2, page: 2, perPage: 1 });
    expect(search.body.orgUsers.map((u: { login: string }) => u.login)).toEqual(['lee']);
    expect((await t.as.get(`/api/orgs/${org}/users/search`)).body).toMatchObject({ totalCount: 3, page: 1, perPage: 1000 });

    expect((await t.as.patch(`/api/orgs/${org}/users/${kim.id}`).send({ role: 'Admin' })).body).toEqual({ message: 'Organization user updated' });
    expect((await as(t, 'kim').get('/api/user/orgs')).body).toContainEqual({ orgId: org, name: 'Members', role: 'Admin' });
    // Removed from its only organization through /api/orgs/:orgId/users, a user stays (the anchor deletes it only
    // through /api/org/users).
    const kimOrgs = (await as(t, 'kim').get('/api/user/orgs')).body as unknown[];
    expect(kimOrgs).toHaveLength(1);
    expect((await t.as.delete(`/api/orgs/${org}/users/${kim.id}`)).body).toEqual({ message: 'User removed from organization' });
    expect((await t.as.get(`/api/users/${kim.id}`)).status).toBe(200);
    expect((await t.as.get(`/api/orgs/${org}/users`)).body.map((u: { login: string }) => u.login)).toEqual(['admin', 'lee']);
    // The last Admin of an organization stays.
    await t.as.delete(`/api/orgs/${org}/users/${lee.id}`).expect(200);
    const last = await t.as.delete(`/api/orgs/${org}/users/1`);
    expect([last.status, last.body]).toEqual([400, { message: 'Cannot remove last organization admin' }]);
  });

  it('org users lookup: members of the current org matching the query, for who can manage permissions', async () => {
    await createUser(t, 'look-ann', { 1: 'Viewer' }, { name: 'Ann Lookup' });
    await createUser(t, 'look-bob', { 1: 'Viewer' });
    const res = await t.as.get('/api/org/users/lookup?query=LOOK&limit=1');
    expect(res.body).toEqual([{ userId: expect.any(Number), login: 'look-ann', avatarUrl: expect.stringMatching(/^\/avatar\//) }]);
    expect(((await t.as.get('/api/org/users/lookup?query=look')).body as { login: string }[]).map((u) => u.login)).toEqual(['look-ann', 'look-bob']);
    const refused = await as(t, 'look-bob').get('/api/org/users/lookup');
    expect([refused.status, refused.body]).toEqual([403, denied('any of org.users:read, teams.permissions:write, folders.permissions:write, dashboards.permissions:write')]);
  });
});
