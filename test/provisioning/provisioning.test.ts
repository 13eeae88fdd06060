import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../pkg/log';
import { Provisioner, safeUidFromName } from '../../pkg/provisioning';
import { storedOrgs } from '../../pkg/registry';
import { startTestApp, type TestApp } from '../support/app';

/**
 * Provisioning from files (anchor-breadth §9, spec §4.11 reload): files written in a temporary folder, applied at
 * start and on reload, changed and deleted, with the stored objects checked through /api and /apis after each step.
 */
const DS = '/apis/datasource.svc.app/v1beta1/namespaces/default/datasources';
const DASH = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';

let t: TestApp;
let root: string;
let boards: string;
let kept: string;
let editable: string;

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const dashboard = (uid: string, title: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id: 99, uid, title, version: 7, panels: [], schemaVersion: 39, ...extra });

const dataSources = (url: string, more = '') => `apiVersion: 1
datasources:
  - name: Prom
    type: prometheus
    url: ${url}
    isDefault: true
    jsonData:
      httpMethod: POST
    secureJsonData:
      basicAuthPassword: \${PROM_PASSWORD}
  - name: Editable
    uid: editable-ds
    type: loki
    url: http://loki:3100
    editable: true
${more}`;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-provisioning-'));
  boards = path.join(root, 'boards');
  kept = path.join(root, 'kept');
  editable = path.join(root, 'editable');
  write(path.join(root, 'datasources', 'main.yaml'), dataSources('$PROM_URL'));
  write(
    path.join(root, 'dashboards', 'providers.yaml'),
    `apiVersion: 1
providers:
  - name: main
    folder: Provisioned
    updateIntervalSeconds: 1
    options:
      path: ${boards}
  - name: by-folder
    disableDeletion: true
    options:
      path: ${kept}
      foldersFromFilesStructure: true
  - name: editable
    allowUiUpdates: true
    options:
      path: ${editable}
`,
  );
  write(path.join(boards, 'a.json'), dashboard('prov-a', 'Provisioned A'));
  write(path.join(boards, 'nested', 'b.json'), dashboard('', 'No uid'));
  write(path.join(kept, 'team', 'k.json'), dashboard('prov-k', 'Kept'));
  write(path.join(editable, 'e.json'), dashboard('prov-e', 'Editable'));
  t = await startTestApp([`--paths.provisioning=${root}`], undefined, { env: { PROM_URL: 'http://prom:9090', PROM_PASSWORD: 'hunter2-secret' } });
  await t.provisioning.start();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('data sources', () => {
  const prom = safeUidFromName('Prom');

  it('are stored at start with interpolated values, the deterministic uid, readOnly unless editable', async () => {
    const res = await t.as.get(`/api/datasources/uid/${prom}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: prom, name: 'Prom', type: 'prometheus', url: 'http://prom:9090', isDefault: true, readOnly: true, jsonData: { httpMethod: 'POST' }, secureJsonFields: { basicAuthPassword: true } });
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect((await t.as.get('/api/datasources/uid/editable-ds')).body).toMatchObject({ name: 'Editable', readOnly: false, isDefault: false });
    const stored = (await t.as.get(`${DS}/${prom}`)).body;
    expect(stored.spec).toMatchObject({ readOnly: true, url: 'http://prom:9090' });
    expect(stored.metadata.annotations).toMatchObject({ 'svc.app/managedBy': 'classic-file-provisioning', 'svc.app/managerId': 'datasources' });
    expect(JSON.stringify(stored)).not.toContain('hunter2');
  });

  it('refuse changes from either API while provisioned, not the editable one', async () => {
    const put = await t.as.put(`/api/datasources/uid/${prom}`).send({ name: 'Prom', type: 'prometheus', access: 'proxy', url: 'http://other' });
    expect(put.status).toBe(403);
    expect(put.body.message).toBe('Cannot update read-only data source');
    expect((await t.as.delete(`/api/datasources/uid/${prom}`)).body.message).toBe('Cannot delete read-only data source');
    expect((await t.as.delete(`${DS}/${prom}`)).status).toBe(403);
    const ok = await t.as.put('/api/datasources/uid/editable-ds').send({ name: 'Editable', type: 'loki', access: 'proxy', url: 'http://loki:3101' });
    expect(ok.status).toBe(200);
  });

  it('a client cannot make its own data source look provisioned', async () => {
    const res = await t.as.post(DS).send({ metadata: { name: 'mine', annotations: { 'svc.app/managedBy': 'classic-file-provisioning', 'svc.app/managerId': 'datasources', note: 'x' } }, spec: { name: 'Mine', type: 'loki', url: 'http://loki:3100' } });
    expect(res.body.message).toBeUndefined();
    expect(res.status).toBe(201);
    expect(res.body.metadata.annotations['svc.app/managedBy']).toBeUndefined();
    expect(res.body.metadata.annotations.note).toBe('x');
  });

  it('reload applies a change, deleteDatasources and prune, and returns once stored', async () => {
    write(path.join(root, 'datasources', 'main.yaml'), `apiVersion: 1
prune: true
deleteDatasources:
  - name: Mine
datasources:
  - name: Prom
    type: prometheus
    url: http://prom:9191
    isDefault: true
`);
    const res = await t.as.post('/api/admin/provisioning/datasources/reload');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Datasources config reloaded' });
    expect((await t.as.get(`/api/datasources/uid/${prom}`)).body).toMatchObject({ url: 'http://prom:9191', readOnly: true, secureJsonFields: {} });
    // Pruned: provisioned and in no file any more. Deleted by deleteDatasources: a user's one, by name.
    expect((await t.as.get('/api/datasources/uid/editable-ds')).status).toBe(404);
    expect((await t.as.get(`${DS}/mine`)).status).toBe(404);
  });

  it('a reload of unchanged files writes nothing', async () => {
    const before = (await t.as.get(`${DS}/${prom}`)).body.metadata.resourceVersion;
    expect((await t.as.post('/api/admin/provisioning/datasources/reload')).status).toBe(200);
    expect((await t.as.get(`${DS}/${prom}`)).body.metadata.resourceVersion).toBe(before);
  });

  it('a bad file is a 400 naming the file and the field, and stores nothing of it', async () => {
    const file = path.join(root, 'datasources', 'main.yaml');
    write(file, dataSources('http://changed', '  - name: Broken\n'));
    const res = await t.as.post('/api/admin/provisioning/datasources/reload');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`${file}: datasources[2].type: required`);
    expect((await t.as.get(`/api/datasources/uid/${prom}`)).body.url).toBe('http://prom:9191');
    expect((await t.as.get('/api/datasources/uid/editable-ds')).status).toBe(404);
    write(file, 'datasources:\n  - {name: A, type: t, isDefault: true}\n  - {name: B, type: t, isDefault: true}\n');
    const twoDefaults = await t.as.post('/api/admin/provisioning/datasources/reload');
    expect(twoDefaults.status).toBe(400);
    expect(twoDefaults.body.message).toBe(`${file}: datasources[1].isDefault: datasource.yaml config is invalid. Only one datasource per organization can be marked as default`);
    write(file, 'datasources:\n  - name: Prom\n    type: prometheus\n    url: http://prom:9191\n    isDefault: true\n');
  });

  it('other organizations: a missing one is a 400 naming the field, an existing one gets its data source and no other org sees it', async () => {
    const file = path.join(root, 'datasources', 'org.yaml');
    write(file, 'apiVersion: 1\ndatasources:\n  - {name: Elsewhere, uid: elsewhere, type: loki, url: "http://loki:3100", orgId: 99}\n');
    const missing = await t.as.post('/api/admin/provisioning/datasources/reload');
    expect([missing.status, missing.body.message]).toEqual([400, `${file}: datasources[0].orgId: organization 99 not found`]);
    const org = (await t.as.post('/api/orgs').send({ name: 'Provisioned elsewhere' })).body.orgId;
    write(file, `apiVersion: 1\ndatasources:\n  - {name: Elsewhere, uid: elsewhere, type: loki, url: "http://loki:3100", orgId: ${org}}\n`);
    expect((await t.as.post('/api/admin/provisioning/datasources/reload')).status).toBe(200);
    expect((await t.as.get('/api/datasources/uid/elsewhere').set('X-Svc-Org-Id', String(org))).body).toMatchObject({ orgId: org, readOnly: true });
    expect((await t.as.get(`/apis/datasource.svc.app/v1beta1/namespaces/org-${org}/datasources/elsewhere`)).status).toBe(200);
    expect((await t.as.get('/api/datasources/uid/elsewhere')).status).toBe(404);
    // The file is gone and another one prunes: a restarted server (a provisioner that never saw that org's file)
    // finds the provisioned data source in every organization.
    fs.rmSync(file);
    const main = path.join(root, 'datasources', 'main.yaml');
    const before = fs.readFileSync(main, 'utf8');
    write(main, `prune: true\n${before}`);
    const restarted = new Provisioner(
      { registry: t.registry, orgs: storedOrgs(t.users), checksumKey: t.config.security.secret_key, orgIds: async () => (await t.users.listOrgs()).map((o) => o.id) },
      { root, cwd: root, sources: { env: {} }, exclusively: (name, fn) => t.storage.exclusively(name, fn), log: silentLogger },
    );
    await restarted.reloadDataSources();
    expect((await t.as.get('/api/datasources/uid/elsewhere').set('X-Svc-Org-Id', String(org))).status).toBe(404);
    expect((await t.as.get(`/api/datasources/uid/${safeUidFromName('Prom')}`)).status).toBe(200);
    write(main, before);
  });
});

describe('dashboards', () => {
  it('are stored at start in the provider\'s folder, marked provisioned in both APIs', async () => {
    const res = await t.as.get('/api/dashboards/uid/prov-a');
    expect(res.status).toBe(200);
    expect(res.body.dashboard).toMatchObject({ uid: 'prov-a', title: 'Provisioned A', version: 1 });
    expect(res.body.meta).toMatchObject({ provisioned: true, provisionedExternalId: 'a.json', folderTitle: 'Provisioned' });
    const stored = (await t.as.get(`${DASH}/prov-a`)).body;
    expect(stored.metadata.annotations).toMatchObject({ 'svc.app/managedBy': 'classic-file-provisioning', 'svc.app/managerId': 'main', 'svc.app/sourcePath': 'a.json', 'svc.app/folder': res.body.meta.folderUid });
    // A file without uid gets one every replica computes alike; sub-folders of a provider without
    // foldersFromFilesStructure go to its folder.
    const hits = (await t.as.get('/api/search?query=No uid')).body;
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ uid: expect.stringMatching(/^P[0-9A-F]{16}$/), folderTitle: 'Provisioned' });
    expect((await t.as.get(`/api/dashboards/uid/${hits[0].uid}`)).body.meta.provisionedExternalId).toBe('nested/b.json');
    // foldersFromFilesStructure: the sub-folder is a folder.
    expect((await t.as.get('/api/dashboards/uid/prov-k')).body.meta).toMatchObject({ provisioned: true, provisionedExternalId: 'team/k.json', folderTitle: 'team' });
  });

  it('refuse saves and deletes with the anchor\'s messages, through /api and /apis', async () => {
    const save = await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'prov-a', title: 'Mine now' }, overwrite: true });
    expect(save.status).toBe(400);
    expect(save.body.message).toBe('Cannot save provisioned dashboard');
    const del = await t.as.delete('/api/dashboards/uid/prov-a');
    expect(del.status).toBe(400);
    expect(del.body.message).toBe('provisioned dashboard cannot be deleted');
    const stored = (await t.as.get(`${DASH}/prov-a`)).body;
    const put = await t.as.put(`${DASH}/prov-a`).send({ ...stored, spec: { ...stored.spec, title: 'Mine now' } });
    expect(put.status).toBe(400);
    expect(put.body).toMatchObject({ kind: 'Status', message: 'Cannot save provisioned dashboard' });
    const patch = await t.as.patch(`${DASH}/prov-a`).set('Content-Type', 'application/merge-patch+json').send({ metadata: { annotations: { 'svc.app/managedBy': null } } });
    expect(patch.status).toBe(400);
    expect((await t.as.delete(`${DASH}/prov-a`)).body).toMatchObject({ kind: 'Status', code: 400, message: 'provisioned dashboard cannot be deleted' });
    expect((await t.as.get(`${DASH}/prov-a`)).body.spec.title).toBe('Provisioned A');
  });

  it('allowUiUpdates: saves work and the dashboard is not marked provisioned', async () => {
    expect((await t.as.get('/api/dashboards/uid/prov-e')).body.meta).toMatchObject({ provisioned: false, provisionedExternalId: 'e.json' });
    const save = await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'prov-e', title: 'Edited in the UI' }, overwrite: true });
    expect(save.status).toBe(200);
    expect((await t.as.delete('/api/dashboards/uid/prov-e')).body.message).toBe('provisioned dashboard cannot be deleted');
    // The file did not change: a reload leaves the UI's save.
    expect((await t.as.post('/api/admin/provisioning/dashboards/reload')).body).toEqual({ message: 'Dashboards config reloaded' });
    expect((await t.as.get('/api/dashboards/uid/prov-e')).body.dashboard.title).toBe('Edited in the UI');
    // The file changed: it overwrites.
    write(path.join(editable, 'e.json'), dashboard('prov-e', 'Editable 2'));
    expect((await t.as.post('/api/admin/provisioning/dashboards/reload')).status).toBe(200);
    expect((await t.as.get('/api/dashboards/uid/prov-e')).body.dashboard.title).toBe('Editable 2');
  });

  it('reload applies changed and deleted files; disableDeletion keeps a dashboard, no longer provisioned', async () => {
    write(path.join(boards, 'a.json'), dashboard('prov-a', 'Provisioned A, changed'));
    fs.rmSync(path.join(boards, 'nested'), { recursive: true });
    fs.rmSync(path.join(kept, 'team', 'k.json'));
    expect((await t.as.post('/api/admin/provisioning/dashboards/reload')).status).toBe(200);
    expect((await t.as.get('/api/dashboards/uid/prov-a')).body.dashboard).toMatchObject({ title: 'Provisioned A, changed', version: 2 });
    expect((await t.as.get('/api/search?query=No uid')).body).toEqual([]);
    const k = await t.as.get('/api/dashboards/uid/prov-k');
    expect(k.body.meta).toMatchObject({ provisioned: false, provisionedExternalId: '' });
    expect((await t.as.get(`${DASH}/prov-k`)).body.metadata.annotations['svc.app/managedBy']).toBeUndefined();
    expect((await t.as.delete('/api/dashboards/uid/prov-k')).status).toBe(200);
  });

  it('polls every updateIntervalSeconds', async () => {
    write(path.join(boards, 'polled.json'), dashboard('prov-polled', 'Polled'));
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await t.as.get('/api/dashboards/uid/prov-polled')).status;
    }
    expect(status).toBe(200);
  });

  it('a bad dashboard file is a 400 naming it, and nothing of the reload is stored', async () => {
    write(path.join(boards, 'a.json'), dashboard('prov-a', 'Would change'));
    write(path.join(boards, 'bad.json'), '{"title": ');
    const res = await t.as.post('/api/admin/provisioning/dashboards/reload');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`${path.join(boards, 'bad.json')}: invalid JSON`);
    write(path.join(boards, 'bad.json'), JSON.stringify({ uid: 'bad', panels: [] }));
    const untitled = await t.as.post('/api/admin/provisioning/dashboards/reload');
    expect(untitled.body.message).toBe(`${path.join(boards, 'bad.json')}: title: required`);
    expect((await t.as.get('/api/dashboards/uid/prov-a')).body.dashboard.title).toBe('Provisioned A, changed');
    fs.rmSync(path.join(boards, 'bad.json'));
    write(path.join(boards, 'a.json'), dashboard('prov-a', 'Provisioned A, changed'));
  });

  it('a provider removed from the configuration takes its dashboards with it', async () => {
    write(path.join(root, 'dashboards', 'providers.yaml'), `apiVersion: 1\nproviders:\n  - name: editable\n    allowUiUpdates: true\n    options:\n      path: ${editable}\n`);
    expect((await t.as.post('/api/admin/provisioning/dashboards/reload')).status).toBe(200);
    expect((await t.as.get('/api/dashboards/uid/prov-a')).status).toBe(404);
    expect((await t.as.get('/api/dashboards/uid/prov-e')).status).toBe(200);
  });
});

describe('the other reload routes', () => {
  it.each([
    ['plugins', 200, { message: 'Plugins config reloaded' }],
    ['alerting', 200, { message: 'Alerting config reloaded' }],
    ['notifications', 200, { message: 'Notifications config reloaded' }],
  ])('%s answers %i', async (type, status, body) => {
    const res = await t.as.post(`/api/admin/provisioning/${type}/reload`);
    expect({ status: res.status, body: res.body }).toEqual({ status, body });
  });

  it('access-control is the enterprise edition\'s: 404 here', async () => {
    expect((await t.as.post('/api/admin/provisioning/access-control/reload')).status).toBe(404);
  });
});
