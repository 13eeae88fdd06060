/**
 * GET /api/signing-keys/keys (the anchor's pkg/services/signingkeys): the JSON Web Key Set of the server's ES256
 * keys, public, through HTTP on both backends. The key pair exists for real (a signature made with the stored private
 * key verifies with the published key), is made once and shared by every server on one database, and its private
 * half is never answered nor stored in clear.
 */
import { createPublicKey, sign, verify } from 'node:crypto';
import { Client } from 'pg';
import supertest from 'supertest';
import { internalKinds, signingKeyKind } from '../../apis';
import { loadConfig } from '../../pkg/config';
import { silentLogger } from '../../pkg/log';
import { composeServer } from '../../pkg/server/server';
import { SIGNING_KEYS_NAMESPACE, SigningKeys } from '../../pkg/signingkeys';
import { openStorage, type Storage } from '../../storage';
import { startTestApp, type TestApp } from '../support/app';
import { createTestDatabase, testBackend } from '../support/backend';

jest.setTimeout(120_000);

const PATH = '/api/signing-keys/keys';
const KEYS = { group: signingKeyKind.group, resource: signingKeyKind.plural };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** Another server's view of the same database: a SigningKeys of its own (no key cached in process). */
const replica = (opts: ConstructorParameters<typeof SigningKeys>[1] = {}) => new SigningKeys(t.registry.companion(internalKinds), opts);

/** Every stored row and history row of the signing keys, as the database holds them. */
async function rawRows(storage: Storage, namespace = SIGNING_KEYS_NAMESPACE): Promise<string> {
  const { items } = await storage.list({ ...KEYS, namespace });
  const history = await Promise.all(items.map((i) => storage.objectHistory(i.key, { limit: 100 })));
  return JSON.stringify([items, history]);
}

describe('GET /api/signing-keys/keys', () => {
  it('answers the key set without credentials: one ES256 P-256 public key, cacheable for an hour', async () => {
    const res = await t.anonymous.get(PATH);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body).toEqual({ keys: [{ kty: 'EC', use: 'sig', kid: expect.stringMatching(/^id-token-\d{4}-\d{2}-es256$/), crv: 'P-256', alg: 'ES256', x: expect.any(String), y: expect.any(String) }] });
    const key = res.body.keys[0];
    expect(key.kid).toBe(`id-token-${new Date().toISOString().slice(0, 7)}-es256`);
    // A valid P-256 point: node imports it as an EC public key on that curve (32-byte coordinates).
    const imported = createPublicKey({ key: key, format: 'jwk' });
    expect(imported.type).toBe('public');
    expect(imported.asymmetricKeyType).toBe('ec');
    expect(imported.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(Buffer.from(key.x, 'base64url')).toHaveLength(32);
    expect(Buffer.from(key.y, 'base64url')).toHaveLength(32);
    // Signed-in callers get the same answer.
    expect((await t.as.get(PATH)).body).toEqual(res.body);
  });

  it('makes the key once: later requests and another server instance over the database answer the same key', async () => {
    const first = (await t.anonymous.get(PATH).expect(200)).body;
    expect((await t.anonymous.get(PATH).expect(200)).body).toEqual(first);
    expect(await replica().jwks()).toEqual(first);
    expect((await t.storage.list({ ...KEYS, namespace: SIGNING_KEYS_NAMESPACE })).items.map((i) => i.key.name)).toEqual([first.keys[0].kid]);
  });

  it('publishes the public half of the stored private key: a signature made with it verifies with the served key', async () => {
    const served = (await t.anonymous.get(PATH).expect(200)).body.keys[0];
    const signer = await replica().signer();
    expect(signer).toMatchObject({ kid: served.kid, alg: 'ES256' });
    expect(signer.privateKey.type).toBe('private');
    const data = Buffer.from('header.payload');
    const signature = sign('sha256', data, { key: signer.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(signature).toHaveLength(64);
    const publicKey = createPublicKey({ key: served, format: 'jwk' });
    expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    expect(verify('sha256', Buffer.from('header.other'), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(false);
  });

  it('never answers nor stores the private key in clear: the stored value is an envelope of the secrets service', async () => {
    const res = await t.anonymous.get(PATH).expect(200);
    const { privateKey } = await replica().signer();
    const d = privateKey.export({ format: 'jwk' }).d!;
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    for (const text of [res.text, await rawRows(t.storage)]) {
      expect(text).not.toContain(d);
      expect(text).not.toContain(pkcs8.slice(-40));
      expect(text).not.toContain('PRIVATE KEY');
    }
    expect(res.body.keys[0]).not.toHaveProperty('d');
    const stored = (await t.storage.list({ ...KEYS, namespace: SIGNING_KEYS_NAMESPACE })).items[0]!;
    expect((stored.value.spec as { secure: Record<string, string> }).secure.privateKey).toMatch(/^#[a-z0-9-]+#[A-Za-z0-9+/=]+$/);
    if (t.databaseUrl) {
      // The database's own rows, read past the storage layer.
      const pg = new Client({ connectionString: t.databaseUrl });
      await pg.connect();
      try {
        const rows = await pg.query(`SELECT value::text AS v FROM resource WHERE resource = 'signingkeys' UNION ALL SELECT value::text FROM resource_history WHERE resource = 'signingkeys'`);
        expect(rows.rows.length).toBeGreaterThanOrEqual(2);
        for (const { v } of rows.rows as { v: string }[]) {
          expect(v).not.toContain(d);
          expect(v).not.toContain('PRIVATE KEY');
        }
      } finally {
        await pg.end();
      }
    }
  });

  it('moves to a new data key with reencrypt-secrets, and back to the legacy scheme with rollback-secrets: the same key pair', async () => {
    const served = (await t.anonymous.get(PATH).expect(200)).body;
    const ciphertext = async () => ((await t.storage.list({ ...KEYS, namespace: SIGNING_KEYS_NAMESPACE })).items[0]!.value.spec as { secure: Record<string, string> }).secure.privateKey!;
    const before = await ciphertext();
    await t.as.post('/api/admin/encryption/rotate-data-keys').expect(204);
    await t.as.post('/api/admin/encryption/reencrypt-secrets').expect(204);
    const after = await ciphertext();
    expect(/^#([^#]+)#/.exec(after)![1]).not.toBe(/^#([^#]+)#/.exec(before)![1]);
    await t.as.post('/api/admin/encryption/rollback-secrets').expect(204);
    const rolledBack = await ciphertext();
    expect(rolledBack).not.toMatch(/^#/);
    expect(rolledBack).not.toContain('PRIVATE');
    await t.as.post('/api/admin/encryption/reencrypt-secrets').expect(204);
    expect(await ciphertext()).toMatch(/^#/);
    expect((await t.anonymous.get(PATH).expect(200)).body).toEqual(served);
    expect((await replica().signer()).kid).toBe(served.keys[0].kid);
  });

  it('makes one key a month and publishes each until it expires, 33 days after it was made', async () => {
    const namespace = 'signing-keys-months';
    let now = new Date('2026-11-01T00:00:00Z');
    const keys = replica({ namespace, now: () => now });
    const november = await keys.jwks();
    expect(november.keys.map((k) => k.kid)).toEqual(['id-token-2026-11-es256']);
    now = new Date('2026-12-01T00:00:00Z');
    const december = await replica({ namespace, now: () => now }).jwks();
    expect(december.keys.map((k) => k.kid)).toEqual(['id-token-2026-11-es256', 'id-token-2026-12-es256']);
    expect(december.keys[0]).toEqual(november.keys[0]);
    expect((await keys.signer()).kid).toBe('id-token-2026-12-es256');
    // November's key was made on November 1st: gone from the set on December 4th.
    now = new Date('2026-12-04T00:00:01Z');
    expect((await keys.jwks()).keys.map((k) => k.kid)).toEqual(['id-token-2026-12-es256']);
    expect(await rawRows(t.storage, namespace)).not.toContain('PRIVATE KEY');
  });
});

// Two server instances, each with its own connections, on one PostgreSQL database (the embedded database is one
// process's by construction), asked at once before either has a key: both answer the one key one of them made.
(testBackend() === 'postgres' ? describe : describe.skip)('two servers on one database', () => {
  it('answer the same key set, made once', async () => {
    const db = await createTestDatabase('postgres');
    const config = loadConfig({ argv: [], env: {}, cwd: process.cwd() });
    const storages = await Promise.all([1, 2].map(() => openStorage({ url: db.url, dataDir: '', maxConnections: 5 })));
    try {
      const servers = await Promise.all(storages.map((s) => composeServer(config, silentLogger, s, { version: 'test', commit: 'test' })));
      const answers = await Promise.all([...servers, ...servers].map(({ app }) => supertest(app).get(PATH)));
      for (const res of answers) expect(res.status).toBe(200);
      expect(answers[0]!.body.keys).toHaveLength(1);
      for (const res of answers) expect(res.body).toEqual(answers[0]!.body);
      const { items } = await storages[0]!.list({ ...KEYS, namespace: SIGNING_KEYS_NAMESPACE });
      expect(items).toHaveLength(1);
      for (const s of servers) s.watchHub.stop();
    } finally {
      await Promise.all(storages.map((s) => s.close()));
      await db.drop();
    }
  });
});
