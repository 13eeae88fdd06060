/**
 * The identity quotas through HTTP: an organization's members (`org_user`), a user's organizations (`user_org`) and
 * an organization's service account tokens (`org_api_key`) are enforced on create (403 "Quota reached", nothing
 * stored), a limit stored for the organization or user first, and counted in the creating transaction so that
 * concurrent creates never pass a limit together. A user, or an organization, whose membership is refused is not
 * created either: both are written in one transaction.
 */
import { startTestApp, type TestApp } from '../support/app';

const inOrg = (org: number) => ['X-Svc-Org-Id', String(org)] as const;
const quotaReached = { status: 403, message: 'Quota reached' };
const answer = (res: { status: number; body: { message?: string } }) => ({ status: res.status, message: res.body.message });

describe('identity quotas', () => {
  let t: TestApp;
  let org2: number;
  const used = async (org: number, target: string) => ((await t.as.get(`/api/orgs/${org}/quotas`)).body as { target: string; limit: number; used: number }[]).find((q) => q.target === target);
  const newUser = (login: string, orgId?: number) => t.as.post('/api/admin/users').send({ login, password: 'password1', ...(orgId ? { orgId } : {}) });

  beforeAll(async () => {
    t = await startTestApp(['--quota.enabled=true', '--quota.org_user=3', '--quota.user_org=2', '--quota.org_api_key=2']);
    const created = await t.as.post('/api/orgs').send({ name: 'Quota Org Two' });
    expect(created.status).toBe(200);
    org2 = created.body.orgId;
  });
  afterAll(() => t.close());

  it("refuses a user beyond the organization's members, storing neither the user nor its membership", async () => {
    // admin is the first member of org 1.
    expect((await newUser('qm-1')).status).toBe(200);
    expect((await newUser('qm-2')).status).toBe(200);
    expect(answer(await newUser('qm-3'))).toEqual(quotaReached);
    expect((await t.as.get('/api/users/lookup?loginOrEmail=qm-3')).status).toBe(404);
    expect((await t.as.get('/api/users/search?query=qm-')).body.totalCount).toBe(2);
    expect(await used(1, 'user')).toEqual({ org_id: 1, target: 'user', limit: 3, used: 3 });

    // An existing user added to a full organization is refused too, and stays out of it.
    const outsider = await newUser('qm-outsider', org2);
    expect(outsider.status).toBe(200);
    expect(answer(await t.as.post('/api/org/users').send({ loginOrEmail: 'qm-outsider', role: 'Viewer' }))).toEqual(quotaReached);
    expect((await t.as.get(`/api/users/${outsider.body.id}/orgs`)).body.map((o: { orgId: number }) => o.orgId)).toEqual([org2]);

    // A limit stored for the organization comes first.
    expect((await t.as.put('/api/orgs/1/quotas/user').send({ limit: 4 })).status).toBe(200);
    expect((await t.as.post('/api/org/users').send({ loginOrEmail: 'qm-outsider', role: 'Viewer' })).status).toBe(200);
    expect(await used(1, 'user')).toEqual({ org_id: 1, target: 'user', limit: 4, used: 4 });
  });

  it("refuses an organization its creator could not join, storing no organization", async () => {
    // admin belongs to org 1 and org 2: user_org is 2.
    expect((await t.as.get('/api/admin/users/1/quotas')).body).toEqual([{ user_id: 1, target: 'org', limit: 2, used: 2 }]);
    expect(answer(await t.as.post('/api/orgs').send({ name: 'Quota Org Three' }))).toEqual(quotaReached);
    expect((await t.as.get('/api/orgs/name/Quota%20Org%20Three')).status).toBe(404);
    expect((await t.as.get('/api/orgs')).body).toHaveLength(2);

    // A user's stored limit comes first.
    expect((await t.as.put('/api/admin/users/1/quotas/org').send({ limit: 3 })).status).toBe(200);
    const three = await t.as.post('/api/orgs').send({ name: 'Quota Org Three' });
    expect(three.status).toBe(200);
    expect((await t.as.get(`/api/orgs/${three.body.orgId}/users`)).body.map((u: { login: string; role: string }) => [u.login, u.role])).toEqual([['admin', 'Admin']]);
  });

  it("counts a user's organizations when it joins one", async () => {
    // qm-outsider is in org 2 and org 1 now: a third is one too many.
    const third = (await t.as.get('/api/orgs/name/Quota%20Org%20Three')).body.id as number;
    expect(answer(await t.as.post(`/api/orgs/${third}/users`).send({ loginOrEmail: 'qm-outsider', role: 'Viewer' }))).toEqual(quotaReached);
    expect((await t.as.get(`/api/orgs/${third}/users`)).body).toHaveLength(1);
  });

  it("refuses a service account token beyond the organization's, per organization", async () => {
    const tokens = async (org: number) => {
      const sa = await t.as.post('/api/serviceaccounts').set(...inOrg(org)).send({ name: `quota-sa-${org}`, role: 'Viewer' });
      expect(sa.status).toBe(201);
      return (name: string) => t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).set(...inOrg(org)).send({ name });
    };
    const one = await tokens(1);
    expect((await one('t1')).status).toBe(200);
    expect((await one('t2')).status).toBe(200);
    expect(answer(await one('t3'))).toEqual(quotaReached);
    expect(await used(1, 'api_key')).toEqual({ org_id: 1, target: 'api_key', limit: 2, used: 2 });
    expect(await used(org2, 'api_key')).toEqual({ org_id: org2, target: 'api_key', limit: 2, used: 0 });

    // Concurrent creates in another organization: exactly the limit pass.
    const two = await tokens(org2);
    const all = await Promise.all(['c1', 'c2', 'c3', 'c4', 'c5'].map((n) => two(n)));
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 403, 403, 403]);
    expect(await used(org2, 'api_key')).toEqual({ org_id: org2, target: 'api_key', limit: 2, used: 2 });

    // A limit stored for the organization comes first.
    expect((await t.as.put('/api/orgs/1/quotas/api_key').send({ limit: 3 })).status).toBe(200);
    expect((await one('t3')).status).toBe(200);
    expect(answer(await one('t4'))).toEqual(quotaReached);
  });

  it('lets concurrent user creates pass an organization limit never', async () => {
    expect((await t.as.put(`/api/orgs/${org2}/quotas/user`).send({ limit: 5 })).status).toBe(200);
    const before = (await used(org2, 'user'))!.used;
    const all = await Promise.all(['cu1', 'cu2', 'cu3', 'cu4', 'cu5', 'cu6'].map((login) => newUser(login, org2)));
    expect(all.filter((r) => r.status === 200)).toHaveLength(5 - before);
    expect(all.filter((r) => r.status === 403)).toHaveLength(6 - (5 - before));
    expect((await used(org2, 'user'))!.used).toBe(5);
    expect((await t.as.get('/api/users/search?query=cu')).body.totalCount).toBe(5 - before);
  });
});
