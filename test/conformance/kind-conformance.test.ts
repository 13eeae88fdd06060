/**
 * The kind conformance suite: the registry's semantics, through HTTP, for every registered kind.
 * Kind-specific behaviour (folders, dashboard dto...) has its own suites; this one holds for all.
 */
import { clientLabels } from '../support/labels';
import { allKinds } from '../../apis';
import type { KindRegistration } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';
import { kindSamples } from '../fixtures/kind-samples';
import { RFC3339 } from '../support/paths';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('every registered kind has conformance samples', () => {
  for (const k of allKinds) expect(Object.keys(kindSamples)).toContain(`${k.group}/${k.plural}`);
});

describe.each(allKinds.map((k) => [`${k.kind} ${k.group}/${k.version}`, k] as const))('%s', (_label, kind: KindRegistration) => {
  const samples = kindSamples[`${kind.group}/${kind.plural}`];
  const base = `/apis/${kind.group}/${kind.version}/namespaces/default/${kind.plural}`;
  const qualified = `${kind.plural}.${kind.group}`;
  const body = (name: string, spec = samples.spec, metadata: Record<string, unknown> = {}) => ({
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    metadata: { name, ...metadata },
    spec,
  });
  const create = async (name: string, metadata: Record<string, unknown> = {}) => {
    const res = await t.as.post(base).send(body(name, samples.spec, metadata));
    expect(res.status).toBe(201);
    return res.body;
  };
  /** The collection's state, to prove a failed request stored nothing. */
  const snapshot = async () => (await t.as.get(base)).body as { metadata: { resourceVersion: string }; items: unknown[] };

  test('create returns the full envelope with every system field set by the server', async () => {
    const res = await t.as.post(`${base}?fieldManager=conformance`).send(body('env-1', samples.spec, { uid: 'mine', generation: 9, creationTimestamp: '2001-01-01T00:00:00Z' }));
    expect(res.status).toBe(201);
    const o = res.body;
    expect(o.apiVersion).toBe(`${kind.group}/${kind.version}`);
    expect(o.kind).toBe(kind.kind);
    expect(o.metadata.name).toBe('env-1');
    expect(o.metadata.namespace).toBe('default');
    expect(o.metadata.uid).toMatch(UUID);
    expect(o.metadata.uid).not.toBe('env-1');
    expect(o.metadata.resourceVersion).toMatch(/^[1-9][0-9]*$/);
    expect(o.metadata.generation).toBe(1);
    expect(o.metadata.creationTimestamp).toMatch(RFC3339);
    expect(o.metadata.creationTimestamp).not.toBe('2001-01-01T00:00:00Z');
    expect(o.metadata.annotations['svc.app/createdBy']).toBe('user:admin');
    expect(o.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'conformance', operation: 'Update', apiVersion: o.apiVersion, fieldsType: 'FieldsV1', time: expect.stringMatching(RFC3339) }),
    ]);
    expect(o.metadata.managedFields[0].fieldsV1['f:spec']).toBeDefined();
    expect(o.status).toEqual({});
    const got = await t.as.get(`${base}/env-1`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(o);
  });

  test('the field manager defaults to the User-Agent product', async () => {
    const res = await t.as.post(base).set('User-Agent', 'kubectl/v1.32.0 (linux/amd64)').send(body('ua-1'));
    expect(res.body.metadata.managedFields[0].manager).toBe('kubectl');
  });

  test('create of an existing name is 409 AlreadyExists and changes nothing', async () => {
    const first = await create('dup-1');
    const res = await t.as.post(base).send(body('dup-1', samples.changed));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'AlreadyExists', code: 409, message: `${qualified} "dup-1" already exists` });
    expect((await t.as.get(`${base}/dup-1`)).body).toEqual(first);
  });

  test('generateName makes a name of the prefix and 5 random characters', async () => {
    const res = await t.as.post(base).send({ metadata: { generateName: 'gen-' }, spec: samples.spec });
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(res.body.metadata.generateName).toBe('gen-');
    const long = await t.as.post(base).send({ metadata: { generateName: 'x'.repeat(60) }, spec: samples.spec });
    expect(long.status).toBe(201);
    expect(long.body.metadata.name).toHaveLength(40);
  });

  test('get of an unknown name is a 404 Status in kube-apiserver wording', async () => {
    const res = await t.as.get(`${base}/nope`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404,
      message: `${qualified} "nope" not found`, details: { name: 'nope', group: kind.group, kind: kind.plural },
    });
  });

  test('update bumps resourceVersion and generation, records updatedBy, keeps the system fields', async () => {
    const created = await create('upd-1');
    const res = await t.as.put(`${base}/upd-1`).send({ ...created, spec: samples.changed });
    expect(res.status).toBe(200);
    const o = res.body;
    expect(Number(o.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(o.metadata.generation).toBe(2);
    expect(o.metadata.uid).toBe(created.metadata.uid);
    expect(o.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(o.metadata.annotations).toMatchObject({ 'svc.app/createdBy': 'user:admin', 'svc.app/updatedBy': 'user:admin', 'svc.app/updatedTimestamp': expect.stringMatching(RFC3339) });
    expect((await t.as.get(`${base}/upd-1`)).body).toEqual(o);
  });

  test('a stale update is refused and stores nothing', async () => {
    const created = await create('stale-1');
    const fresh = await t.as.put(`${base}/stale-1`).send({ ...created, spec: samples.changed });
    expect(fresh.status).toBe(200);
    const stale = await t.as.put(`${base}/stale-1`).send({ ...created, spec: samples.spec, metadata: { ...created.metadata, labels: { stale: 'yes' } } });
    if (kind.plural === 'folders') {
      expect(stale.status).toBe(412);
      expect(stale.body).toMatchObject({ status: 'version-mismatch', message: 'the folder has been changed by someone else', code: 412 });
    } else {
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on ${qualified} "stale-1": the object has been modified; please apply your changes to the latest version and try again`,
      });
    }
    expect((await t.as.get(`${base}/stale-1`)).body).toEqual(fresh.body);
  });

  test('an update without resourceVersion is 422', async () => {
    const created = await create('norv-1');
    const { resourceVersion: _, ...metadata } = created.metadata;
    const res = await t.as.put(`${base}/norv-1`).send({ ...created, metadata, spec: samples.changed });
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.details.causes).toEqual([expect.objectContaining({ field: 'metadata.resourceVersion' })]);
    expect(res.body.message).toContain('must be specified for an update');
  });

  test('a no-op update changes nothing, not even the resourceVersion', async () => {
    const created = await create('noop-1');
    const res = await t.as.put(`${base}/noop-1`).send(created);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  test('a labels-only update bumps resourceVersion but not generation', async () => {
    const created = await create('lbl-1');
    const res = await t.as.put(`${base}/lbl-1`).send({ ...created, metadata: { ...created.metadata, labels: { team: 'a' } } });
    expect(res.status).toBe(200);
    expect(clientLabels(res.body.metadata.labels)).toEqual({ team: 'a' });
    expect(res.body.metadata.generation).toBe(1);
    expect(res.body.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
  });

  test('of concurrent updates from one resourceVersion exactly one wins', async () => {
    const created = await create('race-1');
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => t.as.put(`${base}/race-1`).send({ ...created, metadata: { ...created.metadata, labels: { writer: String(i) } } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === (kind.plural === 'folders' ? 412 : 409))).toHaveLength(5);
    const winner = results.find((r) => r.status === 200)!.body;
    expect((await t.as.get(`${base}/race-1`)).body.metadata.labels).toEqual(winner.metadata.labels);
  });

  test('merge patch changes only what it names; strategic merge patch is 415', async () => {
    const created = await create('patch-1', { labels: { a: '1', b: '2' } });
    const res = await t.as.patch(`${base}/patch-1`).set('Content-Type', 'application/merge-patch+json').send(JSON.stringify({ metadata: { labels: { b: null, c: '3' } } }));
    expect(res.status).toBe(200);
    expect(clientLabels(res.body.metadata.labels)).toEqual({ a: '1', c: '3' });
    expect(res.body.spec).toEqual(created.spec);
    const strategic = await t.as.patch(`${base}/patch-1`).set('Content-Type', 'application/strategic-merge-patch+json').send(JSON.stringify({ metadata: { labels: { d: '4' } } }));
    expect(strategic.status).toBe(415);
    expect(strategic.body.reason).toBe('UnsupportedMediaType');
    const stale = await t.as.patch(`${base}/patch-1`).set('Content-Type', 'application/merge-patch+json').send(JSON.stringify({ metadata: { resourceVersion: created.metadata.resourceVersion, labels: { e: '5' } } }));
    expect(stale.status).toBe(kind.plural === 'folders' ? 412 : 409);
    expect(clientLabels((await t.as.get(`${base}/patch-1`)).body.metadata.labels)).toEqual({ a: '1', c: '3' });
  });

  test('dryRun=All validates and answers but stores nothing', async () => {
    const before = await snapshot();
    const res = await t.as.post(`${base}?dryRun=All`).send(body('dry-1'));
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toBe('dry-1');
    expect((await t.as.get(`${base}/dry-1`)).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  test('delete answers as the kind says, and the object is gone', async () => {
    const created = await create('del-1');
    const res = await t.as.delete(`${base}/del-1`);
    expect(res.status).toBe(200);
    if (kind.deleteResponse === 'status') {
      expect(res.body).toEqual({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200,
        details: { name: 'del-1', group: kind.group, kind: kind.plural, uid: created.metadata.uid },
      });
    } else {
      expect(res.body.metadata.uid).toBe(created.metadata.uid);
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    }
    expect((await t.as.get(`${base}/del-1`)).status).toBe(404);
    expect((await t.as.delete(`${base}/del-1`)).status).toBe(404);
  });

  test('delete preconditions are honoured', async () => {
    const created = await create('pre-1');
    const wrong = await t.as.delete(`${base}/pre-1`).send({ preconditions: { uid: 'not-the-uid' } });
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toContain('Precondition failed: UID in precondition: not-the-uid');
    expect((await t.as.get(`${base}/pre-1`)).status).toBe(200);
    const right = await t.as.delete(`${base}/pre-1`).send({ preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } });
    expect(right.status).toBe(200);
  });

  test('bad input gets a clear 4xx Status and stores nothing', async () => {
    const before = await snapshot();
    const cases: [string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, string | RegExp][] = [
      ['invalid spec', () => t.as.post(base).send(body('bad-1', samples.invalid)), 422, samples.invalidField],
      ['no spec', () => t.as.post(base).send({ metadata: { name: 'bad-2' } }), 422, 'spec'],
      ['no name', () => t.as.post(base).send({ spec: samples.spec }), 422, 'name or generateName is required'],
      ['long name', () => t.as.post(base).send(body('n'.repeat(41))), 422, 'may not be more than 40'],
      ['illegal name', () => t.as.post(base).send(body('a b')), 422, 'alphanumeric'],
      ['malformed JSON', () => t.as.post(base).set('Content-Type', 'application/json').send('{"metadata":'), 400, 'not valid JSON'],
      ['array body', () => t.as.post(base).send([1, 2]), 400, 'JSON object'],
      ['wrong apiVersion', () => t.as.post(base).send({ ...body('bad-3'), apiVersion: 'v1' }), 400, 'does not match the expected API version'],
      ['wrong kind', () => t.as.post(base).send({ ...body('bad-4'), kind: 'Pod' }), 400, 'does not match the expected kind'],
      ['other namespace in body', () => t.as.post(base).send(body('bad-5', samples.spec, { namespace: 'org-2' })), 400, 'namespace of the provided object'],
      ['resourceVersion on create', () => t.as.post(base).send(body('bad-6', samples.spec, { resourceVersion: '5' })), 400, 'resourceVersion should not be set'],
      ['labels not strings', () => t.as.post(base).send(body('bad-7', samples.spec, { labels: { a: 1 } })), 422, 'metadata.labels'],
      ['bad label key', () => t.as.post(base).send(body('bad-8', samples.spec, { labels: { 'a b': 'x' } })), 422, 'metadata.labels'],
      ['text body', () => t.as.post(base).set('Content-Type', 'text/plain').send('hello'), 415, 'unknown format'],
      ['oversized body', () => t.as.post(base).send(body('bad-9', { ...samples.spec, padding: 'x'.repeat(11 * 1024 * 1024) })), 413, 'larger than the limit'],
      ['unknown namespace', () => t.as.post(base.replace('/default/', '/org-9/')).send(body('bad-10')), 404, 'namespaces "org-9" not found'],
      ['bad dryRun', () => t.as.post(`${base}?dryRun=yes`).send(body('bad-11')), 400, 'dryRun'],
      ['long fieldManager', () => t.as.post(`${base}?fieldManager=${'m'.repeat(129)}`).send(body('bad-12')), 422, 'fieldManager'],
      ['URL and body names differ', () => t.as.put(`${base}/x1`).send(body('x2', samples.spec, { resourceVersion: '1' })), 400, 'does not match the name on the URL'],
      ['update of unknown name', () => t.as.put(`${base}/ghost`).send(body('ghost', samples.spec, { resourceVersion: '1' })), 404, 'not found'],
      ['non-numeric resourceVersion', () => t.as.put(`${base}/ghost`).send(body('ghost', samples.spec, { resourceVersion: 'abc' })), 400, 'invalid resourceVersion'],
    ];
    for (const [label, send, code, text] of cases) {
      const res = await send();
      expect([label, res.status]).toEqual([label, code]);
      expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
      const said = `${res.body.message} ${JSON.stringify(res.body.details ?? {})}`;
      expect([label, said]).toEqual([label, expect.stringMatching(text instanceof RegExp ? text : escape(text))]);
    }
    expect(await snapshot()).toEqual(before);
  });

  test('an invalid update is 422 with field causes and leaves the object as it was', async () => {
    const created = await create('inv-1');
    const res = await t.as.put(`${base}/inv-1`).send({ ...created, spec: samples.invalid });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(new RegExp(`^${kind.kind}\\.${escape(kind.group)} "inv-1" is invalid: `));
    expect(res.body.details.causes.map((c: { field: string }) => c.field)).toContain(samples.invalidField);
    expect((await t.as.get(`${base}/inv-1`)).body).toEqual(created);
  });

  test('requests without valid credentials are 401 Status', async () => {
    const res = await t.anonymous.get(base);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect((await t.anonymous.get(base).auth('admin', 'wrong')).status).toBe(401);
  });

  test('label and field selectors filter the list', async () => {
    await create('sel-a', { labels: { sel: 'yes', tier: '1' } });
    await create('sel-b', { labels: { sel: 'yes', tier: '7' } });
    await create('sel-c', { labels: { sel: 'no' } });
    const names = async (q: string) => ((await t.as.get(`${base}?${q}`)).body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    expect(await names('labelSelector=sel%3Dyes')).toEqual(['sel-a', 'sel-b']);
    expect(await names('labelSelector=sel%20in%20(yes),tier%3E5')).toEqual(['sel-b']);
    expect(await names('labelSelector=sel,!tier')).toEqual(['sel-c']);
    expect(await names('fieldSelector=metadata.name%3Dsel-c')).toEqual(['sel-c']);
    expect(await names('fieldSelector=metadata.namespace%3Ddefault,metadata.name%3Dsel-a')).toEqual(['sel-a']);
    expect(await names('fieldSelector=metadata.namespace%3Dorg-2')).toEqual([]);
    const badLabel = await t.as.get(`${base}?labelSelector=a%20in%20(b`);
    expect(badLabel.status).toBe(400);
    const badField = await t.as.get(`${base}?fieldSelector=spec.title%3Dx`);
    expect(badField.status).toBe(400);
    expect(badField.body.message).toBe('field label not supported: spec.title');
  });

  test('pages show the collection as it was at the first page, under concurrent writes', async () => {
    const ns = `/apis/${kind.group}/${kind.version}/namespaces/default/${kind.plural}`;
    const prefix = 'pg-';
    const initial = Array.from({ length: 12 }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
    for (const n of initial) await create(n, { labels: { page: 'test' } });
    const sel = 'labelSelector=page%3Dtest';
    const first = await t.as.get(`${ns}?${sel}&limit=5`);
    expect(first.body.items).toHaveLength(5);
    expect(first.body.metadata.continue).toEqual(expect.any(String));
    const listRV = first.body.metadata.resourceVersion;

    // While the remaining pages are read, other writers create, update and delete in the same collection.
    const writes = Promise.all([
      t.as.post(ns).send(body(`${prefix}05a`, samples.spec, { labels: { page: 'test' } })),
      t.as.post(ns).send(body(`${prefix}99`, samples.spec, { labels: { page: 'test' } })),
      t.as.delete(`${ns}/${prefix}08`),
      (async () => {
        const cur = (await t.as.get(`${ns}/${prefix}10`)).body;
        return t.as.put(`${ns}/${prefix}10`).send({ ...cur, metadata: { ...cur.metadata, labels: { page: 'test', changed: 'yes' } } });
      })(),
    ]);
    const names: string[] = first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    let token = first.body.metadata.continue as string | undefined;
    await writes;
    while (token) {
      const page = await t.as.get(`${ns}?${sel}&limit=5&continue=${encodeURIComponent(token)}`);
      expect(page.status).toBe(200);
      expect(page.body.metadata.resourceVersion).toBe(listRV);
      for (const item of page.body.items) {
        names.push(item.metadata.name);
        if (item.metadata.name === `${prefix}10`) expect(item.metadata.labels.changed).toBeUndefined();
      }
      token = page.body.metadata.continue;
    }
    expect(names).toEqual(initial);
    // A fresh list shows the writes.
    const now = (await t.as.get(`${ns}?${sel}`)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(now).toContain(`${prefix}05a`);
    expect(now).not.toContain(`${prefix}08`);
  });

  test('a malformed continue token is 400, an expired one 410', async () => {
    const bad = await t.as.get(`${base}?limit=1&continue=not-a-token`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    const forged = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 9e15, start: 'a\u0000' })).toString('base64url');
    expect((await t.as.get(`${base}?limit=1&continue=${forged}`)).status).toBe(400);
    expect((await t.as.get(`${base}?limit=abc`)).status).toBe(400);

    await create('exp-1');
    await create('exp-2');
    const first = await t.as.get(`${base}?limit=1`);
    // Compact everything up to now: the token's version is no longer resumable.
    const type = { group: kind.group, resource: kind.plural };
    await t.storage.compact(type, (await t.storage.versions(type)).current + 1, { keepSuperseded: true });
    const expired = await t.as.get(`${base}?limit=1&continue=${first.body.metadata.continue}`);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

