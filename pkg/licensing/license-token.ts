import { type KeyObject, verify } from 'node:crypto';
import { z } from 'zod';
import { jsonProblem } from '../meta';

/** The algorithms a license may be signed with: ECDSA P-256 or RSA PKCS#1 v1.5, both over SHA-256. */
export const LICENSE_ALGORITHMS = ['ES256', 'RS256'] as const;
export type LicenseAlgorithm = (typeof LICENSE_ALGORITHMS)[number];

/** Why a token is refused: the message a client gets (400 on install), naming what is wrong. */
export class LicenseTokenError extends Error {
  override name = 'LicenseTokenError';
}

const int = z.number().int();
/**
 * The anchor's license token claims (its `Token`): the ones a license must have (`lid`, `sub`, `exp`) and those it may;
 * other claims are kept as signed but not answered.
 */
export const licenseClaimsSchema = z.looseObject({
  /** The token's id: a renewed token has a new one. */
  jti: z.string().optional(),
  iss: z.string().optional(),
  /** The root URL of the instance the license is for (`[server] root_url`). */
  sub: z.string().min(1, 'must name the instance (its root URL)'),
  /** The license's id: the same across renewals. */
  lid: z.string().min(1, 'must be the license id'),
  iat: int.optional(),
  nbf: int.optional(),
  /** When the token expires (Unix seconds); renewal makes a new one. */
  exp: int,
  /** When the license expires (Unix seconds). */
  lexp: int.optional(),
  included_users: int.optional(),
  max_concurrent_user_sessions: int.optional(),
  prod: z.array(z.string()).optional(),
  status: int.optional(),
  account: z.string().optional(),
  company: z.string().optional(),
  slug: z.string().optional(),
  details_url: z.string().optional(),
  limit_by: z.string().optional(),
  lic_exp_warn_days: int.optional(),
  tok_exp_warn_days: int.optional(),
  update_days: int.optional(),
  trial: z.boolean().optional(),
  trial_exp: int.optional(),
  usage_billing: z.boolean().optional(),
});

export type LicenseClaims = z.infer<typeof licenseClaimsSchema>;

/** The claims `GET /api/licensing/token` answers: the anchor's Token fields, in its order. */
export const TOKEN_FIELDS = [
  'account', 'company', 'details_url', 'exp', 'iat', 'included_users', 'iss', 'jti', 'lexp', 'lic_exp_warn_days', 'lid', 'limit_by',
  'max_concurrent_user_sessions', 'nbf', 'prod', 'slug', 'status', 'sub', 'tok_exp_warn_days', 'trial', 'trial_exp', 'update_days', 'usage_billing',
] as const;

/** A verified license token. */
export interface VerifiedLicense {
  alg: LicenseAlgorithm;
  claims: LicenseClaims;
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function decodeJson(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    throw new LicenseTokenError(`License token is malformed: its ${what} is not base64url-encoded JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new LicenseTokenError(`License token is malformed: its ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** The key type each algorithm needs: a token signed otherwise is refused whatever it says. */
function keyFits(alg: LicenseAlgorithm, key: KeyObject): boolean {
  if (alg === 'RS256') return key.asymmetricKeyType === 'rsa';
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
}

/** `https://svc.example.com/` and `https://SVC.example.com` are one instance: origin and path, without the final slash. */
export function sameInstance(a: string, b: string): boolean {
  const norm = (u: string) => {
    if (!URL.canParse(u)) return u.replace(/\/+$/, '');
    const url = new URL(u);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  };
  return norm(a) === norm(b);
}

/**
 * Verifies a license token (a compact JWS): its signature with the license authority's public key (ES256 with an
 * ECDSA P-256 key, RS256 with an RSA key; `none`, HMAC and anything else are refused), its claims (`lid`, `sub`,
 * `exp` required), that it is valid now (`nbf` reached, `exp` and `lexp` not passed) and that it is for `instance`.
 *
 * @throws LicenseTokenError with the reason, fit to answer the client.
 * @example
 *   verifyLicenseToken(jwt, createPublicKey(pem), { instance: 'https://svc.example.com/' }).claims.lid; // 'lic-1'
 */
export function verifyLicenseToken(token: string, key: KeyObject, opts: { instance: string; now?: number }): VerifiedLicense {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) throw new LicenseTokenError('License token is malformed: expected a JWT (three base64url parts separated by dots)');
  const [head, body, signature] = parts as [string, string, string];
  const header = decodeJson(head, 'header');
  const alg = header.alg;
  if (typeof alg !== 'string' || !(LICENSE_ALGORITHMS as readonly string[]).includes(alg)) {
    throw new LicenseTokenError(`License token is signed with ${JSON.stringify(alg ?? null)}: expected ${LICENSE_ALGORITHMS.join(' or ')}`);
  }
  const algorithm = alg as LicenseAlgorithm;
  if (!keyFits(algorithm, key)) throw new LicenseTokenError(`License token is signed with ${algorithm}, which the configured license public key cannot verify`);
  const data = Buffer.from(`${head}.${body}`);
  const sig = Buffer.from(signature, 'base64url');
  let ok = false;
  try {
    ok = algorithm === 'ES256' ? sig.length === 64 && verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, sig) : verify('sha256', data, key, sig);
  } catch {
    // A signature of the wrong size for the key: as invalid as a wrong one.
  }
  if (!ok) throw new LicenseTokenError('License token signature is invalid: it was not signed by the license authority this server trusts');
  const payload = decodeJson(body, 'payload');
  // What PostgreSQL cannot store (NUL, lone surrogates) is refused here, not by the database.
  const problem = jsonProblem(payload, { maxDepth: 10 });
  if (problem) throw new LicenseTokenError(`License token is malformed: claim ${problem.path || '(payload)'} ${problem.message}`);
  const parsed = licenseClaimsSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LicenseTokenError(`License token is malformed: claim ${issue.path.join('.') || '(payload)'} ${issue.message}`);
  }
  const claims = parsed.data;
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  if (claims.nbf !== undefined && claims.nbf > now) throw new LicenseTokenError(`License token is not valid yet: valid from ${new Date(claims.nbf * 1000).toISOString()}`);
  if (claims.exp <= now) throw new LicenseTokenError(`License token has expired: it expired at ${new Date(claims.exp * 1000).toISOString()}`);
  if (claims.lexp !== undefined && claims.lexp <= now) throw new LicenseTokenError(`License has expired: it expired at ${new Date(claims.lexp * 1000).toISOString()}`);
  if (!sameInstance(claims.sub, opts.instance)) throw new LicenseTokenError(`License token is for ${claims.sub}, not for this instance (${opts.instance})`);
  return { alg: algorithm, claims };
}

/** The claims as `GET /api/licensing/token` answers them: the anchor's Token fields only. */
export function tokenView(claims: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of TOKEN_FIELDS) if (claims[f] !== undefined) out[f] = claims[f];
  return out;
}
