/**
 * The enterprise edition's SAML service provider through HTTP, against an identity provider in the test process
 * (test/identity/saml-idp.ts: its own key and certificate, its metadata served over HTTP, responses signed with
 * xml-crypto): metadata, the AuthnRequest redirect, sign-in by a valid assertion, the refusals, role mapping,
 * allow_sign_up (changed through PUT /api/admin/settings, read by another replica), logout and single logout, and
 * the 404 of the open-source edition and of SAML off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest, { type Response } from 'supertest';
import { silentLogger } from '../../pkg/log';
import { composeServer } from '../../pkg/server/server';
import { startTestApp, type TestApp } from '../support/app';
import { createUser } from '../support/users';
import { keyAndCert, type KeyAndCert, redirectMessage, rootAttribute, TestIdp } from './saml-idp';

const ROOT = 'http://localhost:3000/';
const ENTITY = `${ROOT}api/saml/metadata`;
const ACS = `${ROOT}api/saml/acs`;
const SLO = `${ROOT}api/saml/slo`;

let idp: TestIdp;
let sp: KeyAndCert;
let other: KeyAndCert;
let dir: string;
let t: TestApp;

beforeAll(async () => {
  [idp, sp, other] = await Promise.all([TestIdp.start(), keyAndCert('svc SP'), keyAndCert('someone else')]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-saml-'));
  fs.writeFileSync(path.join(dir, 'sp.key'), sp.key);
  t = await startTestApp([
    '--server.edition=enterprise',
    '--auth.saml.enabled=true',
    // The certificate as base64 of its PEM (the anchor's form), the key from a file.
    `--auth.saml.certificate=${Buffer.from(sp.cert).toString('base64')}`,
    `--auth.saml.private_key_path=${path.join(dir, 'sp.key')}`,
    `--auth.saml.idp_metadata_url=${idp.metadataUrl}`,
    '--auth.saml.signature_algorithm=rsa-sha256',
    '--auth.saml.assertion_attribute_login=login',
    '--auth.saml.assertion_attribute_role=Role',
    '--auth.saml.role_values_editor=editor,developer',
    '--auth.saml.role_values_admin=admin',
    '--auth.saml.role_values_svc_admin=superadmin',
    '--auth.saml.single_logout=true',
  ]);
});
afterAll(async () => {
  await t.close();
  await idp.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** GET /login/saml → the ID of the AuthnRequest it sends the browser to the IdP with. */
async function authnRequestId(app = t.app): Promise<string> {
  const res = await supertest(app).get('/login/saml');
  expect(res.status).toBe(302);
  return rootAttribute(redirectMessage(res.headers.location!), 'ID')!;
}

const attributes = (login: string, extra: Record<string, string[]> = {}) => ({ login: [login], mail: [`${login}@example.com`], displayName: [`${login} Example`], ...extra });

/** POSTs a SAMLResponse to the ACS as a browser's form does. */
const postAcs = (samlResponse: string, app = t.app) => supertest(app).post('/api/saml/acs').type('form').send({ SAMLResponse: samlResponse });

function sessionCookie(res: Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('svc_session='));
  if (!header) throw new Error(`no session cookie: ${res.status} ${JSON.stringify(res.body)}`);
  return header.split(';')[0]!;
}

/** A full SP-initiated sign-in: the session cookie it ends with. */
async function signIn(login: string, extra: Record<string, string[]> = {}, sessionIndex?: string): Promise<string> {
  const id = await authnRequestId();
  const res = await postAcs(idp.response({ inResponseTo: id, audience: ENTITY, acs: ACS, nameID: `nid-${login}`, attributes: attributes(login, extra), sessionIndex }));
  expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: '/' });
  return sessionCookie(res);
}

/** Whether the answer starts a session (a session cookie with a value; clearing it is no sign-in). */
const hasSetCookie = (res: Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).some((c) => /^svc_session=[^;]/.test(c));

describe('metadata and the AuthnRequest', () => {
  it('serves the SP metadata: entity id, ACS and SLO URLs under root_url, the SP certificate', async () => {
    const res = await t.anonymous.get('/api/saml/metadata');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const xml = res.text;
    expect(xml).toContain(`entityID="${ENTITY}"`);
    expect(xml).toMatch(new RegExp(`<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${ACS}"`));
    expect(xml).toMatch(new RegExp(`<SingleLogoutService[^>]*Location="${SLO}"`));
    expect(xml.replace(/\s+/g, '')).toContain(sp.cert.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''));
    expect(xml).not.toContain('PRIVATE KEY');
    // metadata_valid_duration: 48h from now.
    const validUntil = Date.parse(/validUntil="([^"]+)"/.exec(xml)![1]!);
    expect(Math.abs(validUntil - (Date.now() + 48 * 3600_000))).toBeLessThan(60_000);
  });

  it('GET /login/saml redirects to the IdP with a signed AuthnRequest for this SP', async () => {
    const res = await t.anonymous.get('/login/saml');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location!);
    expect(`${location.origin}${location.pathname}`).toBe(idp.ssoUrl);
    expect(location.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(location.searchParams.get('Signature')).toBeTruthy();
    const xml = redirectMessage(res.headers.location!);
    expect(xml).toContain('AuthnRequest');
    expect(rootAttribute(xml, 'AssertionConsumerServiceURL')).toBe(ACS);
    expect(xml).toContain(`>${ENTITY}</saml:Issuer>`);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:nameid-format:transient');
    expect(rootAttribute(xml, 'ID')).toMatch(/^_[A-Za-z0-9_-]+$/);
  });
});

describe('POST /api/saml/acs', () => {
  it('signs in the user a valid assertion names, creating it: GET /api/user answers that user', async () => {
    expect(await t.users.userByLoginOrEmail('ana')).toBeUndefined();
    const cookie = await signIn('ana');
    const me = await t.anonymous.get('/api/user').set('Cookie', cookie);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ login: 'ana', email: 'ana@example.com', name: 'ana Example', isSvcAdmin: false });
    // No role attribute: the default org and role.
    const orgs = await t.anonymous.get('/api/user/orgs').set('Cookie', cookie);
    expect(orgs.body).toEqual([expect.objectContaining({ orgId: 1, role: 'Viewer' })]);
    // The session is an ordinary login session.
    const tokens = await t.anonymous.get('/api/user/auth-tokens').set('Cookie', cookie);
    expect(tokens.body).toHaveLength(1);
  });

  it('signs an existing user in again, taking the name the assertion gives', async () => {
    await signIn('bea');
    const cookie = await signIn('bea', { displayName: ['Bea Renamed'] });
    expect((await t.anonymous.get('/api/user').set('Cookie', cookie)).body).toMatchObject({ login: 'bea', name: 'Bea Renamed' });
    expect((await t.users.listUsers()).filter((u) => u.login === 'bea')).toHaveLength(1);
  });

  it('maps role attribute values to org roles, and role_values_svc_admin to a server admin', async () => {
    const editor = await signIn('eve', { Role: ['developer'] });
    expect((await t.anonymous.get('/api/user/orgs').set('Cookie', editor)).body).toEqual([expect.objectContaining({ orgId: 1, role: 'Editor' })]);
    const admin = await signIn('ada', { Role: ['staff', 'admin'] });
    expect((await t.anonymous.get('/api/user/orgs').set('Cookie', admin)).body).toEqual([expect.objectContaining({ orgId: 1, role: 'Admin' })]);
    const root = await signIn('sue', { Role: ['superadmin'] });
    expect((await t.anonymous.get('/api/user').set('Cookie', root)).body.isSvcAdmin).toBe(true);
    // A later login with another role changes it (role sync).
    const again = await signIn('eve', { Role: ['admin'] });
    expect((await t.anonymous.get('/api/user/orgs').set('Cookie', again)).body).toEqual([expect.objectContaining({ orgId: 1, role: 'Admin' })]);
  });

  const refusals: [string, () => Promise<string>][] = [
    ['signed by another key', async () => idp.response({ inResponseTo: await authnRequestId(), audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('mallory'), signWith: other })],
    ['expired', async () => idp.response({ inResponseTo: await authnRequestId(), audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('mallory'), issuedAt: Date.now() - 3600_000 })],
    ['for another audience', async () => idp.response({ inResponseTo: await authnRequestId(), audience: 'https://other-sp.example/metadata', acs: ACS, nameID: 'x', attributes: attributes('mallory') })],
    ['from another issuer', async () => idp.response({ inResponseTo: await authnRequestId(), audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('mallory'), issuer: 'https://evil.example' })],
    ['answering no AuthnRequest of ours', async () => idp.response({ inResponseTo: '_made-up-request-id-0123456789abcdefghijklmnop', audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('mallory') })],
    ['unsolicited (allow_idp_initiated is false)', async () => idp.response({ audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('mallory') })],
    ['tampered with after signing', async () => Buffer.from(Buffer.from(idp.response({ inResponseTo: await authnRequestId(), audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('someone') }), 'base64').toString().replaceAll('someone', 'mallory')).toString('base64')],
    ['not XML', async () => Buffer.from('<not xml').toString('base64')],
    ['missing', async () => ''],
  ];
  it.each(refusals)('refuses a response %s: 403, nobody created or signed in', async (_label, make) => {
    const before = (await t.users.listUsers()).length;
    const res = await postAcs(await make());
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { message: 'Authentication failed' } });
    expect(hasSetCookie(res)).toBe(false);
    expect(await t.users.userByLoginOrEmail('mallory')).toBeUndefined();
    expect((await t.users.listUsers()).length).toBe(before);
  });

  it('refuses a body that is no form (400) and one over the body limit (413), never 5xx', async () => {
    const bad = await t.anonymous.post('/api/saml/acs').type('form').send('SAMLResponse=%E0%A4%A');
    expect([400, 403]).toContain(bad.status);
    const big = await t.anonymous.post('/api/saml/acs').type('form').send(`SAMLResponse=${'A'.repeat(11 * 1024 * 1024)}`);
    expect(big.status).toBe(413);
  });

  it('maps org attribute values by org_mapping, and refuses a user of no allowed_organizations (403)', async () => {
    const org2 = await t.users.createOrg({ identity: 'service:test' }, 'Engineering Org');
    const put = await t.as.put('/api/admin/settings').send({ updates: { 'auth.saml': { assertion_attribute_org: 'Org', org_mapping: `Engineering:${org2.id}:Editor, *:1`, allowed_organizations: 'Engineering Sales' } } });
    expect(put.status).toBe(200);
    try {
      const cookie = await signIn('otto', { Org: ['Engineering'], Role: ['admin'] });
      const orgs = (await t.anonymous.get('/api/user/orgs').set('Cookie', cookie)).body as { orgId: number; role: string }[];
      // Engineering's entry names its role; `*:1` takes the role attribute's.
      expect(orgs.map((o) => [o.orgId, o.role]).sort()).toEqual([[1, 'Admin'], [org2.id, 'Editor']].sort());
      const res = await postAcs(idp.response({ inResponseTo: await authnRequestId(), audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('mara', { Org: ['Marketing'] }) }));
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { message: 'User does not belong to an allowed organization' } });
      expect(await t.users.userByLoginOrEmail('mara')).toBeUndefined();
    } finally {
      await t.as.put('/api/admin/settings').send({ removals: { 'auth.saml': ['assertion_attribute_org', 'org_mapping', 'allowed_organizations'] } });
    }
  });

  it('allow_sign_up=false (PUT /api/admin/settings) refuses a first login on every replica, without a restart; existing users still sign in', async () => {
    // Another replica: the same database, a server of its own.
    const replica = await composeServer(t.config, silentLogger, t.storage, { version: 'test', commit: 'test' });
    const put = await t.as.put('/api/admin/settings').send({ updates: { 'auth.saml': { allow_sign_up: 'false' } } });
    expect(put.status).toBe(200);
    try {
      const res = await postAcs(idp.response({ inResponseTo: await authnRequestId(replica.app), audience: ENTITY, acs: ACS, nameID: 'x', attributes: attributes('newcomer') }), replica.app);
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { message: 'Sign up is disabled' } });
      expect(hasSetCookie(res)).toBe(false);
      expect(await t.users.userByLoginOrEmail('newcomer')).toBeUndefined();
      // An existing user (made by the admin, not by SAML) signs in by its email.
      await createUser(t, 'carl', {}, { email: 'carl@example.com' });
      const ok = await postAcs(idp.response({ inResponseTo: await authnRequestId(replica.app), audience: ENTITY, acs: ACS, nameID: 'nid-carl', attributes: attributes('carl') }), replica.app);
      expect(ok.status).toBe(302);
      expect((await supertest(replica.app).get('/api/user').set('Cookie', sessionCookie(ok))).body.login).toBe('carl');
    } finally {
      await t.as.put('/api/admin/settings').send({ removals: { 'auth.saml': ['allow_sign_up'] } });
    }
  });
});

describe('PUT /api/admin/settings checks auth.saml values', () => {
  it.each([
    ['enabled', 'maybe'],
    ['max_issue_delay', 'soon'],
    ['signature_algorithm', 'rsa-md5'],
    ['idp_metadata_url', 'ftp://idp.example/metadata'],
    // The mask GET answers, sent back: it would replace the key.
    ['private_key', '*********'],
  ])('refuses %s = %j (400), storing nothing; SAML keeps working', async (key, value) => {
    const before = (await t.as.get('/api/admin/settings')).body['auth.saml'];
    const res = await t.as.put('/api/admin/settings').send({ updates: { 'auth.saml': { [key]: value } } });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message: `Invalid value for auth.saml.${key}` } });
    expect((await t.as.get('/api/admin/settings')).body['auth.saml']).toEqual(before);
    expect((await t.anonymous.get('/api/saml/metadata')).status).toBe(200);
  });
});

describe('logout', () => {
  it('GET /api/logout/saml ends the session and goes to the IdP with a LogoutRequest for its NameID and SessionIndex', async () => {
    const cookie = await signIn('lou', {}, '_session-lou');
    const res = await t.anonymous.get('/api/logout/saml').set('Cookie', cookie);
    expect(res.status).toBe(302);
    expect(res.headers.location!.startsWith(`${idp.sloUrl}?`)).toBe(true);
    const xml = redirectMessage(res.headers.location!);
    expect(xml).toContain('LogoutRequest');
    expect(xml).toContain('>nid-lou</');
    expect(xml).toContain('_session-lou');
    expect((await t.anonymous.get('/api/user').set('Cookie', cookie)).status).toBe(401);
  });

  it('GET /api/logout/saml without a SAML session goes to the login page', async () => {
    const res = await t.anonymous.get('/api/logout/saml');
    expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: '/login' });
  });

  it("the IdP's signed LogoutRequest (GET /api/saml/slo) ends that NameID's sessions and is answered with a LogoutResponse", async () => {
    const first = await signIn('max');
    const second = await signIn('max');
    const bystander = await signIn('nia');
    const res = await t.anonymous.get(`/api/saml/slo?${idp.logoutRequestQuery({ destination: SLO, nameID: 'nid-max', relayState: 'back' })}`);
    expect(res.status).toBe(302);
    expect(res.headers.location!.startsWith(`${idp.sloUrl}?`)).toBe(true);
    expect(new URL(res.headers.location!).searchParams.get('RelayState')).toBe('back');
    expect(redirectMessage(res.headers.location!, 'SAMLResponse')).toContain('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect((await t.anonymous.get('/api/user').set('Cookie', first)).status).toBe(401);
    expect((await t.anonymous.get('/api/user').set('Cookie', second)).status).toBe(401);
    expect((await t.anonymous.get('/api/user').set('Cookie', bystander)).status).toBe(200);
  });

  it('refuses an unsigned or forged LogoutRequest (403): the sessions stay', async () => {
    const cookie = await signIn('olga');
    const unsigned = await t.anonymous.get(`/api/saml/slo?${idp.logoutRequestQuery({ destination: SLO, nameID: 'nid-olga', unsigned: true })}`);
    expect({ status: unsigned.status, body: unsigned.body }).toEqual({ status: 403, body: { message: 'Authentication failed' } });
    const forged = idp.logoutRequestQuery({ destination: SLO, nameID: 'nid-someone' }).replace(/Signature=[^&]+/, `Signature=${encodeURIComponent(Buffer.alloc(256, 1).toString('base64'))}`);
    expect((await t.anonymous.get(`/api/saml/slo?${forged}`)).status).toBe(403);
    expect((await t.anonymous.get('/api/saml/slo')).status).toBe(400);
    expect((await t.anonymous.post('/api/saml/slo').type('form').send({})).status).toBe(400);
    expect((await t.anonymous.get('/api/user').set('Cookie', cookie)).status).toBe(200);
  });
});

describe('SAML off', () => {
  it('answers 404 everywhere while auth.saml is disabled, and serves again once PUT /api/admin/settings enables it', async () => {
    const off = await startTestApp(['--server.edition=enterprise', `--auth.saml.idp_metadata_url=${idp.metadataUrl}`, `--auth.saml.certificate=${sp.cert}`, `--auth.saml.private_key=${Buffer.from(sp.key).toString('base64')}`]);
    try {
      for (const [method, p] of [['get', '/login/saml'], ['get', '/api/saml/metadata'], ['post', '/api/saml/acs'], ['get', '/api/saml/slo'], ['post', '/api/saml/slo'], ['get', '/api/logout/saml']] as const) {
        const res = await off.anonymous[method](p);
        expect([p, res.status, res.body]).toEqual([p, 404, { message: 'Not found' }]);
      }
      expect((await off.as.put('/api/admin/settings').send({ updates: { 'auth.saml': { enabled: 'true' } } })).status).toBe(200);
      expect((await off.anonymous.get('/api/saml/metadata')).status).toBe(200);
      // single_logout is off: no SLO endpoint, and logout stays local.
      expect((await off.anonymous.get('/api/saml/slo')).status).toBe(404);
      expect((await off.anonymous.get('/api/logout/saml')).headers.location).toBe('/login');
      // Settings that cannot be used (a certificate that is none) are SAML off, not a 500.
      await off.as.put('/api/admin/settings').send({ updates: { 'auth.saml': { certificate: 'not a certificate' } } });
      expect((await off.anonymous.get('/api/saml/metadata')).status).toBe(404);
      expect((await off.anonymous.get('/login/saml')).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('the open-source edition serves none of it (404, as any unknown route), even with auth.saml enabled', async () => {
    const oss = await startTestApp(['--auth.saml.enabled=true', `--auth.saml.idp_metadata_url=${idp.metadataUrl}`, `--auth.saml.certificate=${sp.cert}`, `--auth.saml.private_key=${sp.key}`]);
    try {
      expect((await oss.anonymous.get('/login/saml')).status).toBe(404);
      // Under /api an unknown route asks for credentials first (401), then is 404.
      for (const [method, p] of [['get', '/api/saml/metadata'], ['post', '/api/saml/acs'], ['get', '/api/saml/slo'], ['get', '/api/logout/saml']] as const) {
        expect([p, (await oss.anonymous[method](p)).status, (await oss.as[method](p)).status]).toEqual([p, 401, 404]);
      }
    } finally {
      await oss.close();
    }
  });
});

describe('authorization rows: the SAML routes are anonymous, whoever calls gets the same answer', () => {
  // The matrix (authorization-matrix.test.ts) runs the open-source edition, where these routes are not served; these
  // are their rows in the enterprise edition. Credentials neither help nor hurt, and never sign anyone in.
  const callers: [string, (r: supertest.Test) => supertest.Test][] = [
    ['anonymous', (r) => r],
    ['viewer', (r) => r.auth('saml-viewer', 'password1')],
    ['server admin', (r) => r.auth('admin', 'admin')],
    ['bad credentials', (r) => r.auth('admin', 'wrong')],
    ['a bearer token that is none', (r) => r.set('Authorization', 'Bearer svcsa_nope')],
  ];
  const rows: [string, () => supertest.Test, number][] = [
    ['GET /login/saml', () => supertest(t.app).get('/login/saml'), 302],
    ['GET /api/saml/metadata', () => supertest(t.app).get('/api/saml/metadata'), 200],
    ['POST /api/saml/acs', () => supertest(t.app).post('/api/saml/acs').type('form').send({ SAMLResponse: 'x' }), 403],
    ['GET /api/saml/slo', () => supertest(t.app).get('/api/saml/slo'), 400],
    ['POST /api/saml/slo', () => supertest(t.app).post('/api/saml/slo').type('form').send({}), 400],
    ['GET /api/logout/saml', () => supertest(t.app).get('/api/logout/saml'), 302],
  ];
  beforeAll(async () => {
    await createUser(t, 'saml-viewer', { 1: 'Viewer' });
  });
  it.each(rows)('%s', async (_route, call, status) => {
    for (const [who, as] of callers) {
      const res = await as(call());
      expect([who, res.status, hasSetCookie(res)]).toEqual([who, status, false]);
    }
  });
});

describe('bad input: 4xx {message}, never 5xx, nobody created', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const bomb = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&f;</samlp:Response>`;
  const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1">&x;</samlp:Response>`;
  const cases: [string, () => supertest.Test][] = [
    ['ACS: a JSON body', () => supertest(t.app).post('/api/saml/acs').send({ SAMLResponse: 'x' })],
    ['ACS: SAMLResponse not base64', () => supertest(t.app).post('/api/saml/acs').type('form').send({ SAMLResponse: '%%%***' })],
    ['ACS: an entity expansion bomb', () => supertest(t.app).post('/api/saml/acs').type('form').send({ SAMLResponse: b64(bomb) })],
    ['ACS: an external entity', () => supertest(t.app).post('/api/saml/acs').type('form').send({ SAMLResponse: b64(xxe) })],
    ['ACS: a NUL byte', () => supertest(t.app).post('/api/saml/acs').type('form').send({ SAMLResponse: b64('<a>\u0000</a>'), RelayState: '\u0000' })],
    ['ACS: a LogoutResponse instead', () => supertest(t.app).post('/api/saml/acs').type('form').send({ SAMLResponse: b64('<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1"><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status></samlp:LogoutResponse>') })],
    ['ACS: two SAMLResponse fields', () => supertest(t.app).post('/api/saml/acs').type('form').send('SAMLResponse=a&SAMLResponse=b')],
    ['SLO: SAMLRequest not deflated', () => supertest(t.app).get(`/api/saml/slo?SAMLRequest=${encodeURIComponent(b64('<x/>'))}&SigAlg=x&Signature=x`)],
    ['SLO: an unknown SigAlg', () => supertest(t.app).get(`/api/saml/slo?${idp.logoutRequestQuery({ destination: SLO, nameID: 'n' }).replace(/SigAlg=[^&]+/, 'SigAlg=nope')}`)],
    ['SLO: SAMLResponse garbage', () => supertest(t.app).get('/api/saml/slo?SAMLResponse=%00%01')],
    ['SLO: POST SAMLRequest garbage', () => supertest(t.app).post('/api/saml/slo').type('form').send({ SAMLRequest: b64('<nope') })],
    ['SLO: POST an unsigned LogoutRequest', () => supertest(t.app).post('/api/saml/slo').type('form').send({ SAMLRequest: b64(`<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_x" Version="2.0" IssueInstant="${new Date().toISOString()}"><saml:Issuer>${idp.entityId}</saml:Issuer><saml:NameID>nid-ana</saml:NameID></samlp:LogoutRequest>`) })],
  ];
  it.each(cases)('%s', async (_label, call) => {
    const before = (await t.users.listUsers()).length;
    const res = await call();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof res.body.message).toBe('string');
    expect(hasSetCookie(res)).toBe(false);
    expect((await t.users.listUsers()).length).toBe(before);
  });
});
