/**
 * The kind conformance suite: the registry's semantics for one kind, whatever the kind. Served kinds run it through
 * HTTP (kind-conformance.test.ts), the identity kinds through the registry's API (identity-kind-conformance.test.ts);
 * what only HTTP has (headers, bodies that are not JSON, credentials) is skipped for the latter, saying so in the
 * test's name. Kind-specific behaviour (folders, the dashboard dto...) has its own suites.
 */
import type { Test } from 'supertest';
import type { KindRegistration } from '../../pkg/meta';
import type { Storage } from '../../storage';
import type { Client } from '../support/users';
import { clientLabels } from '../support/labels';
import { RFC3339 } from '../support/paths';
import { type Answer, type KindClient } from './kind-client';
import { createRequired, samplesOf } from './kind-samples';

/** A request the suite expects refused: its label, the request, the status and what the answer must say. */
type RefusedCase = [string, () => PromiseLike<Answer>, number, string | RegExp];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the suite runs against, once the test app has started. */
export interface ConformanceTarget {
  client: KindClient;
  storage: Storage;
  /** The collection under /apis with the admin's and no credentials; unset when the kind is not served there. */
  http?: { base: string; as: Client; anonymous: { get(path: string): Test } };
}

export function describeKindConformance(kind: KindRegistration, served: boolean, target: () => ConformanceTarget): void {
  const samples = samplesOf(kind);
  // What the samples name (a correlation's data sources) exists first, made as the admin through /apis.
  beforeAll(() => createRequired(kind, (path, body) => target().http!.as.post(path).send(body)));
  const qualified = `${kind.plural}.${kind.group}`;
  const overHttp = (name: string) => (served ? name : `${name} (skipped: HTTP only, and ${kind.plural} are not served under /apis)`);
  const httpTest = served ? test : test.skip;
  /**
   * The suite's names for objects. A kind named by its numeric id (`internalIds: 'name'`) gets numbers instead, one
   * per name in the order asked, all of one length so that they sort as they were made.
   */
  const numbered = kind.internalIds === 'name';
  const numbers = new Map<string, string>();
  const n = (name: string): string => {
    if (!numbered) return name;
    if (!numbers.has(name)) numbers.set(name, String(100_000 + numbers.size));
    return numbers.get(name)!;
  };
  const http = () => target().http!;
  const c = () => target().client;
  const body = (name: string, spec = samples.spec(name), metadata: Record<string, unknown> = {}) => ({
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    metadata: { name, ...metadata },
    spec,
  });
  const create = async (name: string, metadata: Record<string, unknown> = {}) => {
    const res = await c().create(body(name, samples.spec(name), metadata));
    expect(res.status).toBe(201);
    return res.body;
  };
  /** The collection's state, to prove a failed request stored nothing. */
  const snapshot = async () => (await c().list()).body as { metadata: { resourceVersion: string }; items: unknown[] };
  /** A stale write is the kind's conflict: 409 Conflict, or what its conflictError says (folders: 412). */
  const staleCode = kind.conflictError?.('x').code ?? 409;
  /** Expects 4xx Status answers, each naming what was wrong, and nothing stored. */
  const refuses = async (cases: RefusedCase[]) => {
    const before = await snapshot();
    for (const [label, send, code, text] of cases) {
      const res = await send();
      expect([label, res.status]).toEqual([label, code]);
      expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code });
      const said = `${res.body.message} ${JSON.stringify(res.body.details ?? {})}`;
      expect([label, said]).toEqual([label, expect.stringMatching(text instanceof RegExp ? text : escape(text))]);
    }
    expect(await snapshot()).toEqual(before);
  };

  test('create returns the full envelope with every system field set by the server', async () => {
    const res = await c().create(body(n('env-1'), samples.spec(n('env-1')), { uid: 'mine', generation: 9, creationTimestamp: '2001-01-01T00:00:00Z' }), { fieldManager: 'conformance' });
    expect(res.status).toBe(201);
    const o = res.body;
    expect(o.apiVersion).toBe(`${kind.group}/${kind.version}`);
    expect(o.kind).toBe(kind.kind);
    expect(o.metadata.name).toBe(n('env-1'));
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
    const got = await c().get(n('env-1'));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(o);
  });

  httpTest(overHttp('the field manager defaults to the User-Agent product'), async () => {
    const res = await http().as.post(http().base).set('User-Agent', 'kubectl/v1.32.0 (linux/amd64)').send(body(n('ua-1')));
    expect(res.body.metadata.managedFields[0].manager).toBe('kubectl');
  });

  test('create of an existing name is 409 AlreadyExists and changes nothing', async () => {
    const first = await create(n('dup-1'));
    const res = await c().create(body(n('dup-1'), samples.changed(n('dup-1'))));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'AlreadyExists', code: 409, message: `${qualified} "${n('dup-1')}" already exists` });
    expect((await c().get(n('dup-1'))).body).toEqual(first);
  });

  const unique = kind.unique?.[0];
  (unique ? test : test.skip)(
    unique ? `a ${unique.field} another object holds is refused, and of concurrent creates of one exactly one wins` : 'unique fields (skipped: the kind declares none)',
    async () => {
      const refusal = unique!.error?.('x');
      await create(n('uniq-1'));
      const taken = await c().create(body(n('uniq-2'), samples.spec(n('uniq-1'))));
      expect(taken.status).toBe(refusal?.code ?? 409);
      if (refusal) expect(taken.body.message).toBe(refusal.message);
      expect((await c().get(n('uniq-2'))).status).toBe(404);
      const racers = await Promise.all([3, 4, 5, 6].map((i) => c().create(body(n(`uniq-${i}`), samples.spec(n('uniq-race'))))));
      expect(racers.map((r) => r.status).sort()).toEqual([201, ...Array(3).fill(refusal?.code ?? 409)].sort());
    },
  );

  if (numbered) {
    test('an object created without a name is named by the next number of the kind', async () => {
      const res = await c().create({ metadata: {}, spec: samples.spec(n('auto-1')) });
      expect(res.status).toBe(201);
      expect(res.body.metadata.name).toMatch(/^[1-9][0-9]*$/);
      expect(res.body.metadata.labels['svc.app/deprecatedInternalID']).toBe(res.body.metadata.name);
    });
  } else {
    test('generateName makes a name of the prefix and 5 random characters', async () => {
      const res = await c().create({ metadata: { generateName: 'gen-' }, spec: samples.spec(n('gen-1')) });
      expect(res.status).toBe(201);
      expect(res.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(res.body.metadata.generateName).toBe('gen-');
      const long = await c().create({ metadata: { generateName: 'x'.repeat(60) }, spec: samples.spec(n('gen-2')) });
      expect(long.status).toBe(201);
      expect(long.body.metadata.name).toHaveLength(40);
    });
  }

  test('get of an unknown name is a 404 Status in kube-apiserver wording', async () => {
    const res = await c().get(n('nope'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404,
      message: `${qualified} "${n('nope')}" not found`, details: { name: n('nope'), group: kind.group, kind: kind.plural },
    });
  });

  test('update bumps resourceVersion and generation, records updatedBy, keeps the system fields', async () => {
    const created = await create(n('upd-1'));
    const res = await c().update(n('upd-1'), { ...created, spec: samples.changed(n('upd-1')) });
    expect(res.status).toBe(200);
    const o = res.body;
    expect(Number(o.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(o.metadata.generation).toBe(2);
    expect(o.metadata.uid).toBe(created.metadata.uid);
    expect(o.metadata.creationTimestamp).toBe(created.metadata.creationTimestamp);
    expect(o.metadata.annotations).toMatchObject({ 'svc.app/createdBy': 'user:admin', 'svc.app/updatedBy': 'user:admin', 'svc.app/updatedTimestamp': expect.stringMatching(RFC3339) });
    expect((await c().get(n('upd-1'))).body).toEqual(o);
  });

  test('a stale update is refused and stores nothing', async () => {
    const created = await create(n('stale-1'));
    const fresh = await c().update(n('stale-1'), { ...created, spec: samples.changed(n('stale-1')) });
    expect(fresh.status).toBe(200);
    const stale = await c().update(n('stale-1'), { ...created, metadata: { ...created.metadata, labels: { stale: 'yes' } } });
    expect(stale.status).toBe(staleCode);
    if (kind.conflictError) {
      // The kind's own conflict (folders: the spec's 412 version-mismatch), rendered as any Status.
      const own = kind.conflictError(n('stale-1'));
      expect(stale.body).toMatchObject({ status: own.statusWord, message: own.message, code: own.code });
    } else {
      expect(stale.body).toMatchObject({
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on ${qualified} "${n('stale-1')}": the object has been modified; please apply your changes to the latest version and try again`,
      });
    }
    expect((await c().get(n('stale-1'))).body).toEqual(fresh.body);
  });

  test('an update without resourceVersion is 422', async () => {
    const created = await create(n('norv-1'));
    const { resourceVersion: _, ...metadata } = created.metadata;
    const res = await c().update(n('norv-1'), { ...created, metadata, spec: samples.changed(n('norv-1')) });
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.details.causes).toEqual([expect.objectContaining({ field: 'metadata.resourceVersion' })]);
    expect(res.body.message).toContain('must be specified for an update');
  });

  test('a no-op update changes nothing, not even the resourceVersion', async () => {
    const created = await create(n('noop-1'));
    const res = await c().update(n('noop-1'), created);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  test('a labels-only update bumps resourceVersion but not generation', async () => {
    const created = await create(n('lbl-1'));
    const res = await c().update(n('lbl-1'), { ...created, metadata: { ...created.metadata, labels: { team: 'a' } } });
    expect(res.status).toBe(200);
    expect(clientLabels(res.body.metadata.labels)).toEqual({ team: 'a' });
    expect(res.body.metadata.generation).toBe(1);
    expect(res.body.metadata.resourceVersion).not.toBe(created.metadata.resourceVersion);
  });

  test('of concurrent updates from one resourceVersion exactly one wins', async () => {
    const created = await create(n('race-1'));
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => c().update(n('race-1'), { ...created, metadata: { ...created.metadata, labels: { writer: String(i) } } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === staleCode)).toHaveLength(5);
    const winner = results.find((r) => r.status === 200)!.body;
    expect((await c().get(n('race-1'))).body.metadata.labels).toEqual(winner.metadata.labels);
  });

  test('merge patch changes only what it names, and a stale one is refused', async () => {
    const created = await create(n('patch-1'), { labels: { a: '1', b: '2' } });
    const res = await c().mergePatch(n('patch-1'), { metadata: { labels: { b: null, c: '3' } } });
    expect(res.status).toBe(200);
    expect(clientLabels(res.body.metadata.labels)).toEqual({ a: '1', c: '3' });
    expect(res.body.spec).toEqual(created.spec);
    const stale = await c().mergePatch(n('patch-1'), { metadata: { resourceVersion: created.metadata.resourceVersion, labels: { e: '5' } } });
    expect(stale.status).toBe(staleCode);
    expect(clientLabels((await c().get(n('patch-1'))).body.metadata.labels)).toEqual({ a: '1', c: '3' });
  });

  httpTest(overHttp('strategic merge patch is 415'), async () => {
    await create(n('smp-1'));
    const strategic = await http().as.patch(`${http().base}/smp-1`).set('Content-Type', 'application/strategic-merge-patch+json').send(JSON.stringify({ metadata: { labels: { d: '4' } } }));
    expect(strategic.status).toBe(415);
    expect(strategic.body.reason).toBe('UnsupportedMediaType');
  });

  test('dryRun=All validates and answers but stores nothing', async () => {
    const before = await snapshot();
    const res = await c().create(body(n('dry-1')), { dryRun: true });
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toBe(n('dry-1'));
    expect((await c().get(n('dry-1'))).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  test('delete answers as the kind says, and the object is gone', async () => {
    const created = await create(n('del-1'));
    const res = await c().delete(n('del-1'));
    expect(res.status).toBe(200);
    if (kind.deleteResponse === 'status') {
      expect(res.body).toEqual({
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200,
        details: { name: n('del-1'), group: kind.group, kind: kind.plural, uid: created.metadata.uid },
      });
    } else {
      expect(res.body.metadata.uid).toBe(created.metadata.uid);
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    }
    expect((await c().get(n('del-1'))).status).toBe(404);
    expect((await c().delete(n('del-1'))).status).toBe(404);
  });

  test('delete preconditions are honoured', async () => {
    const created = await create(n('pre-1'));
    const wrong = await c().delete(n('pre-1'), { preconditions: { uid: 'not-the-uid' } });
    expect(wrong.status).toBe(409);
    expect(wrong.body.message).toContain('Precondition failed: UID in precondition: not-the-uid');
    expect((await c().get(n('pre-1'))).status).toBe(200);
    const right = await c().delete(n('pre-1'), { preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } });
    expect(right.status).toBe(200);
  });

  test('bad input gets a clear 4xx Status and stores nothing', async () => {
    await refuses([
      ['invalid spec', () => c().create(body(n('bad-1'), samples.invalid)), 422, samples.invalidField],
      ['no spec', () => c().create({ metadata: { name: n('bad-2') } }), 422, 'spec'],
      ...((numbered
        ? [
            ['name not a number', () => c().create(body('a-b')), 422, 'must be a positive integer'],
            ['generateName', () => c().create({ metadata: { generateName: 'gen-' }, spec: samples.spec(n('bad-0')) }), 422, 'named by its numeric id'],
          ]
        : [
            ['no name', () => c().create({ spec: samples.spec(n('bad-0')) }), 422, 'name or generateName is required'],
            ['long name', () => c().create(body('n'.repeat(41))), 422, 'may not be more than 40'],
            ['illegal name', () => c().create(body('a b')), 422, 'alphanumeric'],
          ]) satisfies RefusedCase[]),
      ['array body', () => c().create([1, 2]), 400, 'JSON object'],
      ['wrong apiVersion', () => c().create({ ...body(n('bad-3')), apiVersion: 'v1' }), 400, 'does not match the expected API version'],
      ['wrong kind', () => c().create({ ...body(n('bad-4')), kind: 'Pod' }), 400, 'does not match the expected kind'],
      ['other namespace in body', () => c().create(body(n('bad-5'), samples.spec(n('bad-5')), { namespace: 'org-2' })), 400, 'namespace of the provided object'],
      ['resourceVersion on create', () => c().create(body(n('bad-6'), samples.spec(n('bad-6')), { resourceVersion: '5' })), 400, 'resourceVersion should not be set'],
      ['labels not strings', () => c().create(body(n('bad-7'), samples.spec(n('bad-7')), { labels: { a: 1 } })), 422, 'metadata.labels'],
      ['bad label key', () => c().create(body(n('bad-8'), samples.spec(n('bad-8')), { labels: { 'a b': 'x' } })), 422, 'metadata.labels'],
      ['URL and body names differ', () => c().update(n('x1'), body(n('x2'), samples.spec(n('x2')), { resourceVersion: '1' })), 400, 'does not match the name on the URL'],
      ['update of unknown name', () => c().update(n('ghost'), body(n('ghost'), samples.spec(n('ghost')), { resourceVersion: '1' })), 404, 'not found'],
      ['non-numeric resourceVersion', () => c().update(n('ghost'), body(n('ghost'), samples.spec(n('ghost')), { resourceVersion: 'abc' })), 400, 'invalid resourceVersion'],
    ]);
  });

  httpTest(overHttp('bad requests get a clear 4xx Status and store nothing'), async () => {
    const { base, as } = http();
    await refuses([
      ['malformed JSON', () => as.post(base).set('Content-Type', 'application/json').send('{"metadata":'), 400, 'not valid JSON'],
      ['text body', () => as.post(base).set('Content-Type', 'text/plain').send('hello'), 415, 'unknown format'],
      ['oversized body', () => as.post(base).send(body(n('bad-9'), { ...samples.spec(n('bad-9')), padding: 'x'.repeat(11 * 1024 * 1024) })), 413, 'larger than the limit'],
      ['unknown namespace', () => as.post(base.replace('/default/', '/org-9/')).send(body(n('bad-10'))), 404, 'namespaces "org-9" not found'],
      ['bad dryRun', () => as.post(`${base}?dryRun=yes`).send(body(n('bad-11'))), 400, 'dryRun'],
      ['long fieldManager', () => as.post(`${base}?fieldManager=${'m'.repeat(129)}`).send(body(n('bad-12'))), 422, 'fieldManager'],
      ['limit not a number', () => as.get(`${base}?limit=abc`), 400, 'limit'],
    ]);
  });

  test('an invalid update is 422 with field causes and leaves the object as it was', async () => {
    const created = await create(n('inv-1'));
    const res = await c().update(n('inv-1'), { ...created, spec: samples.invalid });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(new RegExp(`^${kind.kind}\\.${escape(kind.group)} "${n('inv-1')}" is invalid: `));
    expect(res.body.details.causes.map((cause: { field: string }) => cause.field)).toContain(samples.invalidField);
    expect((await c().get(n('inv-1'))).body).toEqual(created);
  });

  httpTest(overHttp('requests without valid credentials are 401 Status'), async () => {
    const res = await http().anonymous.get(http().base);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    // A login of its own per kind: five failures for one login within five minutes lock it (the anchor's throttle),
    // and the suites of every kind share one server.
    expect((await http().anonymous.get(http().base).auth(`intruder-${kind.plural}`, 'wrong')).status).toBe(401);
  });

  test('label and field selectors filter the list', async () => {
    await create(n('sel-a'), { labels: { sel: 'yes', tier: '1' } });
    await create(n('sel-b'), { labels: { sel: 'yes', tier: '7' } });
    await create(n('sel-c'), { labels: { sel: 'no' } });
    const names = async (opts: { labelSelector?: string; fieldSelector?: string }) => ((await c().list(opts)).body.items as { metadata: { name: string } }[]).map((i) => i.metadata.name);
    expect(await names({ labelSelector: 'sel=yes' })).toEqual([n('sel-a'), n('sel-b')]);
    expect(await names({ labelSelector: 'sel in (yes),tier>5' })).toEqual([n('sel-b')]);
    expect(await names({ labelSelector: 'sel,!tier' })).toEqual([n('sel-c')]);
    expect(await names({ fieldSelector: `metadata.name=${n('sel-c')}` })).toEqual([n('sel-c')]);
    expect(await names({ fieldSelector: `metadata.namespace=default,metadata.name=${n('sel-a')}` })).toEqual([n('sel-a')]);
    expect(await names({ fieldSelector: 'metadata.namespace=org-2' })).toEqual([]);
    const badLabel = await c().list({ labelSelector: 'a in (b' });
    expect(badLabel.status).toBe(400);
    const badField = await c().list({ fieldSelector: 'spec.title=x' });
    expect(badField.status).toBe(400);
    expect(badField.body.message).toBe('field label not supported: spec.title');
  });

  test('pages show the collection as it was at the first page, under concurrent writes', async () => {
    const pg = (suffix: string) => n(`pg-${suffix}`);
    const initial = Array.from({ length: 12 }, (_, i) => pg(String(i).padStart(2, '0')));
    for (const n of initial) await create(n, { labels: { page: 'test' } });
    const labelSelector = 'page=test';
    const first = await c().list({ labelSelector, limit: 5 });
    expect(first.body.items).toHaveLength(5);
    expect(first.body.metadata.continue).toEqual(expect.any(String));
    const listRV = first.body.metadata.resourceVersion;

    // While the remaining pages are read, other writers create, update and delete in the same collection.
    const writes = Promise.all([
      c().create(body(pg('05a'), samples.spec(pg('05a')), { labels: { page: 'test' } })),
      c().create(body(pg('99'), samples.spec(pg('99')), { labels: { page: 'test' } })),
      c().delete(pg('08')),
      (async () => {
        const cur = (await c().get(pg('10'))).body;
        return c().update(pg('10'), { ...cur, metadata: { ...cur.metadata, labels: { page: 'test', changed: 'yes' } } });
      })(),
    ]);
    const names: string[] = first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    let token = first.body.metadata.continue as string | undefined;
    await writes;
    while (token) {
      const page = await c().list({ labelSelector, limit: 5, continue: token });
      expect(page.status).toBe(200);
      expect(page.body.metadata.resourceVersion).toBe(listRV);
      for (const item of page.body.items) {
        names.push(item.metadata.name);
        if (item.metadata.name === pg('10')) expect(item.metadata.labels.changed).toBeUndefined();
      }
      token = page.body.metadata.continue;
    }
    expect(names).toEqual(initial);
    // A fresh list shows the writes.
    const now = (await c().list({ labelSelector })).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(now).toContain(pg('05a'));
    expect(now).not.toContain(pg('08'));
  });

  test('a malformed continue token is 400, an expired one 410', async () => {
    const bad = await c().list({ limit: 1, continue: 'not-a-token' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    const forged = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 9e15, start: 'a\u0000' })).toString('base64url');
    expect((await c().list({ limit: 1, continue: forged })).status).toBe(400);

    await create(n('exp-1'));
    await create(n('exp-2'));
    const first = await c().list({ limit: 1 });
    // Compact everything up to now: the token's version is no longer resumable.
    const type = { group: kind.group, resource: kind.plural };
    const { storage } = target();
    await storage.compact(type, (await storage.versions(type)).current + 1, { keepSuperseded: true });
    const expired = await c().list({ limit: 1, continue: first.body.metadata.continue });
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
  });
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
