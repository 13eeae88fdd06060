import { z } from 'zod';

/**
 * A service-account token. Only the SHA-256 digest of its key is stored (pkg/auth/authentication/tokens.ts); the key itself is
 * shown once, when the token is made. Tokens are global (identity namespace) so that a presented key is found
 * by its digest alone, without knowing its organization.
 */
export const serviceAccountTokenSpecSchema = z.looseObject({
  /** The token's name (unique in the organization, as the anchor requires). */
  title: z.string().refine((n) => n.trim() !== '', 'title cannot be empty'),
  orgId: z.number().int().positive(),
  /** The uid (object name) of the service account the token authenticates as. */
  serviceAccountUid: z.string().min(1),
  /** Hex SHA-256 of the key; never returned (the strategy's `decorate` drops it). */
  hashedKey: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** RFC 3339; null = never expires. */
  expires: z.string().nullable().default(null),
  /** RFC 3339 of the last request it authenticated; null = never used. */
  lastUsedAt: z.string().nullable().default(null),
});

export type ServiceAccountTokenSpec = z.infer<typeof serviceAccountTokenSpecSchema>;
