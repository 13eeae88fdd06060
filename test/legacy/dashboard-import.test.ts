/**
 * POST /api/dashboards/import (the anchor's dashboard import): inputs answering `__inputs`, overwrite, the folder,
 * library panels created from `__elements`, the ImportDashboardResponse, and bad input that changes nothing.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, LIBRARY_PANELS } from '../support/paths';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  expect((await t.as.post('/api/folders').send({ uid: 'imports', title: 'Imports' })).status).toBe(200);
});
afterAll(() => t.close());

const importDashboard = (body: unknown) => t.as.post('/api/dashboards/import').send(body as object);

/** An exported dashboard: a data source input, a library panel in a row, the anchor's export fields. */
const exported = (uid: string, element = `${uid}-lib`) => ({
  __inputs: [{ name: 'DS_PROM', label: 'Prometheus', type: 'datasource', pluginId: 'prometheus' }],
  __requires: [{ type: 'datasource', id: 'prometheus', name: 'Prometheus', version: '1.0.0' }],
  __elements: { [element]: { name: `Lib ${uid}`, uid: element, kind: 1, model: { type: 'stat', datasource: { uid: '${DS_PROM}' } } } },
  id: 42,
  uid,
  title: `Imported ${uid}`,
  version: 7,
  revision: 3,
  templating: { list: [{ name: 'job', query: 'label_values(up{instance="$instance"}, ${job})', datasource: '${DS_PROM}' }] },
  panels: [
    { id: 1, type: 'timeseries', title: 'CPU ${DS_PROM}', datasource: { type: 'prometheus', uid: '${DS_PROM}' }, targets: [{ refId: 'A', expr: 'up', datasource: { uid: '${DS_PROM}' } }] },
    { id: 2, type: 'row', panels: [{ id: 3, libraryPanel: { uid: element, name: `Lib ${uid}` } }] },
  ],
});
const input = { name: 'DS_PROM', type: 'datasource', pluginId: 'prometheus', value: 'prom-uid' };

it('replaces ${DS_...} placeholders, creates the library panels of __elements in the folder, and answers ImportDashboardResponse', async () => {
  const res = await importDashboard({ dashboard: exported('imp-1'), inputs: [input], folderUid: 'imports', path: 'dashboards/imp-1.json', overwrite: false });
  expect(res.status).toBe(200);
  const folderId = (await t.as.get('/api/folders/imports')).body.id;
  expect(res.body).toEqual({
    uid: 'imp-1', pluginId: '', title: 'Imported imp-1', path: 'dashboards/imp-1.json', revision: 3, description: '', folderId, folderUid: 'imports',
    imported: true, importedUri: 'db/imported-imp-1', importedUrl: '/d/imp-1/imported-imp-1', importedRevision: 3, removed: false, dashboardId: expect.any(Number), slug: 'imported-imp-1',
  });
  const stored = (await t.as.get('/api/dashboards/uid/imp-1')).body;
  expect(stored.meta.folderUid).toBe('imports');
  expect(stored.dashboard).toMatchObject({ id: res.body.dashboardId, uid: 'imp-1', version: 1, revision: 3 });
  expect(stored.dashboard.__inputs).toBeUndefined();
  expect(stored.dashboard.__elements).toBeUndefined();
  expect(stored.dashboard.__requires).toHaveLength(1);
  expect(stored.dashboard.panels[0]).toMatchObject({ title: 'CPU prom-uid', datasource: { uid: 'prom-uid' }, targets: [{ datasource: { uid: 'prom-uid' } }] });
  // Placeholders no input names stay: they are the dashboard's own variables.
  expect(stored.dashboard.templating.list[0]).toEqual({ name: 'job', query: 'label_values(up{instance="$instance"}, ${job})', datasource: 'prom-uid' });

  // Parity: what the import wrote reads back through /apis, in its folder, with the legacy id as its label.
  const viaApis = (await t.as.get(`${DASHBOARDS}/imp-1`)).body;
  expect(viaApis.metadata.annotations['svc.app/folder']).toBe('imports');
  expect(viaApis.metadata.labels['svc.app/deprecatedInternalID']).toBe(String(res.body.dashboardId));
  expect(viaApis.spec.panels[1].panels[0].libraryPanel.uid).toBe('imp-1-lib');
  expect((await t.as.get(`${LIBRARY_PANELS}/imp-1-lib`)).body.metadata.annotations['svc.app/folder']).toBe('imports');
  const element = await t.as.get('/api/library-elements/imp-1-lib');
  expect(element.status).toBe(200);
  expect(element.body.result).toMatchObject({ uid: 'imp-1-lib', name: 'Lib imp-1', kind: 1, folderUid: 'imports', model: { type: 'stat', datasource: { uid: 'prom-uid' } } });
  const connections = await t.as.get('/api/library-elements/imp-1-lib/connections');
  expect(connections.body.result.map((c: { connectionUid: string }) => c.connectionUid)).toEqual(['imp-1']);
});

it('uses an existing library panel as it is, and matches an input named *', async () => {
  const res = await importDashboard({ dashboard: { ...exported('imp-2', 'imp-1-lib'), __elements: { 'imp-1-lib': { name: 'Other', kind: 1, model: { type: 'changed' } } } }, inputs: [{ ...input, name: '*' }] });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ uid: 'imp-2', folderUid: '', folderId: 0 });
  expect((await t.as.get('/api/library-elements/imp-1-lib')).body.result).toMatchObject({ name: 'Lib imp-1', model: { type: 'stat' } });
});

it('an existing uid is 412 name-exists; overwrite replaces it (its id and version ignored)', async () => {
  const again = await importDashboard({ dashboard: exported('imp-1'), inputs: [input] });
  expect([again.status, again.body]).toEqual([412, { status: 'name-exists', message: 'A dashboard with the same uid already exists' }]);
  const over = await importDashboard({ dashboard: { ...exported('imp-1'), title: 'Replaced' }, inputs: [input], overwrite: true, folderUid: 'imports' });
  expect(over.status).toBe(200);
  expect((await t.as.get('/api/dashboards/uid/imp-1')).body.dashboard).toMatchObject({ title: 'Replaced', version: 2 });
  // Without a uid, a new one is generated each time.
  const { uid: _uid, ...noUid } = exported('x', 'imp-1-lib');
  const generated = await importDashboard({ dashboard: noUid, inputs: [input] });
  expect(generated.status).toBe(200);
  expect(generated.body.uid).toMatch(/^[a-z][a-z0-9]{13}$/);
});

it('bad input: each is refused with the anchor words and writes nothing (no dashboard, no library panel)', async () => {
  const dashboards = async () => (await t.as.get(DASHBOARDS)).body.items.length;
  const elements = async () => (await t.as.get(LIBRARY_PANELS)).body.items.length;
  const [d0, e0] = [await dashboards(), await elements()];
  const bad = exported('bad-1', 'bad-lib');
  const { name: _name, ...nameless } = bad.__elements['bad-lib'];
  for (const [body, status, message] of [
    ['x', 400, 'bad request data'],
    [[], 400, 'bad request data'],
    [{ dashboard: 'x' }, 400, 'bad request data'],
    [{ dashboard: bad, inputs: 'x' }, 400, 'bad request data'],
    [{ dashboard: bad, inputs: [{ name: 'DS_PROM' }] }, 400, 'bad request data'],
    [{ dashboard: bad, overwrite: 'yes', inputs: [input] }, 400, 'bad request data'],
    [{}, 422, 'Dashboard must be set'],
    [{ dashboard: null }, 422, 'Dashboard must be set'],
    [{ dashboard: bad }, 400, 'Dashboard input variable: DS_PROM missing from import command'],
    [{ dashboard: bad, inputs: [{ ...input, type: 'constant' }] }, 400, 'Dashboard input variable: DS_PROM missing from import command'],
    [{ dashboard: bad, inputs: [{ ...input, name: 'DS_OTHER' }] }, 400, 'Dashboard input variable: DS_PROM missing from import command'],
    [{ dashboard: { ...bad, panels: [{ libraryPanel: { name: 'no uid' } }] }, inputs: [input] }, 400, 'library panel header is missing required property uid'],
    [{ dashboard: { ...bad, __elements: { 'bad-lib': nameless } }, inputs: [input] }, 400, 'library panel header is missing required property name'],
    [{ dashboard: { ...bad, __elements: {} }, inputs: [input] }, 400, 'library panel header is missing required property name'],
    [{ dashboard: bad, inputs: [input], folderUid: 'no-such-folder' }, 400, 'folder not found'],
    [{ dashboard: bad, inputs: [input], folderId: 987654 }, 400, 'folder not found'],
    [{ dashboard: { ...bad, title: '' }, inputs: [input] }, 400, 'Dashboard title cannot be empty'],
    [{ dashboard: { ...bad, uid: 'bad uid!' }, inputs: [input] }, 400, 'uid contains illegal characters'],
    [{ dashboard: { ...bad, __elements: { 'bad-lib': { ...bad.__elements['bad-lib'], kind: 9 } } }, inputs: [input] }, 400, 'the element kind is not supported'],
    // Two new elements of one name in one folder: each passes the dry run alone, the second's creation fails, and
    // the first is deleted again.
    [{
      dashboard: { ...bad, panels: [{ libraryPanel: { uid: 'twin-a' } }, { libraryPanel: { uid: 'twin-b' } }], __elements: { 'twin-a': { name: 'Twin', kind: 1, model: {} }, 'twin-b': { name: 'Twin', kind: 1, model: {} } } },
      inputs: [input],
    }, 400, 'library element with that name or UID already exists'],
    [{ dashboard: { ...bad, elements: {}, layout: { kind: 'GridLayout' } }, inputs: [input] }, 400, expect.stringContaining('v2 format')],
    [{ dashboard: bad, inputs: [input], pluginId: 'prometheus' }, 400, expect.stringContaining('plugin')],
  ] as const) {
    const res = await importDashboard(body);
    expect([JSON.stringify(body).slice(0, 80), res.status, res.body.message]).toEqual([JSON.stringify(body).slice(0, 80), status, message]);
  }
  // Taken uid: refused before the library panel is created.
  await importDashboard({ dashboard: exported('taken'), inputs: [input] });
  const [d1, e1] = [await dashboards(), await elements()];
  expect((await importDashboard({ dashboard: exported('taken', 'taken-lib-2'), inputs: [input] })).status).toBe(412);
  expect([await dashboards(), await elements()]).toEqual([d1, e1]);
  expect([d1, e1]).toEqual([d0 + 1, e0 + 1]);
});

it('needs dashboards:create: a Viewer is 403 and nothing is written; another org imports into its own', async () => {
  await createUser(t, 'import-viewer', { 1: 'Viewer' });
  const res = await as(t, 'import-viewer').post('/api/dashboards/import').send({ dashboard: exported('viewer-1'), inputs: [input] });
  expect(res.status).toBe(403);
  expect((await t.as.get('/api/library-elements/viewer-1-lib')).status).toBe(404);
  expect((await t.anonymous.post('/api/dashboards/import').send({ dashboard: exported('anon') })).status).toBe(401);

  const org = await t.users.createOrg(SYSTEM, 'Import elsewhere');
  await t.users.setRole(SYSTEM, org.id, 1, 'Admin');
  const other = await importDashboard({ dashboard: exported('imp-1'), inputs: [input] }).set('X-Svc-Org-Id', String(org.id));
  expect(other.status).toBe(200);
  expect((await t.as.get('/api/dashboards/uid/imp-1')).body.dashboard.title).toBe('Replaced');
});
