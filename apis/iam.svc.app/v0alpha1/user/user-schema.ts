import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';

/**
 * User spec (global: stored in the identity namespace, see `IDENTITY_NAMESPACE`). `passwordHash` is the scrypt
 * string of pkg/auth/authentication/password.ts; it is stored but never returned (the strategy's `decorate` drops it).
 */
export const userSpecSchema = z.looseObject({
  /** The stable identifier set at creation (the caller's identity is `user:<uid>`); the object name is the numeric id. */
  uid: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1 to 40 letters, digits, - or _'),
  login: z.string().trim().min(1, 'login is required').max(MAX_NAME_LENGTH),
  email: z.string().trim().max(MAX_NAME_LENGTH).default(''),
  name: z.string().max(MAX_NAME_LENGTH).default(''),
  isSvcAdmin: z.boolean().default(false),
  isDisabled: z.boolean().default(false),
  /** The organization the user acts in when a request names none (the legacy `orgId`). */
  orgId: z.number().int().positive().default(1),
  /** The help hints the user dismissed, one bit each (the anchor's `helpFlags1`, set by `PUT /api/user/helpflags/:id`). */
  helpFlags1: z.number().int().nonnegative().default(0),
  passwordHash: z.string().optional(),
});

export type UserSpec = z.infer<typeof userSpecSchema>;
