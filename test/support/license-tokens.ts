import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** A license authority of the tests: its key pair and the PEM of its public key (what `[enterprise] license_public_key` holds). */
export interface LicenseAuthority {
  alg: 'ES256' | 'RS256';
  privateKey: KeyObject;
  publicPem: string;
}

/** A new authority signing with ES256 (ECDSA P-256) or RS256 (RSA 2048). */
export function licenseAuthority(alg: 'ES256' | 'RS256' = 'ES256'): LicenseAuthority {
  const { privateKey, publicKey } = alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { alg, privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * A compact JWS of `claims`, signed by `by` (or with the header `header` says, for tokens that must be refused).
 *
 * @example signLicense(authority, { lid: 'l1', sub: 'http://localhost:3000/', exp: now + 3600 })
 */
export function signLicense(by: LicenseAuthority, claims: Record<string, unknown>, header: Record<string, unknown> = { alg: by.alg, typ: 'JWT' }): string {
  const data = `${b64(header)}.${b64(claims)}`;
  const sig = by.alg === 'ES256' ? sign('sha256', Buffer.from(data), { key: by.privateKey, dsaEncoding: 'ieee-p1363' }) : sign('sha256', Buffer.from(data), by.privateKey);
  return `${data}.${sig.toString('base64url')}`;
}

/** Unix seconds now, plus `s`. */
export const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;
