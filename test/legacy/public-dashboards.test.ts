/**
 * Public dashboards (the anchor's /api/dashboards/.../public-dashboards and /api/public/dashboards/:accessToken)
 * through HTTP: the PublicDashboard kind's create, list, get, update and delete in the anchor's shapes and errutil
 * errors, its permissions (dashboards:read to read, dashboards.public:write to write), one per dashboard, another
 * organization's never seen, and a dashboard's delete taking its public dashboard along.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { as, type Client, createUser } from '../support/users';

let t: TestApp;
let viewer: Client;
let editor: Client;
let otherAdmin: Client;
let otherOrg = 0;
const DASHBOARDS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';
const PUBLIC_DASHBOARDS = '/apis/publicdashboard.svc.app/v1/namespaces/default/publicdashboards';
const path = (dashboardUid: string, uid?: string) => `/api/dashboards/uid/${dashboardUid}/public-dashboards${uid ? `/${uid}` : ''}`;
const errutil = (statusCode: number, id: string, message: string) => ({ statusCode, messageId: `publicdashboards.${id}`, message });

/** A root dashboard of the server admin (Viewers view it, Editors edit it). */
async function dashboard(uid: string, spec: Record<string, unknown> = {}): Promise<void> {
  await t.as.post(DASHBOARDS).send({ metadata: { name: uid }, spec: { title: `Title ${uid}`, panels: [], ...spec } }).expect(201);
}

beforeAll(async () => {
  t = await startTestApp();
  await createUser(t, 'pd-viewer', { 1: 'Viewer' });
  await createUser(t, 'pd-editor', { 1: 'Editor' });
  otherOrg = (await t.users.createOrg(SYSTEM, 'Public elsewhere')).id;
  await createUser(t, 'pd-other', { [otherOrg]: 'Admin' });
  viewer = as(t, 'pd-viewer');
  editor = as(t, 'pd-editor');
  otherAdmin = as(t, 'pd-other');
});
afterAll(() => t.close());

it('creates, gets, lists, updates and deletes a public dashboard in the anchor shapes; /apis shows the same object', async () => {
  await dashboard('pd-crud');
  const created = await t.as.post(path('pd-crud')).send({ isEnabled: true, timeSelectionEnabled: true }).expect(200);
  expect(created.body).toEqual({
    uid: expect.stringMatching(/^[A-Za-z0-9]{14}$/), dashboardUid: 'pd-crud', accessToken: expect.stringMatching(/^[0-9a-f]{32}$/),
    createdBy: 1, updatedBy: 1, createdAt: expect.any(String), updatedAt: expect.any(String),
    timeSelectionEnabled: true, isEnabled: true, annotationsEnabled: false, share: 'public',
  });
  const { uid, accessToken } = created.body;
  expect((await viewer.get(path('pd-crud')).expect(200)).body).toEqual(created.body);
  const obj = (await t.as.get(`${PUBLIC_DASHBOARDS}/${uid}`).expect(200)).body;
  expect(obj.spec).toEqual({ dashboardUid: 'pd-crud', accessToken, isEnabled: true, annotationsEnabled: false, timeSelectionEnabled: true, share: 'public' });

  const list = await viewer.get('/api/dashboards/public-dashboards?query=crud').expect(200);
  expect(list.body).toEqual({ publicDashboards: [{ uid, accessToken, title: 'Title pd-crud', slug: 'title-pd-crud', dashboardUid: 'pd-crud', isEnabled: true }], totalCount: 1, page: 1, perPage: 1000 });

  // PATCH changes only what it names.
  const updated = await t.as.patch(path('pd-crud', uid)).send({ isEnabled: false, annotationsEnabled: true }).expect(200);
  expect(updated.body).toMatchObject({ uid, accessToken, isEnabled: false, annotationsEnabled: true, timeSelectionEnabled: true, share: 'public' });
  expect((await t.as.get(`${PUBLIC_DASHBOARDS}/${uid}`)).body.spec).toMatchObject({ isEnabled: false, annotationsEnabled: true });

  const deleted = await t.as.delete(path('pd-crud', uid)).expect(200);
  expect(deleted.text).toBe('');
  expect((await t.as.get(path('pd-crud'))).body).toEqual(errutil(404, 'notFound', 'Public dashboard not found'));
  expect((await t.as.delete(path('pd-crud', uid))).body).toEqual(errutil(404, 'notFound', 'Public dashboard not found'));
});

it('keeps one public dashboard per dashboard, and its uid and token as given', async () => {
  await dashboard('pd-given');
  const token = 'ab'.repeat(16);
  const res = await t.as.post(path('pd-given')).send({ uid: 'pd-given-share', accessToken: token }).expect(200);
  expect(res.body).toMatchObject({ uid: 'pd-given-share', accessToken: token, isEnabled: false, timeSelectionEnabled: false });
  const again = await t.as.post(path('pd-given')).send({});
  expect([again.status, again.body]).toEqual([400, errutil(400, 'dashboardIsPublic', 'Dashboard is already public')]);
  await dashboard('pd-given-2');
  expect((await t.as.post(path('pd-given-2')).send({ uid: 'pd-given-share' })).body).toEqual(errutil(400, 'uidExists', 'Public Dashboard Uid already exists'));
  expect((await t.as.post(path('pd-given-2')).send({ accessToken: token })).body).toEqual(errutil(400, 'accessTokenExists', 'Public Dashboard Access Token already exists'));
  // Neither failure left anything behind.
  expect((await t.as.get(path('pd-given-2'))).status).toBe(404);
});

it.each([
  ['a body that is no object', 'pd-bad', '[1]', errutil(400, 'badRequest', 'Bad request')],
  ['a flag that is no boolean', 'pd-bad', '{"isEnabled":"yes"}', errutil(400, 'badRequest', 'Bad request')],
  ['an unknown share type', 'pd-bad', '{"share":"friends"}', errutil(400, 'invalidShareType', 'Invalid share type')],
  ['an invalid uid', 'pd-bad', '{"uid":"a b"}', errutil(400, 'invalidUid', 'Invalid Uid')],
  ['an invalid access token', 'pd-bad', '{"accessToken":"xyz"}', errutil(400, 'invalidAccessToken', 'Invalid access token')],
  ['an invalid dashboard uid', 'a%20b', '{}', errutil(400, 'invalidUid', 'Invalid Uid')],
  ['a missing dashboard', 'pd-missing', '{}', errutil(404, 'dashboardNotFound', 'Dashboard not found')],
])('POST refuses %s', async (_what, dashboardUid, body, error) => {
  if (dashboardUid === 'pd-bad') await t.as.get(`${DASHBOARDS}/pd-bad`).then((r) => (r.status === 404 ? dashboard('pd-bad') : undefined));
  const res = await t.as.post(path(dashboardUid)).set('Content-Type', 'application/json').send(body);
  expect([res.status, res.body]).toEqual([error.statusCode, error]);
});

it('refuses updates and deletes through another dashboard, and unknown ones', async () => {
  await dashboard('pd-own');
  await dashboard('pd-else');
  const { uid } = (await t.as.post(path('pd-own')).send({ isEnabled: true }).expect(200)).body;
  expect((await t.as.patch(path('pd-else', uid)).send({ isEnabled: false })).body).toEqual(errutil(400, 'invalidUid', 'Invalid Uid'));
  expect((await t.as.delete(path('pd-else', uid))).body).toEqual(errutil(400, 'invalidUid', 'Invalid Uid'));
  expect((await t.as.patch(path('pd-own', 'nope')).send({})).body).toEqual(errutil(404, 'notFound', 'Public dashboard not found'));
  expect((await t.as.patch(path('pd-own', uid)).send({ share: 'x' })).body).toEqual(errutil(400, 'invalidShareType', 'Invalid share type'));
  expect((await t.as.get(`${PUBLIC_DASHBOARDS}/${uid}`)).body.spec.isEnabled).toBe(true);
});

it('lets who may read the dashboard read its public dashboard, and org Admins alone write them (dashboards.public:write)', async () => {
  await dashboard('pd-perm');
  const denied = await editor.post(path('pd-perm')).send({});
  expect(denied.status).toBe(403);
  expect(denied.body.message).toContain('dashboards.public:write');
  const { uid } = (await t.as.post(path('pd-perm')).send({}).expect(200)).body;
  expect((await editor.get(path('pd-perm'))).status).toBe(200);
  expect((await viewer.patch(path('pd-perm', uid)).send({ isEnabled: true })).status).toBe(403);
  expect((await editor.delete(path('pd-perm', uid))).status).toBe(403);
  // Under /apis the same rules: an Editor may not change it, a Viewer reads it.
  expect((await editor.patch(`${PUBLIC_DASHBOARDS}/${uid}`).set('Content-Type', 'application/merge-patch+json').send({ spec: { isEnabled: true } })).status).toBe(403);
  expect((await viewer.get(`${PUBLIC_DASHBOARDS}/${uid}`)).status).toBe(200);
  // A dashboard the caller may not read hides its public dashboard, from the list too.
  await t.as.post('/api/dashboards/uid/pd-perm/permissions').send({ items: [] }).expect(200);
  expect((await viewer.get(path('pd-perm'))).status).toBe(403);
  expect((await viewer.get('/api/dashboards/public-dashboards')).body.publicDashboards.map((p: { uid: string }) => p.uid)).not.toContain(uid);
  expect((await t.as.get('/api/dashboards/public-dashboards')).body.publicDashboards.map((p: { uid: string }) => p.uid)).toContain(uid);
});

it('pages the list by title', async () => {
  for (const n of ['pd-page-c', 'pd-page-a', 'pd-page-b']) {
    await dashboard(n);
    await t.as.post(path(n)).send({}).expect(200);
  }
  const page = await t.as.get('/api/dashboards/public-dashboards?query=pd-page&perpage=2&page=2').expect(200);
  expect(page.body).toMatchObject({ totalCount: 3, page: 2, perPage: 2, publicDashboards: [{ dashboardUid: 'pd-page-c', title: 'Title pd-page-c' }] });
  expect((await t.as.get('/api/dashboards/public-dashboards?query=pd-page&perpage=2')).body.publicDashboards.map((p: { dashboardUid: string }) => p.dashboardUid)).toEqual(['pd-page-a', 'pd-page-b']);
});

it("deletes a dashboard's public dashboard with it, in its folder's delete too", async () => {
  await dashboard('pd-gone');
  const { uid } = (await t.as.post(path('pd-gone')).send({ isEnabled: true }).expect(200)).body;
  await t.as.delete('/api/dashboards/uid/pd-gone').expect(200);
  expect((await t.as.get(`${PUBLIC_DASHBOARDS}/${uid}`)).status).toBe(404);
  await t.as.post('/apis/folder.svc.app/v1beta1/namespaces/default/folders').send({ metadata: { name: 'pd-folder' }, spec: { title: 'PD folder' } }).expect(201);
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'pd-in-folder', annotations: { 'svc.app/folder': 'pd-folder' } }, spec: { title: 'In folder' } }).expect(201);
  const inFolder = (await t.as.post(path('pd-in-folder')).send({}).expect(200)).body.uid;
  await t.as.delete('/api/folders/pd-folder').expect(200);
  expect((await t.as.get(`${PUBLIC_DASHBOARDS}/${inFolder}`)).status).toBe(404);
});

it("never shows another organization's public dashboards", async () => {
  await dashboard('pd-mine');
  const { uid } = (await t.as.post(path('pd-mine')).send({ isEnabled: true }).expect(200)).body;
  // The other org's Admin, acting in its own org: no such dashboard there, and an empty list.
  expect((await otherAdmin.get(path('pd-mine'))).body).toEqual(errutil(404, 'notFound', 'Public dashboard not found'));
  expect((await otherAdmin.get('/api/dashboards/public-dashboards')).body).toEqual({ publicDashboards: [], totalCount: 0, page: 1, perPage: 1000 });
  expect((await otherAdmin.delete(path('pd-mine', uid))).body).toEqual(errutil(404, 'notFound', 'Public dashboard not found'));
  expect((await otherAdmin.patch(path('pd-mine', uid)).send({ isEnabled: false })).body).toEqual(errutil(404, 'dashboardNotFound', 'Dashboard not found'));
  // In org 1 it is refused outright.
  expect((await otherAdmin.get(path('pd-mine')).set('X-Svc-Org-Id', '1')).status).toBe(403);
  expect((await t.as.get(`${PUBLIC_DASHBOARDS}/${uid}`)).body.spec.isEnabled).toBe(true);
});

describe('anonymous routes, by access token', () => {
  const FROM = 1_700_000_000_000;
  const TO = FROM + 60_000;
  const td = { uid: 'pd-td', type: 'svc-testdata-datasource' };
  let token = '';
  let uid = '';
  const view = (tok = token) => t.anonymous.get(`/api/public/dashboards/${tok}`);
  const query = (panelId: number | string, body: object = { intervalMs: 1000, maxDataPoints: 100 }, tok = token) =>
    t.anonymous.post(`/api/public/dashboards/${tok}/panels/${panelId}/query`).send(body);

  beforeAll(async () => {
    await t.as.post('/api/datasources').send({ uid: 'pd-td', name: 'pd-td', type: 'svc-testdata-datasource', access: 'proxy' }).expect(200);
    await dashboard('pd-anon', {
      time: { from: String(FROM), to: String(TO) },
      annotations: { list: [{ enable: true, datasource: { uid: 'svc', type: 'datasource' }, iconColor: 'red', name: 'Annotations', type: 'dashboard' }] },
      panels: [
        { id: 1, type: 'timeseries', datasource: td, targets: [{ refId: 'A', scenarioId: 'random_walk', expr: 'secret_metric' }, { refId: 'B', scenarioId: 'random_walk', hide: true }] },
        { id: 2, type: 'text' },
        { id: 3, type: 'row', collapsed: true, panels: [{ id: 4, type: 'timeseries', targets: [{ refId: 'R', datasource: td, scenarioId: 'random_walk', seriesCount: 2 }] }] },
      ],
    });
    const created = (await t.as.post(path('pd-anon')).send({ isEnabled: true }).expect(200)).body;
    ({ accessToken: token, uid } = created);
  });

  it('shows the dashboard of an enabled public dashboard without credentials, without its query texts, granting nothing', async () => {
    const res = await view().expect(200);
    expect(res.body.dashboard).toMatchObject({ uid: 'pd-anon', title: 'Title pd-anon', timepicker: { hidden: true } });
    expect(res.body.dashboard.panels[0].targets[0]).toEqual({ refId: 'A', scenarioId: 'random_walk' });
    expect(res.body.meta).toMatchObject({
      type: 'db', slug: 'title-pd-anon', canSave: false, canEdit: false, canAdmin: false, canStar: false, canDelete: false, isFolder: false,
      folderUid: '', createdBy: '', updatedBy: '', publicDashboardEnabled: true, version: 1,
    });
    // The stored dashboard kept its query.
    expect((await t.as.get(`${DASHBOARDS}/pd-anon`)).body.spec.panels[0].targets[0].expr).toBe('secret_metric');
  });

  it('refuses a disabled public dashboard, an unknown token and a malformed one, with the anchor\'s errors', async () => {
    expect((await view('0'.repeat(32))).body).toEqual(errutil(404, 'notFound', 'Public dashboard not found'));
    expect((await view('not-a-token')).body).toEqual(errutil(400, 'invalidAccessToken', 'Invalid access token'));
    await t.as.patch(path('pd-anon', uid)).send({ isEnabled: false }).expect(200);
    try {
      const paused = errutil(403, 'notEnabled', 'Public dashboard paused');
      expect([(await view()).status, (await view()).body]).toEqual([403, paused]);
      expect((await query(1)).body).toEqual(paused);
      expect((await t.anonymous.get(`/api/public/dashboards/${token}/annotations`)).body).toEqual(paused);
    } finally {
      await t.as.patch(path('pd-anon', uid)).send({ isEnabled: true }).expect(200);
    }
    expect((await view()).status).toBe(200);
  });

  it("runs a panel's saved queries through the testdata data source over the dashboard's time, never the visitor's own queries", async () => {
    const res = await query(1, { intervalMs: 1000, maxDataPoints: 100, queries: [{ refId: 'Z', datasource: td }], timeRange: { from: 'now-1h', to: 'now' } });
    expect(res.status).toBe(200);
    // The hidden query B and the visitor's Z are not run.
    expect(Object.keys(res.body.results)).toEqual(['A']);
    const [times, values] = res.body.results.A.frames[0].data.values;
    expect(times[0]).toBe(FROM);
    expect(times).toHaveLength(60);
    expect(times[1] - times[0]).toBe(1000);
    expect(values.every((v: unknown) => typeof v === 'number')).toBe(true);
    // The same panel through POST /api/ds/query over the same range answers the same data.
    const direct = await t.as.post('/api/ds/query').send({ from: String(FROM), to: String(TO), queries: [{ refId: 'A', datasource: td, scenarioId: 'random_walk', intervalMs: 1000, maxDataPoints: 100 }] }).expect(200);
    expect(res.body.results.A.frames[0].data).toEqual(direct.body.results.A.frames[0].data);
    // A panel of a collapsed row, whose query names its data source itself.
    const row = await query(4).expect(200);
    expect(row.body.results.R.frames).toHaveLength(2);
  });

  it("uses the visitor's time range only when time selection is enabled", async () => {
    const later = { intervalMs: 1000, maxDataPoints: 100, timeRange: { from: String(FROM + 3_600_000), to: String(FROM + 3_660_000), timezone: 'UTC' } };
    expect((await query(1, later)).body.results.A.frames[0].data.values[0][0]).toBe(FROM);
    await t.as.patch(path('pd-anon', uid)).send({ timeSelectionEnabled: true }).expect(200);
    try {
      expect((await query(1, later)).body.results.A.frames[0].data.values[0][0]).toBe(FROM + 3_600_000);
      expect((await view()).body.dashboard.timepicker.hidden).toBe(false);
      expect((await query(1, { timeRange: { from: 'yesterday', to: 'now' } })).body).toEqual(errutil(400, 'invalidTimeRange', 'Invalid time range'));
    } finally {
      await t.as.patch(path('pd-anon', uid)).send({ timeSelectionEnabled: false }).expect(200);
    }
  });

  it.each([
    ['a panel the dashboard does not have', 99, {}, errutil(404, 'panelNotFound', 'Public dashboard panel not found')],
    ['a panel without queries', 2, {}, errutil(400, 'panelQueriesNotFound', 'Failed to extract queries from panel')],
    ['a panel id that is no number', 'x', {}, errutil(400, 'invalidPanelId', 'Invalid panel id')],
    ['a negative interval', 1, { intervalMs: -1 }, errutil(400, 'invalidInterval', 'intervalMS should be greater than 0')],
    ['a negative maxDataPoints', 1, { maxDataPoints: -1 }, errutil(400, 'maxDataPoints', 'maxDataPoints should be greater than 0')],
    ['a body of wrong types', 1, { intervalMs: 'fast' }, errutil(400, 'badRequest', 'Bad request')],
  ])('a query of %s is refused', async (_what, panelId, body, error) => {
    const res = await query(panelId, body);
    expect([res.status, res.body]).toEqual([error.statusCode, error]);
  });

  it('answers the dashboard\'s annotations only while annotations are enabled', async () => {
    const id = (await t.as.post('/api/annotations').send({ dashboardUID: 'pd-anon', panelId: 1, time: FROM + 1000, timeEnd: FROM + 5000, text: 'Deploy', tags: ['deploy'] }).expect(200)).body.id;
    await t.as.post('/api/annotations').send({ text: 'Org-wide', time: FROM, tags: ['deploy'] }).expect(200);
    const annotations = (q = '') => t.anonymous.get(`/api/public/dashboards/${token}/annotations${q}`);
    expect((await annotations().expect(200)).body).toEqual([]);
    await t.as.patch(path('pd-anon', uid)).send({ annotationsEnabled: true }).expect(200);
    const dashboardId = Number((await t.as.get(`${DASHBOARDS}/pd-anon`)).body.metadata.labels['svc.app/deprecatedInternalID']);
    expect((await annotations(`?from=${FROM}&to=${TO}`).expect(200)).body).toEqual([
      {
        id, dashboardId, panelId: 1, tags: ['deploy'], isRegion: true, text: 'Deploy', color: 'red', time: FROM + 1000, timeEnd: FROM + 5000,
        source: { enable: true, datasource: { uid: 'svc', type: 'datasource' }, iconColor: 'red', name: 'Annotations', type: 'dashboard' },
      },
    ]);
    expect((await annotations(`?from=${TO + 1}&to=${TO + 2}`)).body).toEqual([]);
  });

  it("is gone with its dashboard, and another organization's token shows only that organization's dashboard", async () => {
    // A public dashboard of the other organization, made by its Admin: its token shows its own dashboard.
    const ns = `/apis/dashboard.svc.app/v1beta1/namespaces/org-${otherOrg}/dashboards`;
    await otherAdmin.post(ns).send({ metadata: { name: 'pd-anon' }, spec: { title: 'Elsewhere', panels: [] } }).expect(201);
    const theirs = (await otherAdmin.post(path('pd-anon')).send({ isEnabled: true }).expect(200)).body.accessToken;
    expect((await view(theirs)).body.dashboard.title).toBe('Elsewhere');
    expect((await view()).body.dashboard.title).toBe('Title pd-anon');
    await t.as.delete('/api/dashboards/uid/pd-anon').expect(200);
    expect((await view()).body).toEqual(errutil(404, 'notFound', 'Public dashboard not found'));
    expect((await view(theirs)).status).toBe(200);
  });
});

it("the dashboard's meta says whether its public dashboard is enabled (publicDashboardEnabled), to a Viewer too", async () => {
  await dashboard('pd-meta');
  const enabled = async (c: Client) => (await c.get('/api/dashboards/uid/pd-meta').expect(200)).body.meta.publicDashboardEnabled;
  expect(await enabled(t.as)).toBe(false);
  const created = await t.as.post(path('pd-meta')).send({ isEnabled: true }).expect(200);
  expect(await enabled(t.as)).toBe(true);
  expect(await enabled(viewer)).toBe(true);
  await t.as.patch(path('pd-meta', created.body.uid)).send({ isEnabled: false }).expect(200);
  expect(await enabled(t.as)).toBe(false);
});
