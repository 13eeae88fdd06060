import { randomBytes } from 'node:crypto';
import { deriveKek, newDataKey, open, parseEnvelope, seal, unwrapKey, wrapKey } from './envelope';
import { legacyDecrypt, legacyEncrypt } from './legacy-scheme';

describe('envelope', () => {
  const key = newDataKey();

  it('seals a value as #<key id>#<payload> that opens with that key only', () => {
    const sealed = seal(key, 'p4ss wörd');
    const env = parseEnvelope(sealed)!;
    expect(env.keyId).toBe(key.id);
    expect(sealed).not.toContain('p4ss');
    expect(open(key.key, env.payload, key.id)).toBe('p4ss wörd');
    expect(() => open(randomBytes(32), env.payload, key.id)).toThrow();
    // The key id is bound: the payload moved under another id does not open.
    expect(() => open(key.key, env.payload, 'other')).toThrow();
  });

  it('refuses a tampered payload', () => {
    const raw = Buffer.from(parseEnvelope(seal(key, 'secret'))!.payload, 'base64');
    raw[14] ^= 1;
    expect(() => open(key.key, raw.toString('base64'), key.id)).toThrow();
  });

  it('seals the same value differently every time (random nonce)', () => {
    expect(seal(key, 'x')).not.toBe(seal(key, 'x'));
  });

  it('reads no envelope in other text (the legacy scheme is base64 without #)', () => {
    expect(parseEnvelope(legacyEncrypt('x', 's'))).toBeUndefined();
    expect(parseEnvelope('#bad id#AAAA')).toBeUndefined();
  });

  it('new data key ids sort in creation order', () => {
    expect(newDataKey(1_000).id < newDataKey(2_000).id).toBe(true);
  });

  it('wraps a data key for its id with a KEK derived from the secret key', () => {
    const kek = deriveKek('s3cret');
    expect(kek).toEqual(deriveKek('s3cret'));
    expect(kek.id).toMatch(/^[0-9a-f]{16}$/);
    expect(deriveKek('other').id).not.toBe(kek.id);
    const wrapped = wrapKey(kek, key);
    expect(unwrapKey(kek, key.id, wrapped).key.equals(key.key)).toBe(true);
    expect(() => unwrapKey(deriveKek('other'), key.id, wrapped)).toThrow();
    expect(() => unwrapKey(kek, 'another-id', wrapped)).toThrow();
  });
});

describe('legacy scheme (rollback)', () => {
  it('round-trips with the secret key: base64 of an 8-character salt, a 16-byte IV and the ciphertext', () => {
    const blob = legacyEncrypt('p4ss', 'SW2YcwTIb9zpOOhoPsMm');
    const raw = Buffer.from(blob, 'base64');
    expect(raw.length).toBe(8 + 16 + 4);
    expect(raw.subarray(0, 8).toString()).toMatch(/^[0-9A-Za-z]{8}$/);
    expect(legacyDecrypt(blob, 'SW2YcwTIb9zpOOhoPsMm')).toBe('p4ss');
    expect(legacyDecrypt(blob, 'another key')).not.toBe('p4ss');
  });

  it('refuses what is no legacy blob', () => {
    expect(() => legacyDecrypt('not base64!', 's')).toThrow();
    expect(() => legacyDecrypt('AAAA', 's')).toThrow();
  });
});
