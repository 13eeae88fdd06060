import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes, randomInt } from 'node:crypto';

/**
 * The anchor's legacy scheme, which `rollback-secrets` writes so that an older server can read the secrets again:
 * a secret encrypted directly with `security.secret_key` (no data key), as the anchor's `util.Encrypt` does it:
 * an 8-character alphanumeric salt, the key PBKDF2-SHA256(secret_key, salt, 10000 iterations, 32 bytes), AES-256
 * in CFB mode with a random 16-byte IV, stored as base64 of salt | IV | ciphertext.
 *
 * CFB has no authentication: a value decrypted with another secret key than the one that encrypted it gives garbage,
 * not an error. Only rollback writes it; `reencrypt-secrets` moves such values back to envelope encryption.
 *
 * @example legacyDecrypt(legacyEncrypt('p4ss', 'SW2YcwTIb9zpOOhoPsMm'), 'SW2YcwTIb9zpOOhoPsMm') // 'p4ss'
 */
const SALT_LENGTH = 8;
const IV_LENGTH = 16;
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const keyOf = (secret: string, salt: Buffer) => pbkdf2Sync(Buffer.from(secret, 'utf8'), salt, 10000, 32, 'sha256');

export function legacyEncrypt(plaintext: string, secret: string): string {
  const salt = Buffer.from(Array.from({ length: SALT_LENGTH }, () => ALPHANUMERIC[randomInt(ALPHANUMERIC.length)]).join(''));
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-cfb', keyOf(secret, salt), iv);
  return Buffer.concat([salt, iv, cipher.update(Buffer.from(plaintext, 'utf8')), cipher.final()]).toString('base64');
}

/** @throws Error when `ciphertext` is no legacy blob (not base64, or shorter than salt and IV). */
export function legacyDecrypt(ciphertext: string, secret: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(ciphertext)) throw new Error('malformed ciphertext');
  const raw = Buffer.from(ciphertext, 'base64');
  if (raw.length < SALT_LENGTH + IV_LENGTH) throw new Error('malformed ciphertext');
  const salt = raw.subarray(0, SALT_LENGTH);
  const decipher = createDecipheriv('aes-256-cfb', keyOf(secret, salt), raw.subarray(SALT_LENGTH, SALT_LENGTH + IV_LENGTH));
  return Buffer.concat([decipher.update(raw.subarray(SALT_LENGTH + IV_LENGTH)), decipher.final()]).toString('utf8');
}
