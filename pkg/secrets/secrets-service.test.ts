/**
 * The secrets service over data keys stored as DataKey objects in a real database (both backends): encryption,
 * replicas sharing keys, rotation, re-wrapping for a changed secret key, re-encryption and rollback of held values.
 */
import { internalKinds } from '../../apis';
import { Namespaces, Registry } from '../registry';
import { createTestStorage } from '../../test/support/backend';
import type { Storage } from '../../storage';
import { legacyDecrypt } from './legacy-scheme';
import { RegistryKeyStore } from './registry-key-store';
import { SecretsError, type SecretHolder, SecretsService } from './secrets-service';

describe.each(['postgres', 'embedded'] as const)('SecretsService (%s)', (backend) => {
  let db: { storage: Storage; close(): Promise<void> };
  beforeAll(async () => {
    db = await createTestStorage(backend);
  }, 60_000);
  afterAll(() => db?.close());
  // Each test its own set of keys.
  let namespace = '';
  let seq = 0;
  beforeEach(() => {
    namespace = `keys-${++seq}`;
  });

  const service = (secretKey: string, previousSecretKeys: string[] = [], activeKeyTtlMs?: number) =>
    new SecretsService({
      secretKey,
      previousSecretKeys,
      activeKeyTtlMs,
      keys: new RegistryKeyStore(new Registry(db.storage, internalKinds, { nestedFolders: false, namespaces: new Namespaces() }), namespace),
    });
  const keyIdOf = (ciphertext: string) => /^#([^#]+)#/.exec(ciphertext)![1];
  const storedKeys = async () => (await db.storage.list({ group: 'secret.svc.app', resource: 'datakeys', namespace })).items;

  it('encrypts with a data key it stores wrapped, and decrypts', async () => {
    const secrets = service('k1');
    const ciphertext = await secrets.encrypt('p4ss');
    expect(ciphertext).toMatch(/^#[a-z0-9-]+#[A-Za-z0-9+/=]+$/);
    expect(await secrets.decrypt(ciphertext)).toBe('p4ss');
    expect(await secrets.decrypt(await secrets.encrypt(''))).toBe('');
    const keys = await storedKeys();
    expect(keys.map((k) => k.key.name)).toEqual([keyIdOf(ciphertext)]);
    // One key for every value until a rotation.
    expect(keyIdOf(await secrets.encrypt('other'))).toBe(keyIdOf(ciphertext));
  });

  it('another replica finds a key it has not seen in the database', async () => {
    const a = service('k1');
    const b = service('k1');
    const fromA = await a.encrypt('from a');
    expect(await b.decrypt(fromA)).toBe('from a');
    // b uses the key a made rather than making its own.
    expect(keyIdOf(await b.encrypt('from b'))).toBe(keyIdOf(fromA));
  });

  it('rotation makes a new active key; values of the old one still decrypt; replicas take it up when their cache expires', async () => {
    const a = service('k1');
    const b = service('k1', [], 0);
    const before = await a.encrypt('old');
    await a.rotateDataKeys();
    const after = await a.encrypt('new');
    expect(keyIdOf(after)).not.toBe(keyIdOf(before));
    expect(await a.decrypt(before)).toBe('old');
    expect(await b.decrypt(after)).toBe('new');
    expect(keyIdOf(await b.encrypt('b'))).toBe(keyIdOf(after));
    expect(await storedKeys()).toHaveLength(2);
  });

  it('a changed secret key reads keys wrapped by a previous one; reencryptDataKeys re-wraps them so the previous one can go', async () => {
    const ciphertext = await service('old secret').encrypt('p4ss');
    await expect(service('new secret').decrypt(ciphertext)).rejects.toThrow(SecretsError);
    const both = service('new secret', ['old secret']);
    expect(await both.decrypt(ciphertext)).toBe('p4ss');
    await both.reencryptDataKeys();
    await both.reencryptDataKeys(); // idempotent
    expect(await service('new secret').decrypt(ciphertext)).toBe('p4ss');
    await expect(service('old secret').decrypt(ciphertext)).rejects.toThrow(/not configured/);
    // History keeps no wrapping of a key (secretFields): nothing the old secret unwraps remains.
    const history = await db.storage.objectHistory({ group: 'secret.svc.app', resource: 'datakeys', namespace, name: keyIdOf(ciphertext) }, { limit: 10 });
    expect(history.length).toBeGreaterThan(0);
    for (const row of history) expect(row.value.spec).toEqual({ keyEncryptionKey: expect.any(String) });
  });

  it('reencryptDataKeys names the keys no configured secret unwraps', async () => {
    await service('lost').encrypt('x');
    await expect(service('new').reencryptDataKeys()).rejects.toThrow(/no configured secret key unwraps data keys/);
  });

  it('re-encrypts and rolls back the values of its holders; every form decrypts', async () => {
    const secrets = service('k1');
    const values = [await secrets.encrypt('a'), await secrets.encrypt('b')];
    const holder: SecretHolder = {
      async recryptSecrets(recrypt) {
        for (let i = 0; i < values.length; i++) values[i] = await recrypt(values[i]!);
        return values.length;
      },
    };
    secrets.addHolder(holder);
    const first = keyIdOf(values[0]!);
    await secrets.rotateDataKeys();
    expect(await secrets.reencryptSecrets()).toBe(2);
    expect(values.map(keyIdOf)).toEqual([keyIdOf(values[1]!), keyIdOf(values[1]!)]);
    expect(keyIdOf(values[0]!)).not.toBe(first);
    const reencrypted = [...values];
    await secrets.reencryptSecrets(); // idempotent: nothing left to move
    expect(values).toEqual(reencrypted);

    await secrets.rollbackSecrets();
    expect(values.map((v) => legacyDecrypt(v, 'k1'))).toEqual(['a', 'b']);
    expect(await Promise.all(values.map((v) => secrets.decrypt(v)))).toEqual(['a', 'b']);
    await secrets.reencryptSecrets();
    expect(values.every((v) => v.startsWith('#'))).toBe(true);
    expect(await Promise.all(values.map((v) => secrets.decrypt(v)))).toEqual(['a', 'b']);
  });

  it('refuses what it cannot decrypt, naming no value', async () => {
    const secrets = service('k1');
    await expect(secrets.decrypt('#nokey#AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toThrow('data key nokey does not exist');
    await expect(secrets.decrypt('not base64!')).rejects.toThrow(SecretsError);
  });
});
