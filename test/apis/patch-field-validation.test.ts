/**
 * `fieldValidation=Strict|Warn|Ignore` on create, update and patch: unknown fields (at the top, in metadata, in the
 * spec of kinds that do not preserve them) and duplicate JSON members, as kube-apiserver reports them for CRDs.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, PLAYLISTS } from '../support/paths';
import { JSON_PATCH, MERGE_PATCH } from '../../pkg/patch';
import { warnings } from '../support/warnings';


let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A playlist body as raw JSON text, with an unknown member at each level and duplicate members. */
const invalidBody = (name: string, rv?: string) => `{
  "apiVersion": "playlist.svc.app/v1", "kind": "Playlist", "extra": 1,
  "metadata": {"name": "${name}", "colour": "red"${rv ? `, "resourceVersion": "${rv}"` : ''}},
  "spec": {"title": "one", "title": "two", "interval": "5m", "unknown1": "x",
           "items": [{"type": "dashboard_by_tag", "value": "ops", "unknownNested": true}]}
}`;
const PROBLEMS = [
  'duplicate field "title"',
  'unknown field "extra"',
  'unknown field "metadata.colour"',
  'unknown field "spec.items[0].unknownNested"',
  'unknown field "spec.unknown1"',
];
const post = (query: string, text: string) => t.as.post(`${PLAYLISTS}${query}`).set('Content-Type', 'application/json').send(text);
const stored = async (name: string) => (await t.storage.get({ group: 'playlist.svc.app', resource: 'playlists', namespace: 'default', name }))?.value as { spec: unknown } | undefined;

describe('create', () => {
  test('Strict: 400 with every problem, kube order (duplicates, then unknown fields sorted); nothing stored', async () => {
    const res = await post('?fieldValidation=Strict', invalidBody('fv-strict'));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: `strict decoding error: ${PROBLEMS.join(', ')}` });
    expect((await t.as.get(`${PLAYLISTS}/fv-strict`)).status).toBe(404);
  });

  test('Warn, the default: created, one Warning header per problem, unknown fields dropped', async () => {
    for (const [name, query] of [['fv-warn', '?fieldValidation=Warn'], ['fv-default', '']]) {
      const res = await post(query, invalidBody(name));
      expect(res.status).toBe(201);
      expect(warnings(res)).toEqual(PROBLEMS);
      expect(res.body.spec).toEqual({ title: 'two', interval: '5m', items: [{ type: 'dashboard_by_tag', value: 'ops' }] });
      expect((await stored(name))!.spec).toEqual(res.body.spec);
    }
  });

  test('Ignore: created silently, unknown fields still dropped', async () => {
    const res = await post('?fieldValidation=Ignore', invalidBody('fv-ignore'));
    expect(res.status).toBe(201);
    expect(warnings(res)).toEqual([]);
    expect(res.body.spec).not.toHaveProperty('unknown1');
  });

  test('a dashboard spec preserves unknown fields: only the envelope and metadata are checked', async () => {
    const text = '{"metadata": {"name": "fv-dash"}, "spec": {"title": "x", "anything": {"goes": 1}, "panels": [{"custom": 1}]}}';
    const res = await t.as.post(`${DASHBOARDS}?fieldValidation=Strict`).set('Content-Type', 'application/json').send(text);
    expect(res.status).toBe(201);
    expect(res.body.spec).toMatchObject({ anything: { goes: 1 }, panels: [{ custom: 1 }] });
    const dup = await t.as.post(`${DASHBOARDS}?fieldValidation=Strict`).set('Content-Type', 'application/json').send('{"metadata": {"name": "fv-dash2"}, "spec": {"title": "x", "a": 1, "a": 2}}');
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe('strict decoding error: duplicate field "a"');
  });

  test('an unsupported fieldValidation value is 422 in kube words', async () => {
    const res = await post('?fieldValidation=Loose', invalidBody('fv-bad'));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"');
    expect((await t.as.get(`${PLAYLISTS}/fv-bad`)).status).toBe(404);
  });
});

describe('update', () => {
  test('Strict refuses and keeps the object; Warn writes without the unknown fields', async () => {
    const created = (await post('', '{"metadata": {"name": "fv-put"}, "spec": {"title": "t", "interval": "5m"}}')).body;
    const strict = await t.as.put(`${PLAYLISTS}/fv-put?fieldValidation=Strict`).set('Content-Type', 'application/json').send(invalidBody('fv-put', created.metadata.resourceVersion));
    expect(strict.status).toBe(400);
    expect(strict.body.message).toBe(`strict decoding error: ${PROBLEMS.join(', ')}`);
    expect((await t.as.get(`${PLAYLISTS}/fv-put`)).body).toEqual(created);
    const warn = await t.as.put(`${PLAYLISTS}/fv-put`).set('Content-Type', 'application/json').send(invalidBody('fv-put', created.metadata.resourceVersion));
    expect(warn.status).toBe(200);
    expect(warnings(warn)).toEqual(PROBLEMS);
    expect(warn.body.spec.title).toBe('two');
    const invalid = await t.as.put(`${PLAYLISTS}/fv-put?fieldValidation=Nope`).send(warn.body);
    expect(invalid.body.message).toContain('UpdateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Nope"');
  });
});

describe('patch', () => {
  const seed = async (name: string) => (await post('', `{"metadata": {"name": "${name}"}, "spec": {"title": "t", "interval": "5m"}}`)).body;

  test('merge patch: duplicates in the patch and unknown fields of the result; Strict is 422 on field "patch"', async () => {
    const created = await seed('fv-merge');
    const patch = '{"spec": {"interval": "1m", "interval": "2m", "unknown1": "x"}}';
    const strict = await t.as.patch(`${PLAYLISTS}/fv-merge?fieldValidation=Strict`).set('Content-Type', MERGE_PATCH).send(patch);
    expect(strict.status).toBe(422);
    expect(strict.body.reason).toBe('Invalid');
    expect(strict.body.message).toMatch(/^Playlist\.playlist\.svc\.app "fv-merge" is invalid: patch: Invalid value: ".*": strict decoding error: duplicate field "interval", unknown field "spec.unknown1"$/s);
    expect((await t.as.get(`${PLAYLISTS}/fv-merge`)).body).toEqual(created);
    const warn = await t.as.patch(`${PLAYLISTS}/fv-merge`).set('Content-Type', MERGE_PATCH).send(patch);
    expect(warn.status).toBe(200);
    expect(warnings(warn)).toEqual(['duplicate field "interval"', 'unknown field "spec.unknown1"']);
    expect(warn.body.spec).toEqual({ title: 't', interval: '2m', items: [] });
  });

  test('JSON patch: unknown and duplicate members of operations, unknown fields of the result', async () => {
    const created = await seed('fv-json');
    const ops = '[{"op": "add", "path": "/spec/unknown1", "value": 1, "foo": "bar"}, {"op": "replace", "path": "/spec/x", "path": "/spec/title", "value": "new"}]';
    const strict = await t.as.patch(`${PLAYLISTS}/fv-json?fieldValidation=Strict`).set('Content-Type', JSON_PATCH).send(ops);
    expect(strict.status).toBe(422);
    expect(strict.body.message).toContain('strict decoding error: json patch unknown field "foo", json patch duplicate field "path", unknown field "spec.unknown1"');
    expect((await t.as.get(`${PLAYLISTS}/fv-json`)).body).toEqual(created);
    const ignore = await t.as.patch(`${PLAYLISTS}/fv-json?fieldValidation=Ignore`).set('Content-Type', JSON_PATCH).send(ops);
    expect(ignore.status).toBe(200);
    expect(warnings(ignore)).toEqual([]);
    expect(ignore.body.spec).toEqual({ title: 'new', interval: '5m', items: [] });
  });

  test('an unsupported fieldValidation value is 422 against PatchOptions', async () => {
    await seed('fv-opt');
    const res = await t.as.patch(`${PLAYLISTS}/fv-opt?fieldValidation=x`).set('Content-Type', MERGE_PATCH).send('{}');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "x": supported values: "", "Ignore", "Strict", "Warn"');
  });
});
