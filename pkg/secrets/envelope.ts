import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The envelope format: a secret is AES-256-GCM-encrypted with a data key and stored as `#<data key id>#<payload>`,
 * the payload being base64 of nonce (12 bytes) | ciphertext | tag (16 bytes), the key id bound as additional data.
 * A data key is itself stored wrapped (AES-256-GCM) by a key-encryption key derived from a `security.secret_key`.
 *
 * @example
 *   const sealed = seal({ id: 'k1', key: randomBytes(32) }, 'p4ss'); // '#k1#…'
 *   open(key, parseEnvelope(sealed)!.payload, 'k1'); // 'p4ss'
 */
export interface DataKey {
  id: string;
  /** 32 random bytes. */
  key: Buffer;
}

/** A key-encryption key, derived from one configured secret key, and the id that names it (not secret). */
export interface KeyEncryptionKey {
  id: string;
  key: Buffer;
}

const NONCE = 12;
const TAG = 16;
const SALT = Buffer.from('dashboard-apiserver/secrets');

/** The KEK derived from `secret` (HKDF-SHA256), with an id that tells which configured secret wrapped a data key. */
export function deriveKek(secret: string): KeyEncryptionKey {
  const key = Buffer.from(hkdfSync('sha256', secret, SALT, 'data key wrapping', 32));
  const id = Buffer.from(hkdfSync('sha256', secret, SALT, 'data key wrapping id', 8)).toString('hex');
  return { id, key };
}

/** A new random data key; its id sorts after every earlier one's (the newest key is the active one). */
export function newDataKey(now = Date.now()): DataKey {
  return { id: `${now.toString(36).padStart(9, '0')}-${randomBytes(5).toString('hex')}`, key: randomBytes(32) };
}

function gcmEncrypt(key: Buffer, plaintext: Buffer, aad: string): string {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/** @throws Error when the payload was not made with this key and additional data (tampered, or another key). */
function gcmDecrypt(key: Buffer, payload: string, aad: string): Buffer {
  const raw = Buffer.from(payload, 'base64');
  if (raw.length < NONCE + TAG) throw new Error('malformed ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(raw.subarray(raw.length - TAG));
  return Buffer.concat([decipher.update(raw.subarray(NONCE, raw.length - TAG)), decipher.final()]);
}

/** `plaintext` sealed with `dataKey`: `#<id>#<payload>`. */
export function seal(dataKey: DataKey, plaintext: string): string {
  return `#${dataKey.id}#${gcmEncrypt(dataKey.key, Buffer.from(plaintext, 'utf8'), dataKey.id)}`;
}

/** The clear text of an envelope's payload. @throws Error when it was not sealed with `key` under `keyId`. */
export function open(key: Buffer, payload: string, keyId: string): string {
  return gcmDecrypt(key, payload, keyId).toString('utf8');
}

/** The data key id and payload of an envelope; undefined for anything else (the legacy scheme's base64). */
export function parseEnvelope(ciphertext: string): { keyId: string; payload: string } | undefined {
  const m = /^#([a-z0-9-]{1,63})#([A-Za-z0-9+/=]+)$/.exec(ciphertext);
  return m ? { keyId: m[1]!, payload: m[2]! } : undefined;
}

/** A data key wrapped by a KEK, bound to its id (a wrapped key moved to another id does not unwrap). */
export function wrapKey(kek: KeyEncryptionKey, dataKey: DataKey): string {
  return gcmEncrypt(kek.key, dataKey.key, dataKey.id);
}

/** @throws Error when `wrapped` was not wrapped by `kek` for `id`. */
export function unwrapKey(kek: KeyEncryptionKey, id: string, wrapped: string): DataKey {
  return { id, key: gcmDecrypt(kek.key, wrapped, id) };
}
