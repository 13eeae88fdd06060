import { crc32 as zlibCrc32 } from 'node:zlib';
import { createHash } from 'node:crypto';
import {
  generateServiceAccountToken,
  generateSessionToken,
  hashToken,
  parseServiceAccountToken,
  SERVICE_ACCOUNT_TOKEN_PREFIX,
} from './tokens';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('service-account tokens', () => {
  it('have the anchor shape with our brand: svcsa_<32 base62>_<8 hex>', () => {
    const { key, hashedKey } = generateServiceAccountToken();
    expect(key).toMatch(/^svcsa_[0-9A-Za-z]{32}_[0-9a-f]{8}$/);
    expect(key.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX)).toBe(true);
    expect(hashedKey).toBe(sha256(key));
  });

  it('carry the CRC-32 of prefix+secret as 4 little-endian bytes, as the anchor writes it', () => {
    const { key } = generateServiceAccountToken();
    const body = key.slice(0, -9);
    const expected = Buffer.alloc(4);
    expected.writeUInt32LE(zlibCrc32(body));
    expect(key.slice(-8)).toBe(expected.toString('hex'));
  });

  it('are unique and use the whole alphabet', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateServiceAccountToken().key));
    expect(keys.size).toBe(500);
    const chars = new Set([...keys].flatMap((k) => [...k.slice(6, 38)]));
    expect(chars.size).toBe(62);
  });

  it('parse: a generated key is valid and gives its lookup hash', () => {
    const { key, hashedKey } = generateServiceAccountToken();
    expect(parseServiceAccountToken(key)).toEqual({ valid: true, hashedKey });
  });

  it.each([
    ['a legacy API key', 'eyJrIjoiT0tTcG1pUlY2RnVKZTFVaDFsNFZXdE9ZWmNrMkZYbk', 'prefix'],
    ['the anchor prefix', 'glsa_abcdefghijklmnopqrstuvwxyzABCDEF_12345678', 'prefix'],
    ['a short secret', 'svcsa_abc_00000000', 'format'],
    ['upper-case checksum', 'svcsa_abcdefghijklmnopqrstuvwxyzABCDEF_ABCDEF12', 'format'],
    ['trailing text', 'svcsa_abcdefghijklmnopqrstuvwxyzABCDEF_12345678x', 'format'],
    ['a wrong checksum', 'svcsa_abcdefghijklmnopqrstuvwxyzABCDEF_00000000', 'checksum'],
  ])('parse: refuses %s', (_name, key, reason) => {
    expect(parseServiceAccountToken(key)).toEqual({ valid: false, reason });
  });

  it('parse: one changed character of the secret breaks the checksum', () => {
    const { key } = generateServiceAccountToken();
    const c = key[10] === 'a' ? 'b' : 'a';
    const typo = key.slice(0, 10) + c + key.slice(11);
    expect(parseServiceAccountToken(typo)).toEqual({ valid: false, reason: 'checksum' });
  });
});

describe('session tokens', () => {
  it('are 32 random bytes in base64url, stored as their sha256', () => {
    const { token, hashed } = generateSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(hashed).toBe(sha256(token));
    expect(hashToken(token)).toBe(hashed);
    expect(generateSessionToken().token).not.toBe(token);
  });
});
