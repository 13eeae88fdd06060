import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, PASSWORD } from '../support/users';

/** Custom roles exist in the enterprise edition only; every edition tells a caller what it holds. */
describe('open-source edition (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 on every custom-role endpoint, storing nothing', async () => {
    const calls = [
      t.as.get('/api/access-control/roles'),
      t.as.post('/api/access-control/roles').send({ name: 'custom:x', permissions: [] }),
      t.as.get('/api/access-control/roles/x'),
      t.as.put('/api/access-control/roles/x').send({ name: 'custom:x' }),
      t.as.delete('/api/access-control/roles/x'),
      t.as.get('/api/access-control/roles/x/assignments'),
      t.as.put('/api/access-control/roles/x/assignments').send({ users: [1] }),
      t.as.get('/api/access-control/users/1/roles'),
      t.as.post('/api/access-control/users/1/roles').send({ roleUid: 'x' }),
      t.as.delete('/api/access-control/users/1/roles/x'),
      t.as.get('/api/access-control/teams/1/roles'),
      t.as.post('/api/access-control/teams/1/roles').send({ roleUid: 'x' }),
      t.as.delete('/api/access-control/teams/1/roles/x'),
      t.as.put('/api/access-control/users/1/roles').send({ roleUids: ['x'] }),
      t.as.put('/api/access-control/teams/1/roles').send({ roleUids: ['x'] }),
      t.as.get('/api/access-control/status'),
      t.as.post('/api/access-control/assignments/search').send({}),
    ];
    for (const call of calls) {
      const res = await call;
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found' });
    }
    const ctx = { requester: SYSTEM, namespace: 'default', fieldManager: 'test' };
    const roleKind = t.users!.registry.kinds.find((k) => k.kind === 'Role')!;
    expect((await t.users!.registry.list(ctx, roleKind, {})).items).toEqual([]);
  });

  it('serves the caller its permissions: its basic role, grouped by action', async () => {
    const res = await t.as.get('/api/access-control/user/permissions');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ 'teams:create': [''], 'teams:read': ['teams:*'], 'dashboards:read': ['dashboards:*', 'folders:*'], 'users:create': [''] });
    const viewer = await createUser(t, 'pv');
    await t.users!.setRole(SYSTEM, 1, viewer.id, 'Viewer');
    const mine = await t.anonymous.get('/api/access-control/user/permissions').auth('pv', PASSWORD);
    expect(mine.body['folders:read']).toEqual(['folders:uid:general']);
    expect(mine.body['teams:create']).toBeUndefined();
    expect(mine.body['users:create']).toBeUndefined();
  });
});
