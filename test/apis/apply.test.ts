/**
 * Server-side apply (`application/apply-patch+yaml`) through /apis: creation, ownership in managedFields, conflicts
 * in kube's words, force, removal of dropped fields, dryRun, validation of the configuration, and kubectl's way from
 * client-side to server-side apply.
 */
import { allKinds } from '../../apis';
import type { KindRegistration } from '../../pkg/meta';
import { createRequired, sampleNames, samplesOf } from '../conformance/kind-samples';
import { startTestApp, type TestApp } from '../support/app';
import { FOLDERS, PLAYLISTS } from '../support/paths';
import { clientLabels } from '../support/labels';
import { warnings } from '../support/warnings';

const APPLY = 'application/apply-patch+yaml';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const apply = (path: string, body: unknown, query = 'fieldManager=kubectl') =>
  t.as.patch(`${path}${query ? `?${query}` : ''}`).set('Content-Type', APPLY).send(typeof body === 'string' ? body : JSON.stringify(body));

const playlist = (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'playlist.svc.app/v1',
  kind: 'Playlist',
  metadata: { name, ...metadata },
  spec: { interval: '5m', items: [], ...spec },
});

const snapshot = async (path: string) => (await t.as.get(path)).body;

describe.each(allKinds.map((k) => [`${k.kind} ${k.group}/${k.version}`, k] as const))('%s', (_label, kind: KindRegistration) => {
  const samples = samplesOf(kind);
  const base = `/apis/${kind.group}/${kind.version}/namespaces/default/${kind.plural}`;
  const config = (name: string, spec: unknown) => ({ apiVersion: `${kind.group}/${kind.version}`, kind: kind.kind, metadata: { name, labels: { app: 'x' } }, spec });
  const n = sampleNames(kind, 900_000);
  const ssa = n('ssa-1');
  const bad = n('ssa-bad');
  beforeAll(() => createRequired(kind, (path, body) => t.as.post(path).send(body)));

  test('apply creates the object (201), owned by the applier, and applies changes to it', async () => {
    const created = await apply(`${base}/${ssa}`, config(ssa, samples.spec(ssa)));
    expect(created.status).toBe(201);
    expect(created.body.metadata).toMatchObject({ name: ssa, generation: 1, labels: { app: 'x' } });
    expect(created.body.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'kubectl', operation: 'Apply', apiVersion: `${kind.group}/${kind.version}`, fieldsType: 'FieldsV1' }),
    ]);
    expect(created.body.metadata.managedFields[0].fieldsV1['f:metadata']).toEqual({ 'f:labels': { 'f:app': {} } });
    expect((await t.as.get(`${base}/${ssa}`)).body).toEqual(created.body);

    const again = await apply(`${base}/${ssa}`, config(ssa, samples.spec(ssa)));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);

    const changed = await apply(`${base}/${ssa}`, config(ssa, samples.changed(ssa)));
    expect(changed.status).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
    expect(changed.body.spec).toMatchObject(samples.changed(ssa));
  });

  test('an invalid configuration is 422 and stores nothing', async () => {
    const res = await apply(`${base}/${bad}`, config(bad, samples.invalid));
    expect(res.status).toBe(422);
    expect(res.body.details.causes.map((c: { field: string }) => c.field)).toContain(samples.invalidField);
    expect((await t.as.get(`${base}/${bad}`)).status).toBe(404);
  });
});

describe('options and configuration', () => {
  test('fieldManager is required (422 in kube words), and nothing is stored', async () => {
    const res = await apply(`${PLAYLISTS}/no-manager`, playlist('no-manager', { title: 'x' }), '');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: 'Status', reason: 'Invalid', code: 422,
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      details: { group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' }] },
    });
    expect((await t.as.get(`${PLAYLISTS}/no-manager`)).status).toBe(404);
  });

  test('YAML and JSON bodies are both applied', async () => {
    const yaml = 'apiVersion: playlist.svc.app/v1\nkind: Playlist\nmetadata:\n  name: yaml-1\nspec:\n  title: From YAML\n  interval: 10m\n  items:\n  - type: dashboard_by_tag\n    value: ops\n';
    const res = await apply(`${PLAYLISTS}/yaml-1`, yaml);
    expect(res.status).toBe(201);
    expect(res.body.spec).toEqual({ title: 'From YAML', interval: '10m', items: [{ type: 'dashboard_by_tag', value: 'ops' }] });
    const json = await apply(`${PLAYLISTS}/yaml-1`, playlist('yaml-1', { title: 'From JSON', interval: '10m', items: [{ type: 'dashboard_by_tag', value: 'ops' }] }));
    expect(json.status).toBe(200);
    expect(json.body.spec.title).toBe('From JSON');
  });

  test('configurations kube refuses are 400 and store nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['wrong apiVersion', { ...playlist('bad-1', { title: 'x' }), apiVersion: 'playlist.svc.app/v2' }, 'Incorrect version specified in apply patch. Specified patch version: playlist.svc.app/v2, expected: playlist.svc.app/v1'],
      ['no apiVersion', { ...playlist('bad-1', { title: 'x' }), apiVersion: undefined }, 'Specified patch version: , expected: playlist.svc.app/v1'],
      ['managedFields', playlist('bad-1', { title: 'x' }, { managedFields: [] }), 'metadata.managedFields must be nil'],
      ['unknown spec field', playlist('bad-1', { title: 'x', colour: 'red' }), 'failed to create typed patch object (default/bad-1; playlist.svc.app/v1, Kind=Playlist): .spec.colour: field not declared in schema'],
      ['unknown metadata field', playlist('bad-1', { title: 'x' }, { colour: 'red' }), '.metadata.colour: field not declared in schema'],
      ['not YAML', 'a: [1\nb', 'error decoding YAML'],
      ['a list', '- 1\n- 2', 'error decoding YAML'],
      ['other name', playlist('bad-2', { title: 'x' }), 'does not match the name on the URL'],
    ];
    for (const [label, body, text] of cases) {
      const res = await apply(`${PLAYLISTS}/bad-1`, body);
      expect([label, res.status]).toEqual([label, 400]);
      expect([label, res.body.message]).toEqual([label, expect.stringContaining(text)]);
    }
    expect((await t.as.get(`${PLAYLISTS}/bad-1`)).status).toBe(404);
  });

  test('dashboards are free-form: unknown spec fields are applied and kept', async () => {
    const base = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';
    const res = await apply(`${base}/free`, { apiVersion: 'dashboard.svc.app/v1beta1', kind: 'Dashboard', metadata: { name: 'free' }, spec: { title: 'x', custom: { a: 1 } } });
    expect(res.status).toBe(201);
    expect(res.body.spec.custom).toEqual({ a: 1 });
    expect(res.body.metadata.managedFields[0].fieldsV1['f:spec']).toEqual({ 'f:custom': { 'f:a': {} }, 'f:title': {} });
  });

  test('duplicate keys: Strict is 400, Warn (the default) a Warning per key, Ignore silent', async () => {
    const yaml = 'apiVersion: playlist.svc.app/v1\nkind: Playlist\nmetadata:\n  name: dup\nspec:\n  title: one\n  title: two\n  interval: 5m\n  interval: 6m\n';
    const strict = await apply(`${PLAYLISTS}/dup`, yaml, 'fieldManager=kubectl&fieldValidation=Strict');
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(
      'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "title" already set in map\n  line 9: key "interval" already set in map',
    );
    expect((await t.as.get(`${PLAYLISTS}/dup`)).status).toBe(404);
    const warn = await apply(`${PLAYLISTS}/dup`, yaml);
    expect(warn.status).toBe(201);
    expect(warnings(warn)).toEqual(['line 7: key "title" already set in map', 'line 9: key "interval" already set in map']);
    expect(warn.body.spec).toMatchObject({ title: 'two', interval: '6m' });
    const ignore = await apply(`${PLAYLISTS}/dup`, yaml, 'fieldManager=kubectl&fieldValidation=Ignore');
    expect(ignore.status).toBe(200);
    expect(warnings(ignore)).toEqual([]);
  });

  test('dryRun=All: an apply that would create or change answers so and stores nothing', async () => {
    const create = await apply(`${PLAYLISTS}/dry`, playlist('dry', { title: 'x' }), 'fieldManager=kubectl&dryRun=All');
    expect(create.status).toBe(201);
    expect(create.body.metadata.name).toBe('dry');
    expect((await t.as.get(`${PLAYLISTS}/dry`)).status).toBe(404);
    await apply(`${PLAYLISTS}/dry`, playlist('dry', { title: 'x' }));
    const before = await snapshot(`${PLAYLISTS}/dry`);
    const change = await apply(`${PLAYLISTS}/dry`, playlist('dry', { title: 'y' }), 'fieldManager=kubectl&dryRun=All');
    expect(change.status).toBe(200);
    expect(change.body.spec.title).toBe('y');
    expect(await snapshot(`${PLAYLISTS}/dry`)).toEqual(before);
  });

  test('metadata.resourceVersion in the configuration is a precondition', async () => {
    const first = await apply(`${PLAYLISTS}/rv`, playlist('rv', { title: 'x' }));
    const second = await apply(`${PLAYLISTS}/rv`, playlist('rv', { title: 'y' }, { resourceVersion: first.body.metadata.resourceVersion }));
    expect(second.status).toBe(200);
    const stale = await apply(`${PLAYLISTS}/rv`, playlist('rv', { title: 'z' }, { resourceVersion: first.body.metadata.resourceVersion }));
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('the object has been modified');
    expect((await snapshot(`${PLAYLISTS}/rv`)).spec.title).toBe('y');
  });
});

describe('ownership', () => {
  test('changing a field another manager set is a 409 conflict that stores nothing; force takes the field', async () => {
    await t.as.post(`${PLAYLISTS}?fieldManager=editor`).send(playlist('own-1', { title: 'Edited' }));
    const before = await snapshot(`${PLAYLISTS}/own-1`);
    const res = await apply(`${PLAYLISTS}/own-1`, playlist('own-1', { title: 'Applied' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409,
      message: 'Apply failed with 1 conflict: conflict with "editor" using playlist.svc.app/v1: .spec.title',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "editor" using playlist.svc.app/v1', field: '.spec.title' }] },
    });
    expect(await snapshot(`${PLAYLISTS}/own-1`)).toEqual(before);

    // The same values are no conflict: both managers own them.
    const shared = await apply(`${PLAYLISTS}/own-1`, playlist('own-1', { title: 'Edited' }));
    expect(shared.status).toBe(200);
    expect(shared.body.metadata.managedFields.map((e: { manager: string; operation: string }) => [e.manager, e.operation])).toEqual([
      ['kubectl', 'Apply'],
      ['editor', 'Update'],
    ]);

    const forced = await apply(`${PLAYLISTS}/own-1`, playlist('own-1', { title: 'Applied' }), 'fieldManager=kubectl&force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.spec.title).toBe('Applied');
    const editor = forced.body.metadata.managedFields.find((e: { manager: string }) => e.manager === 'editor');
    expect(editor.fieldsV1['f:spec']).not.toHaveProperty('f:title');
    const kubectl = forced.body.metadata.managedFields.find((e: { manager: string }) => e.manager === 'kubectl');
    expect(kubectl.fieldsV1['f:spec']).toHaveProperty('f:title');
  });

  test('several conflicts are listed per manager, in kube words', async () => {
    await apply(`${PLAYLISTS}/own-2`, playlist('own-2', { title: 'A', interval: '1m' }), 'fieldManager=alice');
    const res = await apply(`${PLAYLISTS}/own-2`, playlist('own-2', { title: 'B', interval: '2m' }), 'fieldManager=bob');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.interval\n- .spec.title');
    expect(res.body.details.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.interval' },
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.title' },
    ]);
  });

  test('fields the applier stops applying are removed, unless another manager owns them', async () => {
    const folder = (spec: Record<string, unknown>, labels: Record<string, string>) => ({ apiVersion: 'folder.svc.app/v1beta1', kind: 'Folder', metadata: { name: 'own-3', labels }, spec });
    await apply(`${FOLDERS}/own-3`, folder({ title: 'T', description: 'D' }, { a: '1', b: '2' }));
    const dropped = await apply(`${FOLDERS}/own-3`, folder({ title: 'T' }, { a: '1' }));
    expect(dropped.status).toBe(200);
    expect(dropped.body.spec).toEqual({ title: 'T' });
    expect(clientLabels(dropped.body.metadata.labels)).toEqual({ a: '1' });

    await apply(`${FOLDERS}/own-3`, folder({ title: 'T', description: 'D' }, { a: '1' }));
    // A second applier sets the same description: it owns it too.
    await apply(`${FOLDERS}/own-3`, folder({ title: 'T', description: 'D' }, {}), 'fieldManager=other');
    const kept = await apply(`${FOLDERS}/own-3`, folder({ title: 'T' }, { a: '1' }));
    expect(kept.body.spec).toEqual({ title: 'T', description: 'D' });
  });

  test('lists are atomic: applying a list replaces it and owns it whole', async () => {
    await apply(`${PLAYLISTS}/own-4`, playlist('own-4', { title: 'x', items: [{ type: 'dashboard_by_uid', value: 'a' }, { type: 'dashboard_by_uid', value: 'b' }] }));
    const res = await apply(`${PLAYLISTS}/own-4`, playlist('own-4', { title: 'x', items: [{ type: 'dashboard_by_uid', value: 'c' }] }));
    expect(res.body.spec.items).toEqual([{ type: 'dashboard_by_uid', value: 'c' }]);
    expect(res.body.metadata.managedFields[0].fieldsV1['f:spec']).toEqual({ 'f:interval': {}, 'f:items': {}, 'f:title': {} });
  });
});

test("kubectl: client-side apply, the managedFields migration, then server-side apply", async () => {
  const v1 = playlist('kubectl-1', { title: 'One', interval: '5m' }, { labels: { team: 'a', tier: '1' } });
  // kubectl apply (client-side): GET 404, then POST with the last-applied annotation.
  expect((await t.as.get(`${PLAYLISTS}/kubectl-1`)).status).toBe(404);
  const created = await t.as
    .post(`${PLAYLISTS}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`)
    .send({ ...v1, metadata: { ...v1.metadata, annotations: { [LAST_APPLIED]: JSON.stringify(v1) } } });
  expect(created.status).toBe(201);

  // kubectl apply --server-side: the client-side manager's fields move to an Apply entry of "kubectl"
  // (without the annotation), by a JSON patch with a resourceVersion precondition.
  const [csa] = created.body.metadata.managedFields;
  const { [`f:${LAST_APPLIED}`]: _annotation, ...annotations } = csa.fieldsV1['f:metadata']['f:annotations'];
  const fieldsV1 = { ...csa.fieldsV1, 'f:metadata': { ...csa.fieldsV1['f:metadata'], 'f:annotations': annotations } };
  const migration = await t.as
    .patch(`${PLAYLISTS}/kubectl-1?fieldManager=kubectl`)
    .set('Content-Type', 'application/json-patch+json')
    .send(
      JSON.stringify([
        { op: 'replace', path: '/metadata/managedFields', value: [{ ...csa, manager: 'kubectl', operation: 'Apply', fieldsV1 }] },
        { op: 'replace', path: '/metadata/resourceVersion', value: created.body.metadata.resourceVersion },
      ]),
    );
  expect(migration.status).toBe(200);

  // The applied file drops label tier and changes the title: no conflict, tier goes, last-applied follows.
  const v2 = playlist('kubectl-1', { title: 'Two', interval: '5m' }, { labels: { team: 'a' } });
  const res = await apply(`${PLAYLISTS}/kubectl-1`, v2, 'fieldManager=kubectl&force=false&fieldValidation=Strict');
  expect(res.status).toBe(200);
  expect(res.body.spec.title).toBe('Two');
  expect(clientLabels(res.body.metadata.labels)).toEqual({ team: 'a' });
  expect(JSON.parse(res.body.metadata.annotations[LAST_APPLIED])).toEqual(v2);
  expect(res.body.metadata.managedFields.map((e: { manager: string; operation: string }) => [e.manager, e.operation])).toEqual([['kubectl', 'Apply']]);
});
