/**
 * Annotations (the anchor's /api/annotations) through HTTP: the Annotation kind, organization annotations and a
 * dashboard's, their filters (dashboard, panel, time range, tags, creator) answered from labels, the access of the
 * anchor (a dashboard's annotations follow its permissions), a dashboard's delete taking its annotations, and /apis.
 */
import { startTestApp, type TestApp } from '../support/app';
import { as, type Client, createUser } from '../support/users';

let t: TestApp;
let viewer: Client;
let editor: Client;
const DASHBOARDS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';
const FOLDERS = '/apis/folder.svc.app/v1beta1/namespaces/default/folders';
const ANNOTATIONS = '/apis/annotation.svc.app/v1beta1/namespaces/default/annotations';

beforeAll(async () => {
  t = await startTestApp();
  await createUser(t, 'ann-viewer', { 1: 'Viewer' });
  await createUser(t, 'ann-editor', { 1: 'Editor' });
  viewer = as(t, 'ann-viewer');
  editor = as(t, 'ann-editor');
  await t.as.post(FOLDERS).send({ metadata: { name: 'ann-private' }, spec: { title: 'Private' } }).expect(201);
  // Only the admin may see the private folder (and the dashboard in it).
  await t.as.post('/api/folders/ann-private/permissions').send({ items: [] }).expect(200);
  for (const [name, folder] of [['ann-dash', undefined], ['ann-other', undefined], ['ann-hidden', 'ann-private']] as const) {
    const annotations = folder ? { 'svc.app/folder': folder } : undefined;
    await t.as.post(DASHBOARDS).send({ metadata: { name, annotations }, spec: { title: name, panels: [] } }).expect(201);
  }
});
afterAll(() => t.close());

async function post(client: Client, body: Record<string, unknown>): Promise<number> {
  const res = await client.post('/api/annotations').send(body);
  expect(res.body).toEqual({ message: 'Annotation added', id: expect.any(Number) });
  return res.body.id;
}

it('creates, reads, updates, patches and deletes an annotation in the anchor shapes; /apis shows the same object', async () => {
  const id = await post(t.as, { dashboardUID: 'ann-dash', panelId: 2, time: 1000, timeEnd: 2000, text: 'Deploy', tags: ['deploy', ' env : prod '], data: { sha: 'abc' } });
  const dashboardId = Number((await t.as.get(`${DASHBOARDS}/ann-dash`)).body.metadata.labels['svc.app/deprecatedInternalID']);
  const got = await t.as.get(`/api/annotations/${id}`).expect(200);
  expect(got.body).toEqual({
    id, alertId: 0, alertName: '', dashboardId, dashboardUID: 'ann-dash', panelId: 2, userId: 1, newState: '', prevState: '',
    created: expect.any(Number), updated: expect.any(Number), time: 1000, timeEnd: 2000, text: 'Deploy', tags: ['deploy', 'env:prod'],
    login: 'admin', email: expect.any(String), avatarUrl: expect.stringMatching(/^\/avatar\//), data: { sha: 'abc' },
  });
  const obj = (await t.as.get(`${ANNOTATIONS}/${id}`).expect(200)).body;
  expect(obj.spec).toEqual({ text: 'Deploy', time: 1000, timeEnd: 2000, dashboardUID: 'ann-dash', panelId: 2, tags: ['deploy', 'env:prod'], data: { sha: 'abc' } });

  expect((await t.as.put(`/api/annotations/${id}`).send({ text: 'Replaced', time: 3000, timeEnd: 1500 })).body).toEqual({ message: 'Annotation updated' });
  // A region given end first is turned around; PUT replaces the tags (none given: none) and keeps the data.
  expect((await t.as.get(`/api/annotations/${id}`)).body).toMatchObject({ text: 'Replaced', time: 1500, timeEnd: 3000, tags: [], data: { sha: 'abc' } });
  expect((await t.as.patch(`/api/annotations/${id}`).send({ tags: ['patched'] })).body).toEqual({ message: 'Annotation patched' });
  expect((await t.as.get(`/api/annotations/${id}`)).body).toMatchObject({ text: 'Replaced', time: 1500, timeEnd: 3000, tags: ['patched'] });

  expect((await t.as.delete(`/api/annotations/${id}`)).body).toEqual({ message: 'Annotation deleted' });
  expect((await t.as.get(`/api/annotations/${id}`)).status).toBe(404);
  expect((await t.as.get(`/api/annotations/${id}`)).body).toEqual({ message: 'Annotation not found' });
  expect((await t.as.delete(`/api/annotations/${id}`)).body).toEqual({ message: 'Annotation not found' });
});

it('makes organization annotations: now when no time is given, a point when no end is', async () => {
  const before = Date.now();
  const id = await post(t.as, { text: 'Org wide' });
  const got = (await t.as.get(`/api/annotations/${id}`)).body;
  expect(got).toMatchObject({ dashboardId: 0, dashboardUID: null, panelId: 0, text: 'Org wide', data: {} });
  expect(got.time).toBeGreaterThanOrEqual(before);
  expect(got.timeEnd).toBe(got.time);
  const graphite = await t.as.post('/api/annotations/graphite').send({ what: 'Release', data: 'v2', when: 1700000000, tags: 'release  prod' });
  expect(graphite.body).toEqual({ message: 'Graphite annotation added', id: expect.any(Number) });
  expect((await t.as.get(`/api/annotations/${graphite.body.id}`)).body).toMatchObject({ text: 'Release\nv2', time: 1700000000000, timeEnd: 1700000000000, tags: ['release', 'prod'] });
});

describe('filters', () => {
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    ids.a = await post(t.as, { dashboardUID: 'ann-other', panelId: 1, time: 10_000, timeEnd: 20_000, text: 'a', tags: ['team:a', 'deploy'] });
    ids.b = await post(t.as, { dashboardUID: 'ann-other', panelId: 2, time: 30_000, text: 'b', tags: ['team:b'] });
    ids.c = await post(editor, { dashboardUID: 'ann-other', panelId: 1, time: 50_000, timeEnd: 60_000, text: 'c', tags: ['deploy'] });
  });
  const texts = async (query: string) => ((await t.as.get(`/api/annotations?${query}`).expect(200)).body as { text: string }[]).map((a) => a.text);

  it('by dashboard (uid or id) and panel, latest end first', async () => {
    expect(await texts('dashboardUID=ann-other')).toEqual(['c', 'b', 'a']);
    const id = (await t.as.get(`${DASHBOARDS}/ann-other`)).body.metadata.labels['svc.app/deprecatedInternalID'];
    expect(await texts(`dashboardId=${id}`)).toEqual(['c', 'b', 'a']);
    expect(await texts('dashboardUID=ann-other&panelId=1')).toEqual(['c', 'a']);
    expect(await texts('dashboardUID=ann-other&limit=2')).toEqual(['c', 'b']);
    expect((await t.as.get('/api/annotations?dashboardUID=nope')).body).toEqual({ message: 'Invalid dashboard UID in annotation request' });
    expect(await texts('dashboardId=999999')).toEqual([]);
  });

  it('by time range (overlapping), tags (all, or any) and creator; alerts are none', async () => {
    expect(await texts('dashboardUID=ann-other&from=15000&to=35000')).toEqual(['b', 'a']);
    expect(await texts('dashboardUID=ann-other&from=20001&to=29999')).toEqual([]);
    expect(await texts('dashboardUID=ann-other&tags=deploy')).toEqual(['c', 'a']);
    expect(await texts('dashboardUID=ann-other&tags=team')).toEqual(['b', 'a']);
    expect(await texts('dashboardUID=ann-other&tags=team:a&tags=deploy')).toEqual(['a']);
    expect(await texts('dashboardUID=ann-other&tags=team:b&tags=deploy&matchAny=true')).toEqual(['c', 'b', 'a']);
    const editorId = (await t.as.get('/api/users/lookup?loginOrEmail=ann-editor')).body.id;
    expect(await texts(`dashboardUID=ann-other&userId=${editorId}`)).toEqual(['c']);
    expect(await texts('dashboardUID=ann-other&userId=999999')).toEqual([]);
    expect(await texts('dashboardUID=ann-other&type=alert')).toEqual([]);
    expect(await texts('dashboardUID=ann-other&alertId=3')).toEqual([]);
    expect(await texts('dashboardUID=ann-other&type=annotation')).toEqual(['c', 'b', 'a']);
  });

  it('counts tags', async () => {
    const res = await t.as.get('/api/annotations/tags?tag=team').expect(200);
    expect(res.body).toEqual({ result: { tags: [{ tag: 'team:a', count: 1 }, { tag: 'team:b', count: 1 }] } });
    const limited = await t.as.get('/api/annotations/tags?tag=deploy&limit=1').expect(200);
    expect(limited.body.result.tags).toEqual([{ tag: 'deploy', count: 2 }]);
  });
});

describe('access', () => {
  it("a dashboard's annotations follow the dashboard's permissions; organization ones the role", async () => {
    const hidden = await post(t.as, { dashboardUID: 'ann-hidden', text: 'secret', time: 5 });
    const visible = await post(t.as, { dashboardUID: 'ann-dash', text: 'shown', time: 5 });
    const org = await post(t.as, { text: 'org', time: 5 });
    expect((await viewer.get(`/api/annotations/${hidden}`)).body).toEqual({ message: 'Annotation not found' });
    expect((await viewer.get(`/api/annotations/${visible}`)).status).toBe(200);
    expect((await viewer.get(`/api/annotations/${org}`)).status).toBe(200);
    const seen = ((await viewer.get('/api/annotations?limit=1000')).body as { id: number }[]).map((a) => a.id);
    expect(seen).toEqual(expect.arrayContaining([visible, org]));
    expect(seen).not.toContain(hidden);
    // A Viewer writes neither (it views the root dashboard; Editors edit it); an Editor writes both.
    expect((await viewer.patch(`/api/annotations/${visible}`).send({ text: 'x' })).status).toBe(403);
    expect((await viewer.post('/api/annotations').send({ text: 'x' })).status).toBe(403);
    expect((await viewer.post('/api/annotations').send({ text: 'x', dashboardUID: 'ann-dash' })).status).toBe(403);
    expect((await editor.patch(`/api/annotations/${visible}`).send({ text: 'edited' })).body).toEqual({ message: 'Annotation patched' });
    expect((await editor.patch(`/api/annotations/${org}`).send({ text: 'edited' })).body).toEqual({ message: 'Annotation patched' });
    // A dashboard it may not read is not found, for writing too.
    expect((await editor.post('/api/annotations').send({ text: 'x', dashboardUID: 'ann-hidden' })).status).toBe(403);
    expect((await editor.delete(`/api/annotations/${hidden}`)).body).toEqual({ message: 'Annotation not found' });
  });
});

it("a dashboard's delete, or its folder's, takes its annotations along", async () => {
  await t.as.post(FOLDERS).send({ metadata: { name: 'ann-gone' }, spec: { title: 'Gone' } }).expect(201);
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'ann-d1' }, spec: { title: 'd1', panels: [] } }).expect(201);
  await t.as.post(DASHBOARDS).send({ metadata: { name: 'ann-d2', annotations: { 'svc.app/folder': 'ann-gone' } }, spec: { title: 'd2', panels: [] } }).expect(201);
  const one = await post(t.as, { dashboardUID: 'ann-d1', text: 'one' });
  const two = await post(t.as, { dashboardUID: 'ann-d2', text: 'two' });
  await t.as.delete(`${DASHBOARDS}/ann-d1`).expect(200);
  expect((await t.as.get(`/api/annotations/${one}`)).status).toBe(404);
  await t.as.delete('/api/folders/ann-gone').expect(200);
  expect((await t.as.get(`/api/annotations/${two}`)).status).toBe(404);
  expect((await t.as.get(`${ANNOTATIONS}/${two}`)).status).toBe(404);
});

it('mass-deletes one annotation, or those of a dashboard panel', async () => {
  const a = await post(t.as, { dashboardUID: 'ann-dash', panelId: 7, text: 'm1' });
  const b = await post(t.as, { dashboardUID: 'ann-dash', panelId: 7, text: 'm2' });
  const c = await post(t.as, { dashboardUID: 'ann-dash', panelId: 8, text: 'm3' });
  expect((await t.as.post('/api/annotations/mass-delete').send({ dashboardUID: 'ann-dash' })).body).toEqual({ message: 'bad request data' });
  expect((await t.as.post('/api/annotations/mass-delete').send({ annotationId: c })).body).toEqual({ message: 'Annotations deleted' });
  expect((await t.as.get(`/api/annotations/${c}`)).status).toBe(404);
  expect((await t.as.post('/api/annotations/mass-delete').send({ dashboardUID: 'ann-dash', panelId: 7 })).body).toEqual({ message: 'Annotations deleted' });
  expect((await t.as.get(`/api/annotations/${a}`)).status).toBe(404);
  expect((await t.as.get(`/api/annotations/${b}`)).status).toBe(404);
});

describe('bad input', () => {
  test.each([
    ['POST /api/annotations', 'post', '/api/annotations', [], 400, 'bad request data'],
    ['POST /api/annotations', 'post', '/api/annotations', { text: 5 }, 400, 'bad request data'],
    ['POST /api/annotations', 'post', '/api/annotations', { text: '' }, 400, 'Failed to save annotation'],
    ['POST /api/annotations', 'post', '/api/annotations', { text: 'x', time: -1 }, 400, 'bad request data'],
    ['POST /api/annotations', 'post', '/api/annotations', { text: 'x', time: 1e300 }, 400, 'bad request data'],
    ['POST /api/annotations', 'post', '/api/annotations', { text: 'x', tags: ['t'.repeat(201)] }, 400, 'Failed to save annotation'],
    ['POST /api/annotations', 'post', '/api/annotations', { text: 'x', dashboardUID: 'missing' }, 404, 'Dashboard not found'],
    ['POST /api/annotations', 'post', '/api/annotations', { text: 'x', dashboardUID: 'a:b' }, 404, 'Dashboard not found'],
    ['POST /api/annotations/graphite', 'post', '/api/annotations/graphite', { tags: [] }, 400, 'Failed to save Graphite annotation'],
    ['POST /api/annotations/graphite', 'post', '/api/annotations/graphite', { what: 'x' }, 400, 'Failed to save Graphite annotation'],
    ['POST /api/annotations/graphite', 'post', '/api/annotations/graphite', { what: 'x', tags: [1] }, 400, 'Failed to save Graphite annotation'],
    ['POST /api/annotations/graphite', 'post', '/api/annotations/graphite', { what: 'x', tags: '', when: 9e15 }, 400, 'Failed to save Graphite annotation'],
    ['GET /api/annotations/:id', 'get', '/api/annotations/abc', undefined, 400, 'annotationId is invalid'],
    ['GET /api/annotations/:id', 'get', '/api/annotations/0', undefined, 400, 'annotationId is invalid'],
    ['GET /api/annotations/:id', 'get', '/api/annotations/99999999', undefined, 404, 'Annotation not found'],
    ['PUT /api/annotations/:id', 'put', '/api/annotations/1', 'text', 400, 'bad request data'],
    ['PATCH /api/annotations/:id', 'patch', '/api/annotations/x', {}, 400, 'annotationId is invalid'],
    ['DELETE /api/annotations/:id', 'delete', '/api/annotations/-1', undefined, 400, 'annotationId is invalid'],
    ['POST /api/annotations/mass-delete', 'post', '/api/annotations/mass-delete', { panelId: 3 }, 400, 'bad request data'],
    ['POST /api/annotations/mass-delete', 'post', '/api/annotations/mass-delete', { annotationId: 'x' }, 400, 'bad request data'],
    ['POST /api/annotations/mass-delete', 'post', '/api/annotations/mass-delete', { annotationId: 99999999 }, 404, 'Annotation not found'],
  ] as const)('%s %#', async (_route, method, path, body, status, message) => {
    const req = t.as[method](path);
    const res = body === undefined ? await req : await req.set('Content-Type', 'application/json').send(JSON.stringify(body));
    expect([res.status, res.body]).toEqual([status, { message }]);
  });

  it('odd query parameters are ignored, as the anchor reads them', async () => {
    for (const q of ['from=abc&to=-5', 'limit=-3', 'limit=abc', 'tags=', 'tags=:x', 'panelId=x', 'userId=abc', 'matchAny=yes', 'dashboardId=-1', 'type=other']) {
      expect((await t.as.get(`/api/annotations?${q}`)).status).toBe(200);
    }
    expect((await t.as.get('/api/annotations/tags?limit=x&tag=%25')).status).toBe(200);
  });
});
