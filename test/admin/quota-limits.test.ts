/**
 * PUT /api/orgs/:orgId/quotas/:target and PUT /api/admin/users/:id/quotas/:target through HTTP: a limit stored for
 * one organization or user overrides the [quota] setting, is reported by the GET quota routes and enforced on create
 * (403 "Quota reached", nothing stored) in that organization only; bad input and a disabled quota change nothing.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';

const inOrg = (org: number) => ['X-Svc-Org-Id', String(org)] as const;

describe('stored quota limits', () => {
  let t: TestApp;
  let org2: number;
  let viewerId: number;
  const newDashboard = (org: number, title: string) => t.as.post('/api/dashboards/db').set(...inOrg(org)).send({ dashboard: { title } });
  const limitOf = async (org: number, target: string) => ((await t.as.get(`/api/orgs/${org}/quotas`)).body as { target: string; limit: number }[]).find((q) => q.target === target)?.limit;

  beforeAll(async () => {
    t = await startTestApp(['--quota.enabled=true', '--quota.org_dashboard=2', '--quota.org_data_source=5']);
    const created = await t.as.post('/api/orgs').send({ name: 'Quota Two' });
    expect(created.status).toBe(200);
    org2 = created.body.orgId;
    viewerId = (await createUser(t, 'ql-viewer', { 1: 'Viewer' })).id;
  });
  afterAll(() => t.close());

  it("sets an organization's limit, reported by GET and enforced in that organization only", async () => {
    const put = await t.as.put(`/api/orgs/${org2}/quotas/dashboard`).send({ target: 'dashboard', limit: 1 });
    expect({ status: put.status, body: put.body }).toEqual({ status: 200, body: { message: 'Organization quota updated' } });
    expect((await t.as.get(`/api/orgs/${org2}/quotas`)).body).toContainEqual({ org_id: org2, target: 'dashboard', limit: 1, used: 0 });
    expect((await t.as.get('/api/org/quotas').set(...inOrg(org2))).body).toContainEqual({ org_id: org2, target: 'dashboard', limit: 1, used: 0 });
    expect(await limitOf(1, 'dashboard')).toBe(2);

    expect((await newDashboard(org2, 'Two A')).status).toBe(200);
    const refused = await newDashboard(org2, 'Two B');
    expect({ status: refused.status, message: refused.body.message }).toEqual({ status: 403, message: 'Quota reached' });
    expect((await t.as.get(`/api/orgs/${org2}/quotas`)).body).toContainEqual({ org_id: org2, target: 'dashboard', limit: 1, used: 1 });
    expect((await t.as.get('/api/search?type=dash-db').set(...inOrg(org2))).body).toHaveLength(1);

    // Organization 1 keeps the setting's 2.
    expect((await newDashboard(1, 'One A')).status).toBe(200);
    expect((await newDashboard(1, 'One B')).status).toBe(200);
    expect((await newDashboard(1, 'One C')).status).toBe(403);
    const apis = await t.as.post(DASHBOARDS).send({ metadata: { name: 'one-d' }, spec: { title: 'One D' } });
    expect({ status: apis.status, message: apis.body.message }).toEqual({ status: 403, message: 'Quota reached' });

    // -1 lifts the limit: a stored limit overrides the setting both ways.
    expect((await t.as.put('/api/orgs/1/quotas/dashboard').send({ limit: -1 })).status).toBe(200);
    expect(await limitOf(1, 'dashboard')).toBe(-1);
    expect((await newDashboard(1, 'One C')).status).toBe(200);
    // A second PUT replaces the first.
    expect((await t.as.put(`/api/orgs/${org2}/quotas/dashboard`).send({ limit: 2 })).status).toBe(200);
    expect((await newDashboard(org2, 'Two B')).status).toBe(200);
    expect((await newDashboard(org2, 'Two C')).status).toBe(403);
  });

  it('enforces a stored data source limit through the legacy API', async () => {
    expect((await t.as.put('/api/orgs/1/quotas/data_source').send({ limit: 0 })).status).toBe(200);
    const ds = await t.as.post('/api/datasources').send({ name: 'ql-ds', type: 'prometheus', url: 'http://p', access: 'proxy' });
    expect({ status: ds.status, message: ds.body.message }).toEqual({ status: 403, message: 'Quota reached' });
    expect((await t.as.get('/api/datasources')).body).toHaveLength(0);
    expect((await t.as.post('/api/datasources').set(...inOrg(org2)).send({ name: 'ql-ds', type: 'prometheus', url: 'http://p', access: 'proxy' })).status).toBe(200);
  });

  it("sets a user's limit of organizations, reported by both user quota routes", async () => {
    const put = await t.as.put(`/api/admin/users/${viewerId}/quotas/org`).send({ limit: 3 });
    expect({ status: put.status, body: put.body }).toEqual({ status: 200, body: { message: 'User quota updated' } });
    const expected = [{ user_id: viewerId, target: 'org', limit: 3, used: 1 }];
    expect((await t.as.get(`/api/admin/users/${viewerId}/quotas`)).body).toEqual(expected);
    expect((await t.anonymous.get('/api/user/quotas').auth('ql-viewer', PASSWORD)).body).toEqual(expected);
    // Another user keeps the setting's 10.
    expect((await t.as.get('/api/admin/users/1/quotas')).body).toEqual([{ user_id: 1, target: 'org', limit: 10, used: 2 }]);
  });

  it.each([
    ['no body', `/api/orgs/{org}/quotas/dashboard`, undefined, 400],
    ['a list', `/api/orgs/{org}/quotas/dashboard`, [1], 400],
    ['no limit', `/api/orgs/{org}/quotas/dashboard`, { target: 'dashboard' }, 400],
    ['a string limit', `/api/orgs/{org}/quotas/dashboard`, { limit: '7' }, 400],
    ['a fractional limit', `/api/orgs/{org}/quotas/dashboard`, { limit: 1.5 }, 400],
    ['a limit below -1', `/api/orgs/{org}/quotas/dashboard`, { limit: -2 }, 400],
    ['a huge limit', `/api/orgs/{org}/quotas/dashboard`, { limit: 1e300 }, 400],
    ['a number target', `/api/orgs/{org}/quotas/dashboard`, { target: 5, limit: 7 }, 400],
    ['an unknown target', `/api/orgs/{org}/quotas/dashboards`, { limit: 7 }, 400],
    ['a user target on an org', `/api/orgs/{org}/quotas/org`, { limit: 7 }, 400],
    ['a bad org id', `/api/orgs/abc/quotas/dashboard`, { limit: 7 }, 400],
    ['org 0', `/api/orgs/0/quotas/dashboard`, { limit: 7 }, 400],
    ['a missing org', `/api/orgs/9999/quotas/dashboard`, { limit: 7 }, 404],
    ['an org target on a user', `/api/admin/users/{user}/quotas/dashboard`, { limit: 7 }, 400],
    ['a bad user id', `/api/admin/users/abc/quotas/org`, { limit: 7 }, 400],
    ['a missing user', `/api/admin/users/9999/quotas/org`, { limit: 7 }, 404],
  ])('answers %s (PUT %s %j) with %i and changes nothing', async (_name, template, body, status) => {
    const before = [(await t.as.get(`/api/orgs/${org2}/quotas`)).body, (await t.as.get(`/api/admin/users/${viewerId}/quotas`)).body, (await t.as.get('/api/orgs/1/quotas')).body];
    const path = template.replace('{org}', String(org2)).replace('{user}', String(viewerId));
    const req = t.as.put(path);
    const res = body === undefined ? await req : await req.send(body as object);
    expect(res.status).toBe(status);
    expect(typeof res.body.message).toBe('string');
    const after = [(await t.as.get(`/api/orgs/${org2}/quotas`)).body, (await t.as.get(`/api/admin/users/${viewerId}/quotas`)).body, (await t.as.get('/api/orgs/1/quotas')).body];
    expect(after).toEqual(before);
  });

  it('refuses callers other than server admins, changing nothing', async () => {
    const before = await limitOf(org2, 'dashboard');
    expect((await t.anonymous.put(`/api/orgs/${org2}/quotas/dashboard`).auth('ql-viewer', PASSWORD).send({ limit: 50 })).status).toBe(403);
    expect((await t.anonymous.put(`/api/orgs/${org2}/quotas/dashboard`).send({ limit: 50 })).status).toBe(401);
    expect((await t.anonymous.put(`/api/admin/users/${viewerId}/quotas/org`).auth('ql-viewer', PASSWORD).send({ limit: 50 })).status).toBe(403);
    expect(await limitOf(org2, 'dashboard')).toBe(before);
    expect((await t.as.get(`/api/admin/users/${viewerId}/quotas`)).body[0].limit).toBe(3);
  });
});

describe('stored quota limits while quota.enabled is false', () => {
  it('answers 404 "Quotas not enabled" and stores nothing', async () => {
    const t = await startTestApp(['--quota.org_dashboard=7']);
    try {
      const org = await t.as.put('/api/orgs/1/quotas/dashboard').send({ limit: 1 });
      expect({ status: org.status, message: org.body.message }).toEqual({ status: 404, message: 'Quotas not enabled' });
      const user = await t.as.put('/api/admin/users/1/quotas/org').send({ limit: 1 });
      expect({ status: user.status, message: user.body.message }).toEqual({ status: 404, message: 'Quotas not enabled' });
      expect((await t.as.get('/api/orgs/1/quotas')).body).toContainEqual({ org_id: 1, target: 'dashboard', limit: 7, used: 0 });
      expect((await t.as.get('/api/admin/users/1/quotas')).body[0].limit).toBe(10);
    } finally {
      await t.close();
    }
  });
});
