/**
 * JSON patch (RFC 6902) through /apis for every kind, with kube-apiserver's answers; request-supplied managedFields
 * (kubectl's migration from client-side to server-side apply); kubectl's client-side apply over merge patch.
 */
import { allKinds } from '../../apis';
import type { KindRegistration } from '../../pkg/meta';
import { createRequired, sampleNames, samplesOf } from '../conformance/kind-samples';
import { startTestApp, type TestApp } from '../support/app';
import { PLAYLISTS } from '../support/paths';
import { JSON_PATCH, MERGE_PATCH } from '../../pkg/patch';
import { clientLabels } from '../support/labels';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const jsonPatch = (path: string, ops: unknown, query = '') => t.as.patch(`${path}${query}`).set('Content-Type', JSON_PATCH).send(JSON.stringify(ops));

describe.each(allKinds.map((k) => [`${k.kind} ${k.group}/${k.version}`, k] as const))('%s', (_label, kind: KindRegistration) => {
  const samples = samplesOf(kind);
  const base = `/apis/${kind.group}/${kind.version}/namespaces/default/${kind.plural}`;
  const staleCode = kind.plural === 'folders' ? 412 : 409;
  const n = sampleNames(kind, 800_000);
  beforeAll(() => createRequired(kind, (path, body) => t.as.post(path).send(body)));
  const create = async (name: string) => {
    const res = await t.as.post(base).send({ metadata: { name, labels: { a: '1' } }, spec: samples.spec(name) });
    expect(res.status).toBe(201);
    return res.body;
  };

  test('add, replace, remove, copy and move apply in order; a passing test op lets the patch through', async () => {
    const created = await create(n('jp-ok'));
    const res = await jsonPatch(`${base}/${n('jp-ok')}`, [
      { op: 'test', path: '/metadata/labels/a', value: '1' },
      { op: 'add', path: '/metadata/labels/b', value: '2' },
      { op: 'copy', from: '/metadata/labels/b', path: '/metadata/labels/c' },
      { op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/d' },
      { op: 'replace', path: '/metadata/labels/b', value: '3' },
      { op: 'remove', path: '/metadata/labels/c' },
      { op: 'replace', path: '/spec', value: samples.changed(n('jp-ok')) },
    ]);
    expect(res.status).toBe(200);
    expect(clientLabels(res.body.metadata.labels)).toEqual({ b: '3', d: '1' });
    expect(res.body.spec).toMatchObject(samples.changed(n('jp-ok')));
    expect(res.body.metadata.generation).toBe(2);
    expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect((await t.as.get(`${base}/${n('jp-ok')}`)).body).toEqual(res.body);
  });

  test('a failed test op is 422 Invalid, as kube answers, and stores nothing', async () => {
    const created = await create(n('jp-test'));
    const res = await jsonPatch(`${base}/${n('jp-test')}`, [
      { op: 'replace', path: '/spec', value: samples.changed(n('jp-test')) },
      { op: 'test', path: '/metadata/labels/a', value: '2' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, message: 'the server rejected our request due to an error in our request',
      details: { causes: [{ message: 'testing value /metadata/labels/a failed: test failed' }] },
    });
    expect((await t.as.get(`${base}/${n('jp-test')}`)).body).toEqual(created);
  });

  test('operations that do not apply are 422; bodies that are not operations are 400; nothing is stored', async () => {
    const created = await create(n('jp-bad'));
    const cases: [unknown, number, string][] = [
      [[{ op: 'replace', path: '/spec/nope/deeper', value: 1 }], 422, 'does not apply'],
      [[{ op: 'remove', path: '/metadata/labels/zzz' }], 422, 'doc is missing path'],
      [[{ op: 'jump', path: '/spec' }], 422, 'Unexpected kind: jump'],
      [[{ op: 'add', value: 1 }], 422, 'missing path'],
      [[{ op: 'add', path: '/spec/x' }], 422, 'missing value'],
      [{ op: 'add', path: '/spec/x', value: 1 }, 400, 'cannot unmarshal object into Go value of type []handlers.jsonPatchOp'],
      [[1], 400, 'cannot unmarshal number'],
      [[{ op: 'replace', path: '/spec', value: 'not an object' }], 422, 'spec'],
    ];
    for (const [ops, code, text] of cases) {
      const res = await jsonPatch(`${base}/${n('jp-bad')}`, ops);
      expect([JSON.stringify(ops), res.status]).toEqual([JSON.stringify(ops), code]);
      expect(`${res.body.message} ${JSON.stringify(res.body.details ?? {})}`).toContain(text);
    }
    expect((await t.as.get(`${base}/${n('jp-bad')}`)).body).toEqual(created);
  });

  test('metadata.resourceVersion set by a JSON patch is a precondition', async () => {
    const created = await create(n('jp-rv'));
    const fresh = await jsonPatch(`${base}/${n('jp-rv')}`, [
      { op: 'replace', path: '/metadata/resourceVersion', value: created.metadata.resourceVersion },
      { op: 'add', path: '/metadata/labels/b', value: '2' },
    ]);
    expect(fresh.status).toBe(200);
    const stale = await jsonPatch(`${base}/${n('jp-rv')}`, [
      { op: 'replace', path: '/metadata/resourceVersion', value: created.metadata.resourceVersion },
      { op: 'add', path: '/metadata/labels/c', value: '3' },
    ]);
    expect(stale.status).toBe(staleCode);
    expect((await t.as.get(`${base}/${n('jp-rv')}`)).body).toEqual(fresh.body);
  });

  test('dryRun=All answers the patched object and stores nothing', async () => {
    const created = await create(n('jp-dry'));
    const res = await jsonPatch(`${base}/${n('jp-dry')}`, [{ op: 'add', path: '/metadata/labels/b', value: '2' }], '?dryRun=All');
    expect(res.status).toBe(200);
    expect(clientLabels(res.body.metadata.labels)).toEqual({ a: '1', b: '2' });
    expect((await t.as.get(`${base}/${n('jp-dry')}`)).body).toEqual(created);
  });
});

test('more than 10000 operations is 413', async () => {
  await t.as.post(PLAYLISTS).send({ metadata: { name: 'many' }, spec: { title: 'x', interval: '5m', items: [] } });
  const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/spec/title', value: 'x' }));
  const res = await jsonPatch(`${PLAYLISTS}/many`, ops);
  expect(res.status).toBe(413);
  expect(res.body.message).toBe('Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
});

test('force is only for apply patches; an unknown patch type is 415 listing the three supported', async () => {
  await t.as.post(PLAYLISTS).send({ metadata: { name: 'opts' }, spec: { title: 'x', interval: '5m', items: [] } });
  const forced = await jsonPatch(`${PLAYLISTS}/opts`, [], '?force=true');
  expect(forced.status).toBe(422);
  expect(forced.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  const other = await t.as.patch(`${PLAYLISTS}/opts`).set('Content-Type', 'application/x-yaml').send('a: 1');
  expect(other.status).toBe(415);
  expect(other.body.message).toBe(
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
  );
});

describe('managedFields a request sets', () => {
  test('replace the stored ones (kubectl migrates client-side apply this way, with a resourceVersion precondition)', async () => {
    const created = await t.as.post(`${PLAYLISTS}?fieldManager=kubectl-client-side-apply`).send({ metadata: { name: 'mig' }, spec: { title: 'x', interval: '5m', items: [] } });
    const [csa] = created.body.metadata.managedFields;
    expect(csa).toMatchObject({ manager: 'kubectl-client-side-apply', operation: 'Update' });
    const migrated = [{ ...csa, manager: 'kubectl', operation: 'Apply' }];
    const ops = [
      { op: 'replace', path: '/metadata/managedFields', value: migrated },
      { op: 'replace', path: '/metadata/resourceVersion', value: created.body.metadata.resourceVersion },
    ];
    const res = await jsonPatch(`${PLAYLISTS}/mig`, ops, '?fieldManager=kubectl');
    expect(res.status).toBe(200);
    expect(res.body.metadata.managedFields).toEqual(migrated);
    expect(res.body.metadata.resourceVersion).not.toBe(created.body.metadata.resourceVersion);
    // The same migration from a stale read is refused and changes nothing.
    const stale = await jsonPatch(`${PLAYLISTS}/mig`, ops, '?fieldManager=kubectl');
    expect(stale.status).toBe(409);
    expect((await t.as.get(`${PLAYLISTS}/mig`)).body).toEqual(res.body);
  });

  test('[{}] clears them; absent or malformed ones keep the stored ones', async () => {
    const created = (await t.as.post(PLAYLISTS).send({ metadata: { name: 'mf' }, spec: { title: 'x', interval: '5m', items: [] } })).body;
    const { managedFields, ...metadata } = created.metadata;
    const put = await t.as.put(`${PLAYLISTS}/mf`).send({ ...created, metadata: { ...metadata, labels: { a: '1' } } });
    expect(put.status).toBe(200);
    expect(put.body.metadata.managedFields).toEqual([expect.objectContaining({ manager: managedFields[0].manager, fieldsV1: expect.objectContaining({ 'f:metadata': expect.anything() }) })]);
    const malformed = await t.as
      .patch(`${PLAYLISTS}/mf?fieldManager=labeller`)
      .set('Content-Type', MERGE_PATCH)
      .send(JSON.stringify({ metadata: { managedFields: [{ manager: 'x', operation: 'Sideways' }], labels: { b: '2' } } }));
    expect(malformed.status).toBe(200);
    expect(malformed.body.metadata.managedFields.map((e: { manager: string }) => e.manager).sort()).toEqual(['labeller', managedFields[0].manager].sort());
    const cleared = await t.as.patch(`${PLAYLISTS}/mf`).set('Content-Type', MERGE_PATCH).send(JSON.stringify({ metadata: { managedFields: [{}] } }));
    expect(cleared.status).toBe(200);
    expect(cleared.body.metadata.managedFields).toBeUndefined();
    // An untracked object stays untracked, as in kube.
    const later = await t.as.patch(`${PLAYLISTS}/mf`).set('Content-Type', MERGE_PATCH).send(JSON.stringify({ spec: { title: 'y' } }));
    expect(later.body.metadata.managedFields).toBeUndefined();
    expect(managedFields).toHaveLength(1);
  });
});

test("kubectl's client-side apply: POST with the last-applied annotation, then merge patches as kubectl-client-side-apply", async () => {
  const v1 = { apiVersion: 'playlist.svc.app/v1', kind: 'Playlist', metadata: { name: 'csa' }, spec: { title: 'One', interval: '5m', items: [] } };
  const missing = await t.as.get(`${PLAYLISTS}/csa`);
  expect(missing.status).toBe(404);
  const created = await t.as
    .post(`${PLAYLISTS}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`)
    .send({ ...v1, metadata: { ...v1.metadata, annotations: { [LAST_APPLIED]: JSON.stringify(v1) } } });
  expect(created.status).toBe(201);
  const v2 = { ...v1, spec: { ...v1.spec, title: 'Two' } };
  const patch = { metadata: { annotations: { [LAST_APPLIED]: JSON.stringify(v2) } }, spec: { title: 'Two' } };
  const res = await t.as.patch(`${PLAYLISTS}/csa?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`).set('Content-Type', MERGE_PATCH).send(JSON.stringify(patch));
  expect(res.status).toBe(200);
  expect(res.body.spec.title).toBe('Two');
  expect(res.body.metadata.annotations[LAST_APPLIED]).toBe(JSON.stringify(v2));
  expect(res.body.metadata.generation).toBe(2);
  expect(res.body.metadata.managedFields).toEqual([
    expect.objectContaining({
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      fieldsV1: {
        'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST_APPLIED}`]: {} } },
        'f:spec': { '.': {}, 'f:interval': {}, 'f:items': {}, 'f:title': {} },
      },
    }),
  ]);
});
