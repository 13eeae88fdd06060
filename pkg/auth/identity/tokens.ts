import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer secrets: service-account tokens and login-session tokens.
 *
 * Both are stored only as SHA-256 digests. A slow hash (scrypt, PBKDF2) protects low-entropy secrets such as
 * passwords from offline guessing; these secrets are 190+ random bits, so no guess succeeds against a fast digest
 * either, while a slow one would cost every authenticated request tens of milliseconds and hand attackers a CPU
 * lever. A fast, unsalted digest is also deterministic, so the row is found by a unique index on the digest
 * rather than by scanning. (The anchor hashes its service-account keys with PBKDF2 salted by the checksum; for
 * a 32-character random secret that buys nothing.)
 */

/** `svc` (our brand, where the anchor writes `gl`) + `sa` (service account): `svcsa_<secret>_<checksum>`. */
export const SERVICE_ACCOUNT_TOKEN_PREFIX = 'svcsa_';
const SECRET_LENGTH = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 string: bytes ≥ 248 are rejected so that `% 62` has no bias. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE), as Go's `crc32.ChecksumIEEE`; zlib.crc32 only exists from Node 20.15, engines say >= 20. */
function crc32(data: Buffer): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = (crcTable[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * The anchor's checksum: CRC-32 of `<prefix><secret>`, written as its 4 bytes little-endian in hex. It lets a
 * typo'd or truncated key be refused without a database lookup, and lets secret scanners recognise leaked keys.
 */
function checksum(prefixAndSecret: string): string {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(crc32(Buffer.from(prefixAndSecret, 'utf8')));
  return b.toString('hex');
}

/**
 * SHA-256 of a bearer secret, hex-encoded: what is stored, and what a lookup searches for.
 *
 * @example
 *   hashToken('svcsa_0123…_1a2b3c4d'); // '9f86d08…' (64 hex characters)
 */
export function hashToken(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new service-account token: `key` is shown to the user once, `hashedKey` is what is stored. */
export interface ServiceAccountToken {
  key: string;
  hashedKey: string;
}

/**
 * Generates a service-account token in the anchor's format (its `glsa_` keys) with our brand.
 *
 * @example
 *   const { key, hashedKey } = generateServiceAccountToken();
 *   // key: 'svcsa_3kTMd4mRZbMxL0a9Xq2Yw7VnB8cPe1fG_5c0e8a21'; store hashedKey, return key once
 */
export function generateServiceAccountToken(): ServiceAccountToken {
  const body = SERVICE_ACCOUNT_TOKEN_PREFIX + randomBase62(SECRET_LENGTH);
  const key = `${body}_${checksum(body)}`;
  return { key, hashedKey: hashToken(key) };
}

/** What a presented bearer string is: a well-formed service-account token (and the digest to look up), or not. */
export type ParsedServiceAccountToken =
  | { valid: true; hashedKey: string }
  | { valid: false; reason: 'prefix' | 'format' | 'checksum' };

const TOKEN_SHAPE = /^svcsa_([0-9A-Za-z]{32})_([0-9a-f]{8})$/;

/**
 * Checks a presented key's shape and checksum before any database work; only a valid key is worth a lookup of
 * its `hashedKey`.
 *
 * @example
 *   parseServiceAccountToken(key); // { valid: true, hashedKey: '…' }
 *   parseServiceAccountToken('svcsa_abc_00000000'); // { valid: false, reason: 'format' }
 *   parseServiceAccountToken('eyJrIjoi…'); // { valid: false, reason: 'prefix' }
 */
export function parseServiceAccountToken(key: string): ParsedServiceAccountToken {
  if (!key.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX)) return { valid: false, reason: 'prefix' };
  const m = TOKEN_SHAPE.exec(key);
  if (!m) return { valid: false, reason: 'format' };
  if (checksum(SERVICE_ACCOUNT_TOKEN_PREFIX + m[1]) !== m[2]) return { valid: false, reason: 'checksum' };
  return { valid: true, hashedKey: hashToken(key) };
}

/** A new login session: `token` goes into the cookie, `hashed` into the auth-token record. */
export interface SessionToken {
  token: string;
  hashed: string;
}

/**
 * Generates a session secret: 32 random bytes, base64url (43 characters, cookie-safe).
 *
 * @example
 *   const { token, hashed } = generateSessionToken();
 *   res.cookie('svc_session', token, { httpOnly: true, sameSite: 'lax' }); // store `hashed`
 *   // on each request: find the record whose hash is hashToken(cookieValue)
 */
export function generateSessionToken(): SessionToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hashed: hashToken(token) };
}
