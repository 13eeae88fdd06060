/**
 * The deprecated dashboard routes (spec §9.4: dashboard `id` is deprecated): the numeric-id forms of the versions,
 * restore and permissions routes answer as the uid forms they resolve to, and a v2 dashboard sent to the legacy save
 * gets the anchor's hint to use /apis.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const save = (body: object) => t.as.post('/api/dashboards/db').send(body);

/** A dashboard saved as versions 1..n (titles in turn): its legacy id. */
async function history(uid: string, titles: string[]): Promise<number> {
  let id = 0;
  for (const [i, title] of titles.entries()) {
    const res = await save({ dashboard: { id: id || null, uid, title, version: i }, message: `save ${i + 1}` });
    expect(res.status).toBe(200);
    id = res.body.id;
  }
  return id;
}

describe('GET /api/dashboards/id/:dashboardId/versions[/:version]', () => {
  it('answers what the uid forms answer', async () => {
    const id = await history('dep-hist', ['One', 'Two', 'Three']);
    for (const [byId, byUid] of [
      [`/api/dashboards/id/${id}/versions`, '/api/dashboards/uid/dep-hist/versions'],
      [`/api/dashboards/id/${id}/versions?limit=1&start=1`, '/api/dashboards/uid/dep-hist/versions?limit=1&start=1'],
      [`/api/dashboards/id/${id}/versions/2`, '/api/dashboards/uid/dep-hist/versions/2'],
      [`/api/dashboards/id/${id}/versions/9`, '/api/dashboards/uid/dep-hist/versions/9'],
      [`/api/dashboards/id/${id}/versions/x`, '/api/dashboards/uid/dep-hist/versions/x'],
    ]) {
      const [a, b] = [await t.as.get(byId), await t.as.get(byUid)];
      expect([byId, a.status, a.body]).toEqual([byId, b.status, b.body]);
    }
    const page = await t.as.get(`/api/dashboards/id/${id}/versions`);
    expect(page.body.versions.map((v: { version: number; dashboardId: number }) => [v.version, v.dashboardId])).toEqual([[3, id], [2, id], [1, id]]);
    expect((await t.as.get(`/api/dashboards/id/${id}/versions/2`)).body).toMatchObject({ version: 2, data: { title: 'Two' } });
  });

  it('bad input: an id that is no number is 400 "dashboardId is invalid", an unknown id 404, and nothing changes', async () => {
    const id = await history('dep-bad', ['One']);
    const before = (await t.as.get(`${DASHBOARDS}/dep-bad`)).body.metadata.resourceVersion;
    for (const [path, status, message] of [
      ['/api/dashboards/id/abc/versions', 400, 'dashboardId is invalid'],
      ['/api/dashboards/id/-1/versions', 400, 'dashboardId is invalid'],
      ['/api/dashboards/id/0/versions/1', 400, 'dashboardId is invalid'],
      ['/api/dashboards/id/1.5/permissions', 400, 'dashboardId is invalid'],
      ['/api/dashboards/id/99999999999999999999/versions', 400, 'dashboardId is invalid'],
      ['/api/dashboards/id/987654/versions', 404, 'Dashboard not found'],
      ['/api/dashboards/id/987654/versions/1', 404, 'Dashboard not found'],
      ['/api/dashboards/id/987654/permissions', 404, 'Dashboard not found'],
    ] as const) {
      const res = await t.as.get(path);
      expect([path, res.status, res.body.message]).toEqual([path, status, message]);
    }
    for (const [path, body, status] of [
      ['/api/dashboards/id/abc/restore', { version: 1 }, 400],
      ['/api/dashboards/id/987654/restore', { version: 1 }, 404],
      [`/api/dashboards/id/${id}/restore`, { version: 'x' }, 400],
      [`/api/dashboards/id/${id}/restore`, {}, 400],
      [`/api/dashboards/id/${id}/restore`, { version: 7 }, 404],
      [`/api/dashboards/id/${id}/permissions`, { items: [{ role: 'Nobody', permission: 1 }] }, 400],
      [`/api/dashboards/id/${id}/permissions`, { items: 'x' }, 400],
      ['/api/dashboards/id/987654/permissions', { items: [] }, 404],
    ] as const) {
      const res = await t.as.post(path).send(body);
      expect([path, JSON.stringify(body), res.status]).toEqual([path, JSON.stringify(body), status]);
    }
    expect((await t.as.get(`${DASHBOARDS}/dep-bad`)).body.metadata.resourceVersion).toBe(before);
    const perms = await t.as.get('/api/dashboards/uid/dep-bad/permissions');
    expect(perms.body.some((p: { role?: string }) => p.role === 'Nobody')).toBe(false);
  });

  it("is another org's dashboard's 404, and a Viewer's 403 as the uid form", async () => {
    const id = await history('dep-org', ['One']);
    await createUser(t, 'dep-viewer', { 1: 'Viewer' });
    const viewer = as(t, 'dep-viewer');
    const byId = await viewer.get(`/api/dashboards/id/${id}/versions`);
    const byUid = await viewer.get('/api/dashboards/uid/dep-org/versions');
    expect([byId.status, byId.body.message]).toEqual([403, byUid.body.message]);
    // The same number in another org names nothing there.
    const org = await t.users.createOrg(SYSTEM, 'Deprecated ids elsewhere');
    await t.users.setRole(SYSTEM, org.id, 1, 'Admin');
    const other = await t.as.get(`/api/dashboards/id/${id}/versions`).set('X-Svc-Org-Id', String(org.id));
    expect([other.status, other.body.message]).toEqual([404, 'Dashboard not found']);
  });
});

describe('POST /api/dashboards/id/:dashboardId/restore', () => {
  it('restores as the uid form: a new version with restoredFrom and the message', async () => {
    const id = await history('dep-restore', ['One', 'Two']);
    const res = await t.as.post(`/api/dashboards/id/${id}/restore`).send({ version: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, uid: 'dep-restore', url: '/d/dep-restore/one', status: 'success', version: 3, slug: 'one', folderUid: '' });
    const v3 = await t.as.get('/api/dashboards/uid/dep-restore/versions/3');
    expect(v3.body).toMatchObject({ restoredFrom: 1, message: 'Restored from version 1', data: { title: 'One' } });
  });
});

describe('GET/POST /api/dashboards/id/:dashboardId/permissions', () => {
  it('reads and replaces the permissions of the dashboard, as the uid form', async () => {
    const id = await history('dep-perms', ['One']);
    const set = await t.as.post(`/api/dashboards/id/${id}/permissions`).send({ items: [{ role: 'Viewer', permission: 1 }] });
    expect([set.status, set.body]).toEqual([200, { message: 'Dashboard permissions updated' }]);
    const [byId, byUid] = [await t.as.get(`/api/dashboards/id/${id}/permissions`), await t.as.get('/api/dashboards/uid/dep-perms/permissions')];
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(byUid.body);
    expect(byId.body.filter((p: { inherited: boolean }) => !p.inherited).map((p: { role?: string; permission: number }) => [p.role, p.permission])).toEqual([['Viewer', 1]]);
  });
});

describe('POST /api/dashboards/db with a v2 dashboard', () => {
  it('answers 400 with the hint to use /apis, for elements+layout or a v2 apiVersion, and stores nothing', async () => {
    const hint = 'dashboard appears to be in v2 format. Please use the /apis/dashboard.svc.app/v1beta1 API, which stores the dashboard JSON as it is sent';
    for (const dashboard of [
      { uid: 'v2-a', title: 'V2', elements: {}, layout: { kind: 'GridLayout', spec: { items: [] } } },
      { uid: 'v2-b', title: 'V2', elements: { 'panel-1': { kind: 'Panel' } }, layout: { kind: 'RowsLayout', spec: {} }, version: 'not a number' },
      { uid: 'v2-c', apiVersion: 'dashboard.svc.app/v2beta1', kind: 'Dashboard', spec: { title: 'V2' } },
    ]) {
      const res = await save({ dashboard, overwrite: true });
      expect([dashboard.uid, res.status, res.body]).toEqual([dashboard.uid, 400, { message: hint }]);
      expect((await t.as.get(`${DASHBOARDS}/${dashboard.uid}`)).status).toBe(404);
    }
    // A classic dashboard with a panel layout of its own is no v2 one.
    const classic = await save({ dashboard: { uid: 'v1-layout', title: 'Classic', layout: { kind: 'mine' } } });
    expect(classic.status).toBe(200);
  });
});
