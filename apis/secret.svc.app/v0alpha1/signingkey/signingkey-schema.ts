import { z } from 'zod';

/** The key under `spec.secure` holding the private key: PKCS#8 PEM, encrypted at rest, never in an answer. */
export const SECURE_PRIVATE_KEY = 'privateKey';

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be base64url');

/**
 * A signing key of the server, the anchor's `signing_key` row: an ES256 (ECDSA P-256) key pair whose public half is
 * published in the JSON Web Key Set (`GET /api/signing-keys/keys`). The object's name is the key id (`kid`).
 */
export const signingKeySpecSchema = z.looseObject({
  alg: z.literal('ES256'),
  /** The public key as a JWK (what the key set publishes; not secret). */
  publicKey: z.looseObject({ kty: z.literal('EC'), crv: z.literal('P-256'), x: base64url, y: base64url }),
  /** When the key stops being published (RFC 3339); a newer key signs before then. */
  expiresAt: z.iso.datetime({ offset: true }),
  secure: z.record(z.string(), z.string()).optional().describe('write-only: {privateKey: "<PKCS#8 PEM>"}'),
  secureFields: z.record(z.string(), z.boolean()).optional().describe('set by the server'),
});

export type SigningKeySpec = z.infer<typeof signingKeySpecSchema>;
