import { z } from 'zod';

/**
 * When a user was last active (the anchor's `user.last_seen_at`): any authenticated request or sign-in, written at
 * most once a minute per user and replica (pkg/auth/authentication/last-seen.ts). Kept apart from the User, so activity neither
 * bumps the user's generation and `updated` nor contends with edits of the user.
 */
export const lastSeenSpecSchema = z.looseObject({
  /** The latest activity seen, RFC 3339 with milliseconds. */
  seenAt: z.iso.datetime(),
});

export type LastSeenSpec = z.infer<typeof lastSeenSpecSchema>;
