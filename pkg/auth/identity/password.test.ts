import { DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword } from './password';

// Cheap parameters keep the suite fast; one test exercises the defaults.
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('hashPassword / verifyPassword', () => {
  it('hashes with the default parameters in the documented encoding, and verifies', async () => {
    const encoded = await hashPassword('correct horse battery staple');
    const parts = encoded.split('$');
    expect(parts.slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(parts[4] as string, 'base64')).toHaveLength(16);
    expect(Buffer.from(parts[5] as string, 'base64')).toHaveLength(32);
    expect(await verifyPassword('correct horse battery staple', encoded)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', encoded)).toBe(false);
  });

  it('salts every hash', async () => {
    const [a, b] = await Promise.all([hashPassword('same', FAST), hashPassword('same', FAST)]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same', a)).toBe(true);
    expect(await verifyPassword('same', b)).toBe(true);
  });

  it('verifies with the parameters stored in the hash, not the current ones', async () => {
    const old = await hashPassword('pw', { N: 2 ** 11, r: 4, p: 2 });
    expect(old.startsWith('scrypt$2048$4$2$')).toBe(true);
    expect(await verifyPassword('pw', old)).toBe(true);
  });

  it('treats the empty password and unicode like any other', async () => {
    const empty = await hashPassword('', FAST);
    expect(await verifyPassword('', empty)).toBe(true);
    expect(await verifyPassword(' ', empty)).toBe(false);
    // "é" composed (U+00E9) and decomposed (e + U+0301) are the same password after NFC.
    const composed = await hashPassword('caf\u00e9', FAST);
    expect(await verifyPassword('cafe\u0301', composed)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['another scheme', '$2b$10$abcdefghijklmnopqrstuv'],
    ['too few fields', 'scrypt$1024$8$1$c2FsdHNhbHQ='],
    ['N not a power of two', 'scrypt$1000$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['N too large', `scrypt$${2 ** 24}$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA==`],
    ['r zero', 'scrypt$1024$0$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['p not a number', 'scrypt$1024$8$x$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['leading zero', 'scrypt$01024$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['salt not base64', 'scrypt$1024$8$1$!!!!$aGFzaGhhc2hoYXNoaGFzaA=='],
    ['hash too short', 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0$aGFzaA=='],
  ])('answers false, without throwing, for a malformed hash (%s)', async (_name, encoded) => {
    await expect(verifyPassword('pw', encoded)).resolves.toBe(false);
  });

  it('answers false when the stored hash was tampered with', async () => {
    const encoded = await hashPassword('pw', FAST);
    const parts = encoded.split('$');
    const hash = Buffer.from(parts[5] as string, 'base64');
    hash[0] = (hash[0] as number) ^ 1;
    parts[5] = hash.toString('base64');
    expect(await verifyPassword('pw', parts.join('$'))).toBe(false);
  });
});

describe('needsRehash', () => {
  it('is false for the current parameters and true otherwise', async () => {
    const fast = await hashPassword('pw', FAST);
    expect(needsRehash(fast)).toBe(true);
    expect(needsRehash(fast, FAST)).toBe(false);
    expect(needsRehash('garbage')).toBe(true);
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 32768, r: 8, p: 1 });
  });
});
