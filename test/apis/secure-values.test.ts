/**
 * Write-only secrets (a kind's `secureValues`): through every write and read of /apis, on a kind declaring them
 * (test/support/secure-app.ts), no clear value is ever in an answer, a watch event, a stored row, a history row or
 * a log line; the update semantics (omitted keys kept, '' removes); and the admin key operations (rotate,
 * re-encrypt, roll back, a changed secret key) across restarts, an interrupted re-encryption included.
 */
import http from 'node:http';
import supertest from 'supertest';
import { loadConfig } from '../../pkg/config';
import { createLogger } from '../../pkg/log';
import type { Resource } from '../../pkg/meta';
import { composeServer } from '../../pkg/server/server';
import { openStorage } from '../../storage';
import { createTestDatabase, testBackend } from '../support/backend';
import { SECURE_THINGS, type SecureApp, type SecureAppData, secureAppData, secureThingKind, startSecureApp } from '../support/secure-app';
import { ADMIN } from '../support/app';

jest.setTimeout(120_000);

const SECRETS = ['s3cret-password-1', 'tok-en-2', 'n3w-password-3', 'appl1ed-4', 'dry-run-5'];
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** Neither a value nor its base64 anywhere in `text`. */
function expectNoSecret(text: string): void {
  for (const s of SECRETS) {
    expect(text).not.toContain(s);
    expect(text).not.toContain(b64(s));
  }
}

const type = { group: secureThingKind.group, resource: secureThingKind.plural };
const spec = (url: string, secureJsonData?: Record<string, string>) => ({ url, ...(secureJsonData ? { secureJsonData } : {}) });
const values = (s: SecureApp, name: string) => s.registry.secureValues(secureThingKind, 'default', name);
/** The stored ciphertexts of each object, by name. */
async function storedCiphertexts(s: SecureApp): Promise<Record<string, Record<string, string>>> {
  const { items } = await s.storage.list({ ...type, namespace: 'default' });
  return Object.fromEntries(items.map((i) => [i.key.name, ((i.value.spec as Record<string, unknown>).secureJsonData ?? {}) as Record<string, string>]));
}
const keyIdOf = (ciphertext: string) => /^#([^#]+)#/.exec(ciphertext)?.[1];

let data: SecureAppData;
let s: SecureApp;
const as = () => {
  const agent = supertest(s.app);
  return {
    get: (p: string) => agent.get(p).auth(ADMIN.user, ADMIN.password),
    post: (p: string) => agent.post(p).auth(ADMIN.user, ADMIN.password),
    put: (p: string) => agent.put(p).auth(ADMIN.user, ADMIN.password),
    patch: (p: string) => agent.patch(p).auth(ADMIN.user, ADMIN.password),
    delete: (p: string) => agent.delete(p).auth(ADMIN.user, ADMIN.password),
  };
};

beforeEach(async () => {
  data = await secureAppData(testBackend());
  s = await startSecureApp(data);
});
afterEach(async () => {
  await s?.close();
  await data?.drop();
});

/** A watch of the kind, its raw text collected. */
function watchText(): Promise<{ text: () => string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = http.get(`${s.url}${SECURE_THINGS}?watch=true`, { auth: `${ADMIN.user}:${ADMIN.password}`, agent: false }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      resolve({ text: () => text, stop: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !what(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('no clear value in any answer, watch event, stored row, history row or log line; omitted keys are kept, "" removes one', async () => {
  const watch = await watchText();
  const answers: string[] = [];
  const answer = <T extends { text: string; status: number }>(res: T, status: number) => {
    expect(res.status).toBe(status);
    answers.push(res.text);
    return res;
  };

  const created = answer(await as().post(SECURE_THINGS).send({ metadata: { name: 'a' }, spec: spec('http://a', { password: SECRETS[0]!, token: SECRETS[1]! }) }), 201);
  expect(created.body.spec).toEqual({ url: 'http://a', secureJsonFields: { password: true, token: true } });
  expect(await values(s, 'a')).toEqual({ password: SECRETS[0], token: SECRETS[1] });

  const read = answer(await as().get(`${SECURE_THINGS}/a`), 200);
  expect(read.body.spec).toEqual(created.body.spec);

  // PUT of what was read (secureJsonFields echoed back, ignored; under Strict too): the keys it omits are kept.
  const unchanged = answer(await as().put(`${SECURE_THINGS}/a?fieldValidation=Strict`).send(read.body), 200);
  expect(unchanged.body.metadata.resourceVersion).toBe(read.body.metadata.resourceVersion);
  expect(await values(s, 'a')).toEqual({ password: SECRETS[0], token: SECRETS[1] });

  // A key sent as '' is removed; the others stay.
  const put = answer(await as().put(`${SECURE_THINGS}/a`).send({ ...read.body, spec: { ...read.body.spec, url: 'http://b', secureJsonData: { token: '' } } }), 200);
  expect(put.body.spec).toEqual({ url: 'http://b', secureJsonFields: { password: true } });
  expect(await values(s, 'a')).toEqual({ password: SECRETS[0] });

  const patched = answer(
    await as().patch(`${SECURE_THINGS}/a`).set('Content-Type', 'application/merge-patch+json').send(JSON.stringify({ spec: { secureJsonData: { password: SECRETS[2] } } })),
    200,
  );
  expect(patched.body.metadata.generation).toBe(put.body.metadata.generation + 1);
  expect(await values(s, 'a')).toEqual({ password: SECRETS[2] });

  const config = { apiVersion: 'securethings.test.svc.app/v1', kind: 'SecureThing', metadata: { name: 'a' }, spec: spec('http://c', { extra: SECRETS[3]! }) };
  const applied = answer(await as().patch(`${SECURE_THINGS}/a?fieldManager=tester&force=true`).set('Content-Type', 'application/apply-patch+yaml').send(JSON.stringify(config)), 200);
  expect(applied.body.spec).toEqual({ url: 'http://c', secureJsonFields: { password: true, extra: true } });
  expect(await values(s, 'a')).toEqual({ password: SECRETS[2], extra: SECRETS[3] });

  const dry = answer(await as().post(`${SECURE_THINGS}?dryRun=All`).send({ metadata: { name: 'dry' }, spec: spec('http://d', { password: SECRETS[4]! }) }), 201);
  expect(dry.body.spec.secureJsonFields).toEqual({ password: true });
  answer(await as().post(SECURE_THINGS).send({ metadata: { name: 'b' }, spec: spec('http://b', { password: SECRETS[1]! }) }), 201);
  const list = answer(await as().get(SECURE_THINGS), 200);
  expect(list.body.items.map((i: Resource) => (i.spec as { secureJsonFields: object }).secureJsonFields)).toEqual([{ password: true, extra: true }, { password: true }]);
  answer(await as().get(`${SECURE_THINGS}?limit=1`), 200);
  answer(await as().delete(`${SECURE_THINGS}/b`), 200);

  // ADDED a, 3 MODIFIED, ADDED b, DELETED b: each event reports the keys set, never a value.
  await until(() => watch.text().split('\n').filter(Boolean).length >= 6);
  watch.stop();
  const events = watch.text().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; object: Resource });
  expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'ADDED', 'DELETED']);
  expect(events[3]!.object.spec).toEqual({ url: 'http://c', secureJsonFields: { password: true, extra: true } });
  expect(events[5]!.object.spec).toEqual({ url: 'http://b', secureJsonFields: { password: true } });

  const rows = await s.storage.list({ ...type, namespace: 'default' });
  const history = await s.storage.eventsSince(type, 0, 1000);
  expect(history.length).toBeGreaterThanOrEqual(6);
  // Stored: ciphertexts; history: the keys only.
  expect(Object.values(await storedCiphertexts(s)).flatMap(Object.values).every((v) => /^#[a-z0-9-]+#/.test(v))).toBe(true);
  expect((history[history.length - 2]!.value.spec as { secureJsonData: object }).secureJsonData).toEqual({ password: '' });
  expect(s.logLines.length).toBeGreaterThan(0);
  for (const text of [...answers, watch.text(), JSON.stringify(rows), JSON.stringify(history), s.logLines.join('\n')]) expectNoSecret(text);
});

test('a secure map that is not an object of strings is 422 with its field, and nothing is stored', async () => {
  const bad = await as().post(SECURE_THINGS).send({ metadata: { name: 'x' }, spec: { url: 'u', secureJsonData: { password: 5 } } });
  expect(bad.status).toBe(422);
  expect(bad.body.details.causes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'spec.secureJsonData.password' })]));
  const notMap = await as().post(SECURE_THINGS).send({ metadata: { name: 'x' }, spec: { url: 'u', secureJsonData: 'p4ss' } });
  expect(notMap.status).toBe(422);
  expect(JSON.stringify(notMap.body)).not.toContain('p4ss');
  expect((await as().get(`${SECURE_THINGS}/x`)).status).toBe(404);
});

test('kubectl apply: the last-applied-configuration annotation keeps the manifest without its secrets', async () => {
  const LAST = 'kubectl.kubernetes.io/last-applied-configuration';
  const secrets = ['appl1ed-first', 'appl1ed-second', 'sav3d-config'];
  const answers: string[] = [];
  const answer = <T extends { text: string; status: number }>(res: T, status: number) => {
    expect([res.status, res.text]).toEqual([status, expect.any(String)]);
    answers.push(res.text);
    return res;
  };
  const manifest = (url: string, password: string) => ({ apiVersion: 'securethings.test.svc.app/v1', kind: 'SecureThing', metadata: { name: 'k' }, spec: spec(url, { password }) });
  // What kubectl apply sends at a first apply: the object, with the manifest as JSON in the annotation.
  const first = manifest('http://k1', secrets[0]!);
  const created = answer(await as().post(SECURE_THINGS).send({ ...first, metadata: { ...first.metadata, annotations: { [LAST]: `${JSON.stringify(first)}\n` } } }), 201);
  expect(created.body.metadata.annotations[LAST]).toBe(`${JSON.stringify({ apiVersion: first.apiVersion, kind: first.kind, metadata: first.metadata, spec: { url: 'http://k1' } })}\n`);
  // At the next apply, a merge patch that sets the annotation again and the changed fields.
  const second = manifest('http://k2', secrets[1]!);
  const patch = { metadata: { annotations: { [LAST]: `${JSON.stringify(second)}\n` } }, spec: { url: 'http://k2', secureJsonData: { password: secrets[1] } } };
  const patched = answer(await as().patch(`${SECURE_THINGS}/k`).set('Content-Type', 'application/merge-patch+json').send(JSON.stringify(patch)), 200);
  expect(JSON.parse(patched.body.metadata.annotations[LAST])).toEqual({ apiVersion: second.apiVersion, kind: second.kind, metadata: second.metadata, spec: { url: 'http://k2' } });
  expect(await values(s, 'k')).toEqual({ password: secrets[1] });
  // kubectl create --save-config, and a server-side apply, which keeps the annotation in step.
  const saved = manifest('http://k3', secrets[2]!);
  answer(await as().post(SECURE_THINGS).send({ ...saved, metadata: { name: 'k3', annotations: { [LAST]: JSON.stringify({ ...saved, metadata: { name: 'k3' } }) } } }), 201);
  answer(await as().patch(`${SECURE_THINGS}/k?fieldManager=kubectl&force=true`).set('Content-Type', 'application/apply-patch+yaml').send(JSON.stringify(manifest('http://k4', secrets[0]!))), 200);
  const texts = [
    ...answers,
    JSON.stringify((await as().get(SECURE_THINGS)).body),
    JSON.stringify((await s.storage.list({ ...type, namespace: 'default' })).items),
    JSON.stringify(await s.storage.eventsSince(type, 0, 1000)),
    s.logLines.join('\n'),
  ];
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
  expect(await values(s, 'k3')).toEqual({ password: secrets[2] });
});

const post = (path: string) => as().post(path);
async function expect204(path: string): Promise<void> {
  const res = await post(path);
  expect(res.status).toBe(204);
  expect(res.text).toBe('');
}

test('rotate, re-encrypt, roll back and a changed secret key: after each and a restart every secret decrypts', async () => {
  const want: Record<string, string> = {};
  for (let i = 0; i < 4; i++) {
    want[`t${i}`] = `value-${i}`;
    expect((await as().post(SECURE_THINGS).send({ metadata: { name: `t${i}` }, spec: spec('u', { password: want[`t${i}`]! }) })).status).toBe(201);
  }
  const readAll = async () => {
    for (const [name, value] of Object.entries(want)) expect(await values(s, name)).toEqual({ password: value });
    // The answers still report the keys.
    expect((await as().get(`${SECURE_THINGS}/t0`)).body.spec.secureJsonFields).toEqual({ password: true });
  };
  const restart = async (flags: string[] = []) => {
    await s.close();
    s = await startSecureApp(data, flags);
  };
  const first = keyIdOf(Object.values(await storedCiphertexts(s))[0]!.password!)!;

  await expect204('/api/admin/encryption/rotate-data-keys');
  await expect204('/api/admin/encryption/rotate-data-keys'); // again: one more key, nothing else
  expect((await as().post(SECURE_THINGS).send({ metadata: { name: 'late' }, spec: spec('u', { password: 'late-value' }) })).status).toBe(201);
  want.late = 'late-value';
  const active = keyIdOf((await storedCiphertexts(s)).late!.password!)!;
  expect(active).not.toBe(first);
  await restart();
  await readAll();

  await expect204('/api/admin/encryption/reencrypt-secrets');
  await expect204('/api/admin/encryption/reencrypt-secrets');
  expect(new Set(Object.values(await storedCiphertexts(s)).map((m) => keyIdOf(m.password!)))).toEqual(new Set([active]));
  await restart();
  await readAll();

  await expect204('/api/admin/encryption/rollback-secrets');
  await expect204('/api/admin/encryption/rollback-secrets');
  // The legacy scheme: base64, no data key named.
  expect(Object.values(await storedCiphertexts(s)).every((m) => /^[A-Za-z0-9+/]+=*$/.test(m.password!))).toBe(true);
  await restart();
  await readAll();
  await expect204('/api/admin/encryption/reencrypt-secrets');
  expect(Object.values(await storedCiphertexts(s)).every((m) => keyIdOf(m.password!) === active)).toBe(true);

  // A new secret key, the old one configured as previous: everything reads; reencrypt-data-keys re-wraps the keys,
  // after which the old secret key is no longer needed.
  await restart(['--security.secret_key=a-new-secret', '--security.previous_secret_keys=SW2YcwTIb9zpOOhoPsMm']);
  await readAll();
  await expect204('/api/admin/encryption/reencrypt-data-keys');
  await expect204('/api/admin/encryption/reencrypt-data-keys');
  await restart(['--security.secret_key=a-new-secret']);
  await readAll();
  // Without the secret key that wrapped them, the data keys do not open: re-wrapping says so (500, the anchor's message).
  await restart(['--security.secret_key=yet-another']);
  await expect(values(s, 't0')).rejects.toThrow(/not configured/);
  const failed = await post('/api/admin/encryption/reencrypt-data-keys');
  expect(failed.status).toBe(500);
  expect(failed.body).toEqual({ message: 'Failed to re-encrypt data keys' });
});

test('a re-encryption cut off in the middle (the database closed under it) leaves every secret readable, and completes when run again', async () => {
  const n = 60;
  for (let i = 0; i < n; i++) {
    expect((await as().post(SECURE_THINGS).send({ metadata: { name: `m${i}` }, spec: spec('u', { password: `v${i}`, other: `o${i}` }) })).status).toBe(201);
  }
  await expect204('/api/admin/encryption/rotate-data-keys');
  const running = post('/api/admin/encryption/reencrypt-secrets').then((r) => r.status, () => 0);
  await new Promise((r) => setTimeout(r, 150));
  await s.storage.close();
  await running;
  // The rest of the first server goes too (its listening socket and watch hub would keep jest's process alive).
  await s.close();
  s = await startSecureApp(data);
  for (let i = 0; i < n; i++) expect(await values(s, `m${i}`)).toEqual({ password: `v${i}`, other: `o${i}` });
  await expect204('/api/admin/encryption/reencrypt-secrets');
  const keys = new Set(Object.values(await storedCiphertexts(s)).flatMap((m) => Object.values(m).map(keyIdOf)));
  expect(keys.size).toBe(1);
});

test('the server warns at every start while security.secret_key is the default, and not with a secret of its own', async () => {
  for (const [flags, warned] of [[[], true], [['--security.secret_key=mine'], false]] as const) {
    const db = await createTestDatabase(testBackend());
    const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 4 });
    const lines: string[] = [];
    try {
      await composeServer(loadConfig({ argv: [...flags], env: {}, cwd: process.cwd() }), createLogger('info', (l) => lines.push(l)), storage, { version: 'test', commit: 'test' });
      expect(lines.some((l) => l.includes('"level":"warn"') && l.includes('security.secret_key is the default value'))).toBe(warned);
    } finally {
      await storage.close();
      await db.drop();
    }
  }
});
