import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt from node:crypto: memory-hard, and no native addon to build (argon2's prebuilt
 * binaries crash on these machines). The parameters travel inside the encoded hash, so they can be raised later
 * without invalidating stored passwords: {@link needsRehash} says when to re-hash after a successful login.
 * Passwords are NFC-normalised first (as RFC 8265's OpaqueString does), so the same password typed on two systems
 * that compose accents differently still matches.
 */

/** The cost we hash new passwords with. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. Memory used is 128 × N × r bytes (32 MiB here). */
  N: number;
  r: number;
  p: number;
}

/**
 * N = 2^15, r = 8, p = 1: about 90 ms and 32 MiB per hash on this machine (Node 20.20, 2 vCPU, scryptSync, mean of
 * 5 runs: 2^14 ≈ 41 ms, 2^15 ≈ 91 ms, 2^16 ≈ 184 ms, 2^17 ≈ 372 ms). OWASP's floor is 2^17; at ~370 ms of a
 * 2-CPU server per basic-auth request that is too dear for API clients that send a password on every call, so we
 * take 2^15 and rely on the login throttle (login-throttle.ts) against online guessing. Hashing runs on libuv's
 * thread pool (4 threads by default), which it shares with fs and dns work.
 */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds for parameters read back from storage: a tampered row must not make us allocate gigabytes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

function derive(plain: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is exactly 128·N·r for 2^15/8 and OpenSSL needs a little more: allow twice that.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(plain.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * Hashes a password with a fresh random 16-byte salt (~90 ms with the default parameters here).
 *
 * @example
 *   const encoded = await hashPassword('correct horse battery staple');
 *   // 'scrypt$32768$8$1$<salt base64>$<hash base64>'
 */
export async function hashPassword(plain: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(plain, salt, KEY_BYTES, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface Decoded {
  params: ScryptParams;
  salt: Buffer;
  hash: Buffer;
}

const B64 = /^[A-Za-z0-9+/]+={0,2}$/;

function parseIntStrict(s: string | undefined): number {
  return s !== undefined && /^[1-9][0-9]{0,9}$/.test(s) ? Number(s) : NaN;
}

/** Reads an encoded hash; undefined when it is not one we wrote or its parameters are out of bounds. */
function decode(encoded: string): Decoded | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = [parseIntStrict(parts[1]), parseIntStrict(parts[2]), parseIntStrict(parts[3])];
  const powerOfTwo = Number.isInteger(Math.log2(N));
  if (!(N >= 2 && N <= MAX_N && powerOfTwo && r >= 1 && r <= MAX_R && p >= 1 && p <= MAX_P)) return undefined;
  const [salt64, hash64] = [parts[4] ?? '', parts[5] ?? ''];
  if (!B64.test(salt64) || !B64.test(hash64)) return undefined;
  const salt = Buffer.from(salt64, 'base64');
  const hash = Buffer.from(hash64, 'base64');
  if (salt.length < 8 || hash.length < 16 || hash.length > 64) return undefined;
  return { params: { N, r, p }, salt, hash };
}

/**
 * Checks a password against an encoded hash in constant time. Malformed or foreign encodings answer false, never
 * throw, so a corrupt row reads as a wrong password rather than a 500.
 *
 * @example
 *   await verifyPassword('correct horse battery staple', encoded); // true
 *   await verifyPassword('wrong', encoded); // false
 *   await verifyPassword('x', 'md5$abc'); // false
 */
export async function verifyPassword(plain: string, encoded: string): Promise<boolean> {
  const decoded = decode(encoded);
  if (!decoded) return false;
  let key: Buffer;
  try {
    key = await derive(plain, decoded.salt, decoded.hash.length, decoded.params);
  } catch {
    return false;
  }
  return timingSafeEqual(key, decoded.hash);
}

/**
 * Whether a stored hash was made with other parameters than the current ones (or is unreadable), so the caller
 * re-hashes the password it just verified.
 *
 * @example
 *   if ((await verifyPassword(plain, stored)) && needsRehash(stored)) await save(await hashPassword(plain));
 */
export function needsRehash(encoded: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const decoded = decode(encoded);
  if (!decoded) return true;
  const { N, r, p } = decoded.params;
  return N !== params.N || r !== params.r || p !== params.p || decoded.hash.length !== KEY_BYTES;
}
