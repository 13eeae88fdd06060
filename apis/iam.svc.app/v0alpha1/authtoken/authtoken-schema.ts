import { z } from 'zod';

/**
 * A login session (an auth token, spec §2.14). The session secret itself is never stored: the object's name is
 * a digest of it (`sessionName` in pkg/auth/authentication/sessions.ts), so the cookie finds its record with one keyed read.
 */
export const authTokenSpecSchema = z.looseObject({
  /** The numeric id of the user the session signs in. */
  userId: z.number().int().positive(),
  clientIp: z.string().default(''),
  /** The User-Agent the session was created with; browser, OS and device are read from it when listed. */
  userAgent: z.string().default(''),
  /** When the session was created, RFC 3339 with milliseconds. */
  createdAt: z.iso.datetime(),
  /** The last request seen with it, written at most once a minute. */
  seenAt: z.iso.datetime(),
});

export type AuthTokenSpec = z.infer<typeof authTokenSpecSchema>;
