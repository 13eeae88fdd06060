import { z } from 'zod';

/**
 * A data key of the envelope encryption (pkg/secrets), the anchor's `data_keys` row: 32 random bytes that encrypt
 * secrets, stored only wrapped by the key-encryption key derived from a `security.secret_key`. The newest key (names
 * sort by creation) is the active one.
 */
export const dataKeySpecSchema = z.looseObject({
  /** base64 of the wrapped key (AES-256-GCM under the KEK, bound to the key's name). */
  encryptedKey: z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64').min(1),
  /** The id of the KEK that wrapped it: which configured secret key unwraps it. */
  keyEncryptionKey: z.string().regex(/^[0-9a-f]{16}$/, 'must be 16 hexadecimal digits'),
});

export type DataKeySpec = z.infer<typeof dataKeySpecSchema>;
