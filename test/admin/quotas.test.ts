/**
 * Quotas through HTTP: the anchor's quota routes (limits from [quota], what is used now) and their enforcement on
 * create (403 "Quota reached", nothing stored) when quota.enabled.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';

describe('quota routes', () => {
  let t: TestApp;
  let viewerId: number;
  beforeAll(async () => {
    t = await startTestApp(['--quota.org_dashboard=50']);
    viewerId = (await createUser(t, 'q-viewer', { 1: 'Viewer' })).id;
    expect((await t.as.post(DASHBOARDS).send({ metadata: { name: 'qd1' }, spec: { title: 'Q' } })).status).toBe(201);
  });
  afterAll(() => t.close());

  it('answers an organization\'s targets, limits and what is used', async () => {
    const expected = [
      { org_id: 1, target: 'user', limit: 10, used: 2 },
      { org_id: 1, target: 'dashboard', limit: 50, used: 1 },
      { org_id: 1, target: 'data_source', limit: 10, used: 0 },
      { org_id: 1, target: 'api_key', limit: 10, used: 0 },
      { org_id: 1, target: 'alert_rule', limit: 100, used: 0 },
    ];
    const mine = await t.anonymous.get('/api/org/quotas').auth('q-viewer', PASSWORD);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(expected);
    expect((await t.as.get('/api/orgs/1/quotas')).body).toEqual(expected);
  });

  it('answers a user\'s quota of organizations', async () => {
    const mine = await t.anonymous.get('/api/user/quotas').auth('q-viewer', PASSWORD);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([{ user_id: viewerId, target: 'org', limit: 10, used: 1 }]);
    expect((await t.as.get(`/api/admin/users/${viewerId}/quotas`)).body).toEqual(mine.body);
  });

  it.each([
    ['/api/orgs/abc/quotas', 400],
    ['/api/orgs/0/quotas', 400],
    ['/api/orgs/9999/quotas', 404],
    ['/api/admin/users/abc/quotas', 400],
    ['/api/admin/users/9999/quotas', 404],
  ])('answers %s with %i', async (path, status) => {
    const res = await t.as.get(path);
    expect(res.status).toBe(status);
    expect(typeof res.body.message).toBe('string');
  });

  it('refuses what the caller may not read', async () => {
    expect((await t.anonymous.get('/api/orgs/1/quotas').auth('q-viewer', PASSWORD)).status).toBe(403);
    expect((await t.anonymous.get(`/api/admin/users/${viewerId}/quotas`).auth('q-viewer', PASSWORD)).status).toBe(403);
    expect((await t.anonymous.get('/api/org/quotas')).status).toBe(401);
  });
});

describe('enforcement', () => {
  it('refuses a create beyond a limit with 403 "Quota reached", storing nothing, through both APIs', async () => {
    const t = await startTestApp(['--quota.enabled=true', '--quota.org_dashboard=2', '--quota.org_data_source=1', '--quota.global_user=2']);
    try {
      expect((await t.as.post(DASHBOARDS).send({ metadata: { name: 'e1' }, spec: { title: 'E1' } })).status).toBe(201);
      expect((await t.as.post('/api/dashboards/db').send({ dashboard: { title: 'E2' } })).status).toBe(200);
      const apis = await t.as.post(DASHBOARDS).send({ metadata: { name: 'e3' }, spec: { title: 'E3' } });
      expect(apis.status).toBe(403);
      expect(apis.body).toMatchObject({ kind: 'Status', code: 403, message: 'Quota reached' });
      const legacy = await t.as.post('/api/dashboards/db').send({ dashboard: { title: 'E4' } });
      expect({ status: legacy.status, message: legacy.body.message }).toEqual({ status: 403, message: 'Quota reached' });
      expect((await t.as.get(DASHBOARDS)).body.items).toHaveLength(2);
      // An update is no create: it passes.
      const e1 = (await t.as.get(`${DASHBOARDS}/e1`)).body;
      expect((await t.as.put(`${DASHBOARDS}/e1`).send({ ...e1, spec: { ...e1.spec, title: 'E1b' } })).status).toBe(200);

      expect((await t.as.post('/api/datasources').send({ name: 'ds1', type: 'prometheus', url: 'http://p', access: 'proxy' })).status).toBe(200);
      const ds = await t.as.post('/api/datasources').send({ name: 'ds2', type: 'prometheus', url: 'http://p', access: 'proxy' });
      expect({ status: ds.status, message: ds.body.message }).toEqual({ status: 403, message: 'Quota reached' });
      expect((await t.as.get('/api/datasources')).body).toHaveLength(1);

      expect((await t.as.post('/api/admin/users').send({ login: 'u2', password: 'password1' })).status).toBe(200);
      const u3 = await t.as.post('/api/admin/users').send({ login: 'u3', password: 'password1' });
      expect({ status: u3.status, message: u3.body.message }).toEqual({ status: 403, message: 'Quota reached' });
      expect((await t.as.get('/api/users/lookup?loginOrEmail=u3')).status).toBe(404);

      const quotas = (await t.as.get('/api/org/quotas')).body;
      expect(quotas).toContainEqual({ org_id: 1, target: 'dashboard', limit: 2, used: 2 });
      expect(quotas).toContainEqual({ org_id: 1, target: 'data_source', limit: 1, used: 1 });
    } finally {
      await t.close();
    }
  });

  it('enforces nothing while quota.enabled is false', async () => {
    const t = await startTestApp(['--quota.org_dashboard=1']);
    try {
      for (const name of ['n1', 'n2', 'n3']) expect((await t.as.post(DASHBOARDS).send({ metadata: { name }, spec: { title: name } })).status).toBe(201);
    } finally {
      await t.close();
    }
  });
});
