/**
 * Lists across namespaces (`/apis/<group>/<version>/<resource>`, `kubectl get -A`) through HTTP: the caller sees the
 * objects of the organizations it belongs to, each as a list of that namespace would show them to it, paged by
 * continue tokens that run across namespaces at one resourceVersion.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { as, createUser } from '../support/users';
import { startTestApp, type TestApp } from '../support/app';

const DASHBOARDS_ALL = '/apis/dashboard.svc.app/v1beta1/dashboards';
const PLAYLISTS_ALL = '/apis/playlist.svc.app/v1/playlists';
const ns = (n: string) => `/apis/dashboard.svc.app/v1beta1/namespaces/${n}/dashboards`;

let t: TestApp;
let org2: string;
beforeAll(async () => {
  t = await startTestApp();
  const org = await t.users!.createOrg(SYSTEM, 'Second');
  org2 = `org-${org.id}`;
  await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
  await createUser(t, 'viv', { 1: 'Viewer' });
  await createUser(t, 'sam', { [org.id]: 'Viewer' });
  await createUser(t, 'nora', { 1: 'Viewer', [org.id]: 'None' });
  const dashboard = (name: string, folder?: string) => ({ metadata: { name, ...(folder ? { annotations: { 'svc.app/folder': folder } } : {}) }, spec: { title: name } });
  for (const name of ['d-a', 'd-b', 'd-c']) expect((await t.as.post(ns('default')).send(dashboard(name))).status).toBe(201);
  for (const name of ['e-a', 'e-b']) expect((await t.as.post(ns(org2)).send(dashboard(name))).status).toBe(201);
  // A folder only Editors see in org 1, with a dashboard in it: Viewers see neither.
  expect((await t.as.post('/api/folders').send({ uid: 'editors', title: 'Editors' })).status).toBe(200);
  expect((await t.as.post('/api/folders/editors/permissions').send({ items: [{ role: 'Editor', permission: 2 }] })).status).toBe(200);
  expect((await t.as.post(ns('default')).send(dashboard('d-hidden', 'editors'))).status).toBe(201);
  for (const [namespace, name] of [['default', 'p-1'], [org2, 'p-2']]) {
    const res = await t.as.post(`/apis/playlist.svc.app/v1/namespaces/${namespace}/playlists`).send({ metadata: { name }, spec: { title: name, interval: '5m', items: [] } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const names = (body: { items: { metadata: { namespace: string; name: string } }[] }) => body.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`);

test('shows the objects of every organization the caller belongs to, in namespace and name order', async () => {
  const res = await t.as.get(DASHBOARDS_ALL);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ apiVersion: 'dashboard.svc.app/v1beta1', kind: 'DashboardList', metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } });
  expect(names(res.body)).toEqual(['default/d-a', 'default/d-b', 'default/d-c', 'default/d-hidden', `${org2}/e-a`, `${org2}/e-b`]);
});

test('shows each object only to who may read it, in its own organization', async () => {
  expect(names((await as(t, 'viv').get(DASHBOARDS_ALL)).body)).toEqual(['default/d-a', 'default/d-b', 'default/d-c']);
  expect(names((await as(t, 'sam').get(DASHBOARDS_ALL)).body)).toEqual([`${org2}/e-a`, `${org2}/e-b`]);
  // Kinds without per-object permissions follow the org role: None lists nothing there.
  expect(names((await as(t, 'nora').get(PLAYLISTS_ALL)).body)).toEqual(['default/p-1']);
  expect(names((await as(t, 'sam').get(PLAYLISTS_ALL)).body)).toEqual([`${org2}/p-2`]);
  // Filters apply in every namespace, the namespace field selector included.
  expect(names((await t.as.get(`${DASHBOARDS_ALL}?fieldSelector=metadata.name=e-b`)).body)).toEqual([`${org2}/e-b`]);
  expect(names((await t.as.get(`${DASHBOARDS_ALL}?fieldSelector=metadata.namespace=${org2}`)).body)).toEqual([`${org2}/e-a`, `${org2}/e-b`]);
});

test('pages across namespaces with continue tokens, one snapshot for every page', async () => {
  const seen: string[] = [];
  const versions = new Set<string>();
  let next = '';
  let pages = 0;
  do {
    const res = await t.as.get(`${DASHBOARDS_ALL}?limit=2${next ? `&continue=${next}` : ''}`);
    expect(res.status).toBe(200);
    seen.push(...names(res.body));
    versions.add(res.body.metadata.resourceVersion);
    next = res.body.metadata.continue ?? '';
    // Written between pages: not in this list, which shows the collection as its first page saw it.
    if (pages++ === 0) expect((await t.as.post(ns(org2)).send({ metadata: { name: 'e-0' }, spec: { title: 'late' } })).status).toBe(201);
  } while (next);
  expect(seen).toEqual(['default/d-a', 'default/d-b', 'default/d-c', 'default/d-hidden', `${org2}/e-a`, `${org2}/e-b`]);
  expect(versions.size).toBe(1);
  expect(names((await t.as.get(DASHBOARDS_ALL)).body)).toContain(`${org2}/e-0`);
  await t.as.delete(`${ns(org2)}/e-0`);
});

test('refuses what it cannot serve with a Status', async () => {
  const unknown = await t.as.get('/apis/dashboard.svc.app/v1beta1/widgets');
  expect([unknown.status, unknown.body.kind]).toEqual([404, 'Status']);
  const oneNamespace = (await t.as.get(`${ns('default')}?limit=1`)).body.metadata.continue;
  const mixed = await t.as.get(`${DASHBOARDS_ALL}?continue=${oneNamespace}`);
  expect([mixed.status, mixed.body.message]).toEqual([400, 'continue key is not valid: it continues a list of one namespace']);
  expect((await t.anonymous.get(DASHBOARDS_ALL)).status).toBe(401);
});
