import { createPublicKey } from 'node:crypto';
import { inSeconds, licenseAuthority, signLicense } from '../../test/support/license-tokens';
import { LicenseTokenError, sameInstance, tokenView, verifyLicenseToken } from './license-token';

const INSTANCE = 'https://svc.example.com/';
const es = licenseAuthority('ES256');
const rs = licenseAuthority('RS256');
const claims = (extra: Record<string, unknown> = {}) => ({ jti: 't1', lid: 'lic-1', sub: INSTANCE, iat: inSeconds(0), exp: inSeconds(3600), included_users: 10, prod: ['svc-enterprise'], ...extra });
const verifyWith = (token: string, pem = es.publicPem) => verifyLicenseToken(token, createPublicKey(pem), { instance: INSTANCE });
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(LicenseTokenError);
    return (err as Error).message;
  }
  throw new Error('expected the token to be refused');
};

describe('verifyLicenseToken', () => {
  it('accepts an ES256 token of the authority and an RS256 one of an RSA authority', () => {
    // One set of claims: two calls of claims() a second apart differ in iat and exp.
    const signed = claims();
    expect(verifyWith(signLicense(es, signed))).toEqual({ alg: 'ES256', claims: signed });
    expect(verifyWith(signLicense(rs, claims()), rs.publicPem).alg).toBe('RS256');
  });

  it('refuses another signer, a changed payload, and an algorithm the key cannot verify', () => {
    expect(refusal(() => verifyWith(signLicense(licenseAuthority(), claims())))).toMatch(/signature is invalid/);
    const [h, , s] = signLicense(es, claims()).split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify(claims({ included_users: 1000 }))).toString('base64url')}.${s}`;
    expect(refusal(() => verifyWith(forged))).toMatch(/signature is invalid/);
    expect(refusal(() => verifyWith(signLicense(rs, claims())))).toMatch(/RS256, which the configured license public key cannot verify/);
    expect(refusal(() => verifyWith(signLicense(es, claims()), rs.publicPem))).toMatch(/ES256, which the configured license public key cannot verify/);
  });

  it('refuses alg none and HMAC whatever the signature', () => {
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.AA`;
    expect(refusal(() => verifyWith(none))).toMatch(/signed with "none": expected ES256 or RS256/);
    expect(refusal(() => verifyWith(signLicense(es, claims(), { alg: 'HS256' })))).toMatch(/signed with "HS256"/);
  });

  it('refuses what is no JWT, and claims of the wrong shape', () => {
    expect(refusal(() => verifyWith('not a token'))).toMatch(/malformed: expected a JWT/);
    expect(refusal(() => verifyWith('a.b.c'))).toMatch(/malformed: its header is not base64url-encoded JSON/);
    expect(refusal(() => verifyWith(signLicense(es, { ...claims(), lid: undefined })))).toMatch(/claim lid/);
    expect(refusal(() => verifyWith(signLicense(es, claims({ exp: 'tomorrow' }))))).toMatch(/claim exp/);
    expect(refusal(() => verifyWith(signLicense(es, claims({ company: 'a\u0000b' }))))).toMatch(/claim company contains a NUL character/);
  });

  it('refuses a token not yet valid, expired, of an expired license, or for another instance', () => {
    expect(refusal(() => verifyWith(signLicense(es, claims({ nbf: inSeconds(600) }))))).toMatch(/not valid yet/);
    expect(refusal(() => verifyWith(signLicense(es, claims({ exp: inSeconds(-1) }))))).toMatch(/License token has expired/);
    expect(refusal(() => verifyWith(signLicense(es, claims({ lexp: inSeconds(-1) }))))).toMatch(/License has expired/);
    expect(refusal(() => verifyWith(signLicense(es, claims({ sub: 'https://other.example.com/' }))))).toMatch(/for https:\/\/other.example.com\/, not for this instance/);
  });
});

it('sameInstance ignores the final slash and the host\'s case', () => {
  expect(sameInstance('https://SVC.example.com', INSTANCE)).toBe(true);
  expect(sameInstance('https://svc.example.com/sub/', 'https://svc.example.com/sub')).toBe(true);
  expect(sameInstance('https://svc.example.com/sub/', INSTANCE)).toBe(false);
});

it('tokenView answers the anchor\'s Token fields only', () => {
  expect(tokenView({ ...claims(), secret_note: 'x' })).toEqual(claims());
});
