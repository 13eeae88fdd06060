import { z } from 'zod';

/** The key under `spec.secure` holding the license token (the signed JWT): encrypted at rest, never in an answer. */
export const SECURE_LICENSE_TOKEN = 'token';

/**
 * The license installed on this server (`POST /api/licensing/token`): the claims of its token as verified when it was
 * installed (what `GET /api/licensing/token` answers), the token itself a secure value (renewal sends it to the
 * license server). The object's name is always `license`: one per installation.
 */
export const licenseSpecSchema = z.looseObject({
  /** The verified JWT payload: jti, lid, sub (the instance's root URL), exp, nbf, included_users, prod, status... */
  claims: z.looseObject({
    lid: z.string().min(1),
    sub: z.string().min(1),
    exp: z.number().int(),
  }),
  /** The signing algorithm of the token (its header's `alg`). */
  alg: z.enum(['ES256', 'RS256']),
  secure: z.record(z.string(), z.string()).optional().describe('write-only: {token: "<the license JWT>"}'),
  secureFields: z.record(z.string(), z.boolean()).optional().describe('set by the server'),
});

export type LicenseSpec = z.infer<typeof licenseSpecSchema>;
