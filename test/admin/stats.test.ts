/**
 * GET /api/admin/stats and GET /api/admin/usage-report-preview, through HTTP: counted from what is stored, users by
 * their highest role, activity from the last-seen records, sessions from the login sessions.
 */
import { lastSeenKind } from '../../apis';
import { IDENTITY_NAMESPACE, SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, DATASOURCES, FOLDERS, PLAYLISTS } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;

/** Records a user's last activity at `at` (as the last-seen tracker would have). */
async function seen(uid: string, at: Date): Promise<void> {
  await t.users.registry.upsert({ requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'test' }, anyKind(lastSeenKind), uid, () => ({ metadata: { name: uid }, spec: { seenAt: at.toISOString() } }));
}

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('counts a fresh server: the admin in organization 1, nothing else', async () => {
  const res = await t.as.get('/api/admin/stats');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ orgs: 1, users: 1, admins: 1, editors: 0, viewers: 0, dashboards: 0, datasources: 0, playlists: 0, snapshots: 0, stars: 0, tags: 0, alerts: 0 });
  for (const value of Object.values(res.body)) expect(Number.isInteger(value)).toBe(true);
});

it('counts every field from the stored objects, and the usage report says the same', async () => {
  const other = await t.users.createOrg(SYSTEM, 'Other');
  const viewer = await createUser(t, 'st-viewer', { 1: 'Viewer' });
  const editor = await createUser(t, 'st-editor', { 1: 'Editor', [other.id]: 'Viewer' });
  const admin = await createUser(t, 'st-admin', { [other.id]: 'Admin' });
  expect((await t.as.post(FOLDERS).send({ metadata: { name: 'f1' }, spec: { title: 'F' } })).status).toBe(201);
  for (const [name, tags] of [['d1', ['a', 'b']], ['d2', ['b', 'c']], ['d3', []]] as const) {
    expect((await t.as.post(DASHBOARDS).send({ metadata: { name }, spec: { title: name, tags } })).status).toBe(201);
  }
  expect((await t.as.post(DATASOURCES).send({ metadata: { name: 'p1' }, spec: { name: 'p1', type: 'prometheus', url: 'http://prom' } })).status).toBe(201);
  expect((await t.as.post(DATASOURCES).send({ metadata: { name: 'l1' }, spec: { name: 'l1', type: 'loki', url: 'http://loki', access: 'direct' } })).status).toBe(201);
  expect((await t.as.post(PLAYLISTS).send({ metadata: { name: 'pl1' }, spec: { title: 'P', interval: '5m', items: [] } })).status).toBe(201);
  expect((await t.as.post('/api/snapshots').send({ dashboard: { title: 'S' } })).status).toBe(200);
  expect((await t.as.post('/api/user/stars/dashboard/uid/d1')).status).toBe(200);
  // A login session of the viewer (used now), and activity: the viewer today, the editor 10 days ago, st-admin 40.
  expect((await t.anonymous.post('/login').send({ user: 'st-viewer', password: PASSWORD })).status).toBe(200);
  const adminUid = (await t.users.userByLoginOrEmail('admin'))!.uid;
  await seen(adminUid, new Date(Date.now() - 40 * DAY));
  await seen(viewer.uid, new Date());
  await seen(editor.uid, new Date(Date.now() - 10 * DAY));
  await seen(admin.uid, new Date(Date.now() - 40 * DAY));

  const stats = (await t.as.get('/api/admin/stats')).body;
  expect(stats).toMatchObject({
    orgs: 2, users: 4, admins: 2, editors: 1, viewers: 1,
    dashboards: 3, tags: 3, datasources: 2, playlists: 1, snapshots: 1, stars: 1, alerts: 0,
    activeUsers: 2, activeAdmins: 0, activeEditors: 1, activeViewers: 1,
    dailyActiveUsers: 1, dailyActiveAdmins: 0, dailyActiveEditors: 0, dailyActiveViewers: 1,
    activeSessions: 1, dailyActiveSessions: 1,
  });
  expect(stats.monthlyActiveUsers).toBeGreaterThanOrEqual(stats.dailyActiveUsers);
  expect(stats.monthlyActiveUsers).toBeLessThanOrEqual(stats.activeUsers);

  const report = await t.as.get('/api/admin/usage-report-preview');
  expect(report.status).toBe(200);
  expect(report.body).toMatchObject({ version: 'test', edition: 'oss', hasValidLicense: false, os: process.platform });
  expect(typeof report.body.usageStatsId).toBe('string');
  expect(report.body.metrics).toMatchObject({
    'stats.dashboards.count': 3, 'stats.users.count': 4, 'stats.admins.count': 2, 'stats.editors.count': 1, 'stats.viewers.count': 1, 'stats.orgs.count': 2,
    'stats.playlist.count': 1, 'stats.folders.count': 1, 'stats.datasources.count': 2, 'stats.stars.count': 1, 'stats.snapshots.count': 1,
    'stats.ds.prometheus.count': 1, 'stats.ds.loki.count': 1, 'stats.ds_access.prometheus.proxy.count': 1, 'stats.ds_access.loki.direct.count': 1,
    'stats.active_users.count': 2, 'stats.daily_active_users.count': 1, 'stats.active_sessions.count': 1, 'stats.total_auth_token.count': 1,
    'edition.oss': 1,
  });
  for (const value of Object.values(report.body.metrics)) expect(Number.isInteger(value)).toBe(true);
  // The same installation id at every call (and on every replica: it is stored).
  expect((await t.as.get('/api/admin/usage-report-preview')).body.usageStatsId).toBe(report.body.usageStatsId);
});

it('counts a deletion at the next call', async () => {
  const before = (await t.as.get('/api/admin/stats')).body;
  expect((await t.as.delete(`${DASHBOARDS}/d2`)).status).toBe(200);
  const after = (await t.as.get('/api/admin/stats')).body;
  expect(after.dashboards).toBe(before.dashboards - 1);
  // d2's tags: c was its alone.
  expect(after.tags).toBe(before.tags - 1);
});

it('refuses everyone but a server admin', async () => {
  await createUser(t, 'st-orgadmin', { 1: 'Admin' });
  for (const path of ['/api/admin/stats', '/api/admin/usage-report-preview']) {
    expect((await t.anonymous.get(path).auth('st-orgadmin', PASSWORD)).status).toBe(403);
    expect((await t.anonymous.get(path)).status).toBe(401);
  }
});
