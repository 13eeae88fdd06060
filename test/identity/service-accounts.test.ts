import { createHash } from 'node:crypto';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { FOLDERS, RFC3339 } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';

/**
 * Service accounts and their tokens through HTTP (spec §5.2, §5.3): the anchor's `/api/serviceaccounts` shapes and
 * messages, tokens as `Authorization: Bearer` on /api and /apis, expiry and revocation, the admin API refused, and
 * another organization out of reach.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const SA = '/api/serviceaccounts';
const KEY_SHAPE = /^svcsa_[0-9A-Za-z]{32}_[0-9a-f]{8}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function createServiceAccount(body: Record<string, unknown>, org?: number): Promise<{ id: number; uid: string; login: string }> {
  const req = t.as.post(SA);
  if (org) req.set('X-Svc-Org-Id', String(org));
  const res = await req.send(body);
  expect([res.status, res.body.message]).toEqual([201, undefined]);
  return res.body;
}

async function createToken(saId: number, body: Record<string, unknown> = { name: `t-${Math.random().toString(36).slice(2)}` }, org?: number): Promise<{ id: number; key: string }> {
  const req = t.as.post(`${SA}/${saId}/tokens`);
  if (org) req.set('X-Svc-Org-Id', String(org));
  const res = await req.send(body);
  expect(res.status).toBe(200);
  return res.body;
}

/** supertest with a bearer token. */
const bearer = (key: string) => ({
  get: (p: string) => t.anonymous.get(p).set('Authorization', `Bearer ${key}`),
  post: (p: string) => t.anonymous.post(p).set('Authorization', `Bearer ${key}`),
  put: (p: string) => t.anonymous.put(p).set('Authorization', `Bearer ${key}`),
  delete: (p: string) => t.anonymous.delete(p).set('Authorization', `Bearer ${key}`),
});

/** What is stored of service accounts and tokens, as the admin sees it, to show a failed request changed nothing. */
const state = async () => ({
  accounts: (await t.as.get(`${SA}/search`)).body,
  tokens: await Promise.all(((await t.as.get(`${SA}/search`)).body.serviceAccounts as { id: number }[]).map(async (sa) => (await t.as.get(`${SA}/${sa.id}/tokens`)).body)),
});

describe('service accounts', () => {
  it('creates, reads, updates and deletes in the anchor shapes', async () => {
    const created = await t.as.post(SA).send({ name: 'CI Bot', role: 'Editor' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      uid: expect.stringMatching(/^[a-z0-9]{14}$/),
      name: 'CI Bot',
      login: 'sa-1-ci-bot',
      orgId: 1,
      isDisabled: false,
      role: 'Editor',
      tokens: 0,
      avatarUrl: expect.stringMatching(/^\/avatar\/[0-9a-f]{32}$/),
    });
    const { id } = created.body;
    await createToken(id);
    expect((await t.as.get(`${SA}/${id}`)).body).toEqual({ ...created.body, tokens: 1 });

    const patched = await t.as.patch(`${SA}/${id}`).send({ name: 'Deploy Bot', role: 'Viewer', isDisabled: true });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ message: 'Service account updated', id, name: 'Deploy Bot' });
    expect(patched.body.serviceaccount).toEqual({
      id,
      uid: created.body.uid,
      name: 'Deploy Bot',
      login: 'sa-1-deploy-bot',
      orgId: 1,
      isDisabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      avatarUrl: expect.stringMatching(/^\/avatar\//),
      role: 'Viewer',
      teams: [],
    });

    const deleted = await t.as.delete(`${SA}/${id}`);
    expect([deleted.status, deleted.body]).toEqual([200, { message: 'Service account deleted' }]);
    const gone = await t.as.get(`${SA}/${id}`);
    expect([gone.status, gone.body]).toEqual([404, { message: 'service account not found' }]);
    expect((await t.as.get(`${SA}/${id}/tokens`)).body).toEqual([]);
  });

  it('defaults to Viewer, enabled; a name whose login is taken in the org is 400 and stores nothing', async () => {
    const sa = await createServiceAccount({ name: 'Metrics' });
    expect(sa).toMatchObject({ role: 'Viewer', isDisabled: false, login: 'sa-1-metrics' });
    const before = await state();
    const dup = await t.as.post(SA).send({ name: 'metrics' });
    expect([dup.status, dup.body]).toEqual([400, { message: 'service account already exists' }]);
    const other = await createServiceAccount({ name: 'Other metrics' });
    const rename = await t.as.patch(`${SA}/${other.id}`).send({ name: 'METRICS' });
    expect([rename.status, rename.body]).toEqual([400, { message: 'service account already exists' }]);
    const after = await state();
    expect(after.accounts.serviceAccounts.filter((s: { id: number }) => s.id !== other.id)).toEqual(before.accounts.serviceAccounts);
    expect((await t.as.get(`${SA}/${other.id}`)).body.name).toBe('Other metrics');
  });

  it('searches by name with paging, and filters disabled ones and those with expired tokens', async () => {
    for (const n of ['page-a', 'page-b', 'page-c', 'page-d', 'page-e']) await createServiceAccount({ name: n, isDisabled: n === 'page-d' });
    const p2 = await t.as.get(`${SA}/search?query=PAGE-&perpage=2&page=2`);
    expect(p2.status).toBe(200);
    expect(p2.body).toMatchObject({ totalCount: 5, page: 2, perPage: 2 });
    expect(p2.body.serviceAccounts.map((s: { name: string }) => s.name)).toEqual(['page-c', 'page-d']);
    expect((await t.as.get(`${SA}/search?query=page-&perpage=2&page=3`)).body.serviceAccounts.map((s: { name: string }) => s.name)).toEqual(['page-e']);
    const all = await t.as.get(`${SA}/search?query=page-`);
    expect(all.body).toMatchObject({ totalCount: 5, page: 1, perPage: 1000 });
    const disabled = await t.as.get(`${SA}/search?query=page-&disabled=true`);
    expect(disabled.body.serviceAccounts.map((s: { name: string; isDisabled: boolean }) => [s.name, s.isDisabled])).toEqual([['page-d', true]]);
    expect((await t.as.get(`${SA}/search?query=page-&expiredTokens=true`)).body.totalCount).toBe(0);
  });
});

describe('tokens', () => {
  it('shows the key once; lists never show it, and only its SHA-256 is stored', async () => {
    const sa = await createServiceAccount({ name: 'Key holder', role: 'Admin' });
    const made = await t.as.post(`${SA}/${sa.id}/tokens`).send({ name: 'deploy' });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({ id: expect.any(Number), name: 'deploy', key: expect.stringMatching(KEY_SHAPE) });
    const { key } = made.body;

    const listed = await t.as.get(`${SA}/${sa.id}/tokens`);
    expect(listed.body).toEqual([
      { id: made.body.id, name: 'deploy', created: expect.any(String), lastUsedAt: null, expiration: null, secondsUntilExpiration: 0, hasExpired: false, isRevoked: false },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(6, 38));
    expect(JSON.stringify(listed.body)).not.toContain(sha256(key));

    // Storage holds the digest and never the key; the registry returns neither.
    const stored = await t.storage.list({ group: 'iam.svc.app', resource: 'serviceaccounttokens', namespace: 'svc-identity' });
    const raw = JSON.stringify(stored.items.map((o) => o.value));
    expect(raw).toContain(sha256(key));
    expect(raw).not.toContain(key.slice(6, 38));
    const reg = t.users!.registry;
    const tokenKind = reg.kinds.find((k) => k.kind === 'ServiceAccountToken')!;
    const viaRegistry = await reg.list({ requester: SYSTEM, namespace: 'svc-identity', fieldManager: 'test' }, tokenKind, {});
    expect(JSON.stringify(viaRegistry)).not.toContain(sha256(key));
  });

  it('authenticates as the service account on /api and /apis, with its role, and records lastUsedAt', async () => {
    const editor = await createServiceAccount({ name: 'Writer', role: 'Editor' });
    const { key, id: tokenId } = await createToken(editor.id);
    const list = await bearer(key).get(FOLDERS);
    expect(list.status).toBe(200);
    const made = await bearer(key).post(FOLDERS).send({ metadata: { name: 'by-sa' }, spec: { title: 'By a service account' } });
    expect(made.status).toBe(201);
    expect(made.body.metadata.annotations['svc.app/createdBy']).toBe(`service-account:${editor.uid}`);
    // An Editor may not manage service accounts: the anchor's RBAC 403.
    const denied = await bearer(key).get(`${SA}/search`);
    expect([denied.status, denied.body]).toEqual([403, { title: 'Access denied', message: "You'll need additional permissions to perform this action. Permissions needed: serviceaccounts:read", accessErrorId: expect.stringMatching(/^ACE\d{10}$/) }]);
    const [token] = (await t.as.get(`${SA}/${editor.id}/tokens`)).body;
    expect(token).toMatchObject({ id: tokenId, lastUsedAt: expect.stringMatching(RFC3339) });

    const viewer = await createServiceAccount({ name: 'Reader', role: 'Viewer' });
    const readOnly = (await createToken(viewer.id)).key;
    expect((await bearer(readOnly).get(FOLDERS)).status).toBe(200);
    const write = await bearer(readOnly).post(FOLDERS).send({ metadata: { name: 'not-by-viewer' }, spec: { title: 'x' } });
    expect([write.status, write.body.kind, write.body.reason]).toEqual([403, 'Status', 'Forbidden']);
    const none = await createServiceAccount({ name: 'Nobody', role: 'None' });
    // Role None: a member that reads only what it is granted (here nothing).
    const noneList = await bearer((await createToken(none.id)).key).get(FOLDERS);
    expect([noneList.status, noneList.body.items]).toEqual([200, []]);

    // An Admin service account manages service accounts of its org.
    const admin = await createServiceAccount({ name: 'Org admin bot', role: 'Admin' });
    const adminKey = (await createToken(admin.id)).key;
    const search = await bearer(adminKey).get(`${SA}/search?query=writer`);
    expect(search.status).toBe(200);
    expect(search.body.serviceAccounts.map((s: { id: number }) => s.id)).toEqual([editor.id]);
  });

  it('an expired token is refused at once (secondsToLive)', async () => {
    const sa = await createServiceAccount({ name: 'Short lived', role: 'Viewer' });
    const { key } = await createToken(sa.id, { name: 'one-second', secondsToLive: 1 });
    const [listed] = (await t.as.get(`${SA}/${sa.id}/tokens`)).body;
    expect(listed.hasExpired).toBe(false);
    expect(listed.secondsUntilExpiration).toBeGreaterThan(0);
    expect(listed.secondsUntilExpiration).toBeLessThanOrEqual(2);
    expect(listed.expiration).toMatch(RFC3339);
    expect(Date.parse(listed.expiration) - Date.parse(listed.created)).toBeGreaterThanOrEqual(1000);
    expect((await bearer(key).get(FOLDERS)).status).toBe(200);
    await new Promise((r) => setTimeout(r, Date.parse(listed.expiration) - Date.now() + 20));
    const refused = await bearer(key).get(FOLDERS);
    expect([refused.status, refused.body.reason]).toEqual([401, 'Unauthorized']);
    expect((await bearer(key).get(`${SA}/search`)).body).toEqual({ message: 'Unauthorized' });
    const [after] = (await t.as.get(`${SA}/${sa.id}/tokens`)).body;
    expect(after).toMatchObject({ hasExpired: true, secondsUntilExpiration: 0 });
    const expired = await t.as.get(`${SA}/search?expiredTokens=true`);
    expect(expired.body.serviceAccounts.map((s: { id: number }) => s.id)).toEqual([sa.id]);
  });

  it('a revoked token, a disabled or deleted service account is refused on the next request', async () => {
    const sa = await createServiceAccount({ name: 'Revocable', role: 'Viewer' });
    const first = await createToken(sa.id, { name: 'first' });
    const second = await createToken(sa.id, { name: 'second' });
    expect((await bearer(first.key).get(FOLDERS)).status).toBe(200);
    const revoked = await t.as.delete(`${SA}/${sa.id}/tokens/${first.id}`);
    expect([revoked.status, revoked.body]).toEqual([200, { message: 'Service account token deleted' }]);
    expect((await bearer(first.key).get(FOLDERS)).status).toBe(401);
    expect((await bearer(second.key).get(FOLDERS)).status).toBe(200);
    const again = await t.as.delete(`${SA}/${sa.id}/tokens/${first.id}`);
    expect([again.status, again.body]).toEqual([404, { message: 'service account token not found' }]);

    expect((await t.as.patch(`${SA}/${sa.id}`).send({ isDisabled: true })).status).toBe(200);
    expect((await bearer(second.key).get(FOLDERS)).status).toBe(401);
    expect((await t.as.patch(`${SA}/${sa.id}`).send({ isDisabled: false })).status).toBe(200);
    expect((await bearer(second.key).get(FOLDERS)).status).toBe(200);

    expect((await t.as.delete(`${SA}/${sa.id}`)).status).toBe(200);
    expect((await bearer(second.key).get(FOLDERS)).status).toBe(401);
    const left = await t.storage.list({ group: 'iam.svc.app', resource: 'serviceaccounttokens', namespace: 'svc-identity' });
    expect(left.items.filter((o) => (o.value as { spec: { serviceAccountUid: string } }).spec.serviceAccountUid === sa.uid)).toEqual([]);
  });

  it('refuses malformed, unknown and non-header bearer credentials with 401', async () => {
    const sa = await createServiceAccount({ name: 'Header only', role: 'Viewer' });
    const { key } = await createToken(sa.id);
    const typo = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    const unknown = `svcsa_${'A'.repeat(32)}_00000000`;
    for (const credential of ['Bearer nonsense', `Bearer ${typo}`, `Bearer ${unknown}`, 'Bearer']) {
      const res = await t.anonymous.get('/api/serviceaccounts/search').set('Authorization', credential);
      expect([credential, res.status]).toEqual([credential, 401]);
    }
    expect((await t.anonymous.get(`${FOLDERS}?access_token=${key}`)).status).toBe(401);
  });
});

describe('what a service account may never do', () => {
  it('is refused every admin endpoint, even with the Admin role of its org (§5.3)', async () => {
    const sa = await createServiceAccount({ name: 'Would be admin', role: 'Admin' });
    const { key } = await createToken(sa.id);
    const calls: [string, () => Promise<{ status: number; body: unknown }>][] = [
      ['create user', () => bearer(key).post('/api/admin/users').send({ login: 'sa-made', password: PASSWORD })],
      ['make server admin', () => bearer(key).put('/api/admin/users/1/permissions').send({ isSvcAdmin: true })],
      ['set password', () => bearer(key).put('/api/admin/users/1/password').send({ password: 'hijacked1' })],
      ['list orgs', () => bearer(key).get('/api/orgs')],
      ['create org', () => bearer(key).post('/api/orgs').send({ name: 'SA org' })],
      ['delete a user', () => bearer(key).delete('/api/admin/users/1')],
    ];
    for (const [label, call] of calls) {
      const res = await call();
      expect([label, res.status, res.body]).toEqual([label, 403, { message: 'Permission denied' }]);
    }
    // Nor is it a user: the signed-in user's endpoints are not its (not the user that has the same number).
    for (const call of [() => bearer(key).get('/api/user'), () => bearer(key).get('/api/user/orgs'), () => bearer(key).post('/api/user/using/1')]) {
      const res = await call();
      expect([res.status, res.body]).toEqual([403, { message: 'Endpoint only available for users' }]);
    }
    expect((await t.as.get('/api/user')).body).toMatchObject({ id: 1, login: 'admin' });
    expect((await t.users!.userByLoginOrEmail('sa-made'))).toBeUndefined();
    expect((await t.as.get('/api/orgs')).body.map((o: { name: string }) => o.name)).not.toContain('SA org');
  });

  it("cannot reach another organization: not by /apis namespace, not by X-Svc-Org-Id, not by id", async () => {
    const org = await t.as.post('/api/orgs').send({ name: 'Other' });
    expect(org.status).toBe(200);
    const orgId = org.body.orgId as number;
    const foreign = await createServiceAccount({ name: 'Foreign', role: 'Admin' }, orgId);
    expect(foreign).toMatchObject({ orgId, login: `sa-${orgId}-foreign` });
    const { key } = await createToken(foreign.id, { name: 'foreign' }, orgId);

    expect((await bearer(key).get(`/apis/folder.svc.app/v1beta1/namespaces/org-${orgId}/folders`)).status).toBe(200);
    const apis = await bearer(key).get(FOLDERS);
    expect([apis.status, apis.body.kind, apis.body.reason]).toEqual([403, 'Status', 'Forbidden']);
    const header = await bearer(key).get(`${SA}/search`).set('X-Svc-Org-Id', '1');
    expect([header.status, header.body]).toEqual([403, { message: 'Permission denied' }]);
    const own = await bearer(key).get(`${SA}/search`);
    expect(own.body.serviceAccounts.map((s: { id: number }) => s.id)).toEqual([foreign.id]);
    const org1 = (await t.as.get(`${SA}/search?query=writer`)).body.serviceAccounts[0] as { id: number };
    expect((await bearer(key).get(`${SA}/${org1.id}`)).status).toBe(404);

    // And org 1's admin sees org 2's service account only when acting in org 2.
    expect((await t.as.get(`${SA}/${foreign.id}`)).status).toBe(404);
    expect((await t.as.get(`${SA}/${foreign.id}`).set('X-Svc-Org-Id', String(orgId))).status).toBe(200);
    expect((await t.as.post(`${SA}/${foreign.id}/tokens`).send({ name: 'from-org-1' })).status).toBe(404);
    expect((await t.as.delete(`${SA}/${foreign.id}`)).status).toBe(404);
    expect((await bearer(key).get(`/apis/folder.svc.app/v1beta1/namespaces/org-${orgId}/folders`)).status).toBe(200);
  });

  it('is never taken for the user that has the same number (a team it is no member of)', async () => {
    await createServiceAccount({ name: 'Number one' }); // so that this one's number is not the admin's (1)
    const sa = await createServiceAccount({ name: 'Same number', role: 'Admin' });
    const { key } = await createToken(sa.id);
    // The user whose number is the service account's: users are numbered in order, so made up to it.
    for (let n = 0; !(await t.users!.userById(sa.id)); n++) await t.users!.createUser(SYSTEM, { login: `user-${sa.id}-${n}`, password: PASSWORD });
    const sameId = (await t.users!.userById(sa.id))!;
    expect(sameId.id).toBe(sa.id);
    await t.users!.setRole(SYSTEM, 1, sameId.id, 'Viewer');
    const team = await t.as.post('/api/teams').send({ name: `team-of-${sa.id}` });
    expect(team.status).toBe(200);
    expect((await t.as.post(`/api/teams/${team.body.teamId}/members`).send({ userId: sameId.id })).status).toBe(200);
    expect((await t.as.put(`/api/teams/${team.body.teamId}/members/${sameId.id}`).send({ permission: 4 })).status).toBe(200);
    const seen = await bearer(key).get(`/api/teams/${team.body.teamId}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ id: team.body.teamId, memberCount: 2, permission: 0 });
    // One password hash per user made up to the number (about 20): seconds each on a loaded machine.
  }, 120_000);

  it('is managed only by org admins: an Editor user gets the RBAC 403', async () => {
    const { id } = await createUser(t, 'sa-editor');
    await t.users!.setRole(SYSTEM, 1, id, 'Editor');
    const res = await t.anonymous.post(SA).auth('sa-editor', PASSWORD).send({ name: 'By an editor' });
    expect([res.status, res.body]).toEqual([403, { title: 'Access denied', message: "You'll need additional permissions to perform this action. Permissions needed: serviceaccounts:create", accessErrorId: expect.stringMatching(/^ACE\d{10}$/) }]);
  });
});

describe('concurrency', () => {
  it('one name asked for at once: at most one service account and one token have it, ids stay distinct', async () => {
    const same = await Promise.all(Array.from({ length: 5 }, () => t.as.post(SA).send({ name: 'Twin bot' })));
    const won = same.filter((r) => r.status === 201);
    expect(won.length).toBeLessThanOrEqual(1);
    expect(same.every((r) => r.status === 201 || (r.status === 400 && r.body.message === 'service account already exists'))).toBe(true);
    expect((await t.as.get(`${SA}/search?query=twin bot`)).body.totalCount).toBe(won.length);

    const sa = await createServiceAccount({ name: 'Token racer' });
    const tokens = await Promise.all(Array.from({ length: 5 }, () => t.as.post(`${SA}/${sa.id}/tokens`).send({ name: 'racing' })));
    const made = tokens.filter((r) => r.status === 200);
    expect(made.length).toBeLessThanOrEqual(1);
    expect(tokens.every((r) => r.status === 200 || r.status === 400)).toBe(true);
    expect((await t.as.get(`${SA}/${sa.id}/tokens`)).body).toHaveLength(made.length);

    const distinct = await Promise.all(Array.from({ length: 4 }, (_, i) => t.as.post(`${SA}/${sa.id}/tokens`).send({ name: `parallel-${i}` })));
    expect(distinct.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(distinct.map((r) => r.body.id)).size).toBe(4);
    expect(new Set(distinct.map((r) => r.body.key)).size).toBe(4);
  });
});

describe('bad input', () => {
  it('is a 4xx {message} with the anchor wording, and nothing is stored', async () => {
    const sa = await createServiceAccount({ name: 'Target', role: 'Viewer' });
    await createToken(sa.id, { name: 'taken' });
    const before = await state();
    const cases: [string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, string][] = [
      ['create: no name', () => t.as.post(SA).send({ role: 'Viewer' }), 400, 'Bad request data'],
      ['create: blank name', () => t.as.post(SA).send({ name: '  ' }), 400, 'Bad request data'],
      ['create: name a number', () => t.as.post(SA).send({ name: 7 }), 400, 'Bad request data'],
      ['create: unknown role', () => t.as.post(SA).send({ name: 'Bad role', role: 'Boss' }), 400, 'invalid role specified'],
      ['create: name too long (the legacy field, not the kind\'s title)', () => t.as.post(SA).send({ name: 'n'.repeat(20_000) }), 400, 'name too long, max 190 characters'],
      ['create: isDisabled a string', () => t.as.post(SA).send({ name: 'Bad flag', isDisabled: 'yes' }), 400, 'Bad request data'],
      ['create: body an array', () => t.as.post(SA).send([1]), 400, 'Bad request data'],
      ['create: malformed JSON', () => t.as.post(SA).set('Content-Type', 'application/json').send('{"name":'), 400, 'the request body is not valid JSON'],
      ['get: id not a number', () => t.as.get(`${SA}/abc`), 400, 'Service Account ID is invalid'],
      ['get: unknown id', () => t.as.get(`${SA}/99999`), 404, 'service account not found'],
      ['patch: unknown id', () => t.as.patch(`${SA}/99999`).send({ name: 'x' }), 404, 'service account not found'],
      ['patch: unknown role', () => t.as.patch(`${SA}/${sa.id}`).send({ role: 'Root' }), 400, 'invalid role specified'],
      ['patch: empty name', () => t.as.patch(`${SA}/${sa.id}`).send({ name: '' }), 400, 'Bad request data'],
      ['delete: id not a number', () => t.as.delete(`${SA}/x1`), 400, 'Service account ID is invalid'],
      ['delete: unknown id', () => t.as.delete(`${SA}/99999`), 404, 'service account not found'],
      ['token: no name', () => t.as.post(`${SA}/${sa.id}/tokens`).send({}), 400, 'Bad request data'],
      ['token: negative secondsToLive', () => t.as.post(`${SA}/${sa.id}/tokens`).send({ name: 'neg', secondsToLive: -5 }), 400, 'invalid SecondsToLive value'],
      // An expiry past 9999-12-31T23:59:59Z has no RFC 3339 timestamp (Date would throw).
      ['token: secondsToLive past the year 9999', () => t.as.post(`${SA}/${sa.id}/tokens`).send({ name: 'far', secondsToLive: 99999999999999 }), 400, 'invalid SecondsToLive value'],
      ['token: secondsToLive a string', () => t.as.post(`${SA}/${sa.id}/tokens`).send({ name: 'str', secondsToLive: '60' }), 400, 'Bad request data'],
      ['token: name taken in the org', () => t.as.post(`${SA}/${sa.id}/tokens`).send({ name: 'taken' }), 400, 'service account token with given name already exists in the organization'],
      ['token: unknown service account', () => t.as.post(`${SA}/99999/tokens`).send({ name: 'orphan' }), 404, 'service account not found'],
      ['tokens: id not a number', () => t.as.get(`${SA}/abc/tokens`), 400, 'Service Account ID is invalid'],
      ['revoke: token id not a number', () => t.as.delete(`${SA}/${sa.id}/tokens/abc`), 400, 'Token ID is invalid'],
      ['revoke: unknown token', () => t.as.delete(`${SA}/${sa.id}/tokens/99999`), 404, 'service account token not found'],
    ];
    for (const [label, send, status, message] of cases) {
      const res = await send();
      expect([label, res.status, res.body]).toEqual([label, status, { message }]);
    }
    expect(await state()).toEqual(before);
  });
});
