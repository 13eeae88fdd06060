/**
 * The enterprise license (README "Licensing") through HTTP on both backends: a JWT of the license authority whose
 * public key the configuration holds, verified before it is stored (one per installation, seen by every server on
 * the database, its token never stored nor answered in clear), renewed from a real license server (a local HTTP
 * server that records what it receives), and the reports (active users, custom permissions as JSON and CSV).
 * The open-source edition serves none of it.
 */
import supertest from 'supertest';
import { licenseKind } from '../../apis';
import { routeName } from '../../legacy-adapters';
import { licensingArea } from '../../legacy-adapters/licensing';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { silentLogger } from '../../pkg/log';
import { composeServer } from '../../pkg/server/server';
import { startTestApp, type TestApp } from '../support/app';
import { inSeconds, licenseAuthority, signLicense } from '../support/license-tokens';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream';
import { storedText } from '../support/stored-text';
import { as, createUser, PASSWORD } from '../support/users';

jest.setTimeout(120_000);

const ROUTES: [string, string][] = [
  ['get', '/api/licensing/check'], ['get', '/api/licensing/token'], ['post', '/api/licensing/token'], ['delete', '/api/licensing/token'],
  ['post', '/api/licensing/token/renew'], ['get', '/api/licensing/refresh-stats'], ['get', '/api/licensing/custom-permissions'], ['get', '/api/licensing/custom-permissions-csv'],
];
const LICENSES = { group: licenseKind.group, resource: licenseKind.plural };
const authority = licenseAuthority('ES256');

describe('open-source edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp([`--enterprise.license_public_key=${authority.publicPem}`]);
  });
  afterAll(() => t.close());

  it('answers 404 on every licensing route, and the usage report has no valid license', async () => {
    const token = signLicense(authority, { lid: 'l1', sub: t.config.server.root_url, exp: inSeconds(3600) });
    for (const [method, path] of ROUTES) {
      const res = await (t.as as unknown as Record<string, (p: string) => supertest.Test>)[method]!(path).send({ token });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const report = (await t.as.get('/api/admin/usage-report-preview').expect(200)).body;
    expect([report.hasValidLicense, report.metrics.valid_license]).toEqual([false, 0]);
  });
});

describe('enterprise edition without a license public key nor a license server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(['--server.edition=enterprise']);
  });
  afterAll(() => t.close());

  it('verifies no license (400, nothing stored) and has no renewal (404)', async () => {
    const token = signLicense(authority, { lid: 'l1', sub: t.config.server.root_url, exp: inSeconds(3600) });
    const res = await t.as.post('/api/licensing/token').send({ token });
    expect([res.status, res.body.message]).toEqual([400, 'No license can be verified: the license public key is not configured ([enterprise] license_public_key)']);
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(false);
    const renew = await t.as.post('/api/licensing/token/renew').send({});
    expect([renew.status, renew.body.message]).toEqual([404, 'License renewal is not configured: [enterprise] license_server_url is not set']);
    expect((await t.storage.list({ ...LICENSES, namespace: '', everyNamespace: true })).items).toEqual([]);
  });
});

describe('enterprise edition with the license authority\'s key and a license server', () => {
  let t: TestApp;
  let server: RecordingUpstream;
  let instance: string;
  const claims = (extra: Record<string, unknown> = {}) => ({
    jti: 'tok-1', iss: 'https://licenses.example.com', sub: instance, lid: 'lic-1', iat: inSeconds(0), nbf: inSeconds(-10), exp: inSeconds(3600),
    lexp: inSeconds(86400), included_users: 25, prod: ['svc-enterprise'], company: 'Example Ltd', status: 1, ...extra,
  });

  beforeAll(async () => {
    server = await startRecordingUpstream();
    t = await startTestApp(['--server.edition=enterprise', `--enterprise.license_public_key=${authority.publicPem}`, `--enterprise.license_server_url=${server.url}/renew`]);
    instance = t.config.server.root_url;
  });
  afterAll(async () => {
    await t.close();
    await server.close();
  });

  const storedLicenses = async () => (await t.storage.list({ ...LICENSES, namespace: '', everyNamespace: true })).items;

  it('refuses every token that does not verify with a 400 saying why; nothing is stored', async () => {
    const other = licenseAuthority('ES256');
    const rsa = licenseAuthority('RS256');
    const cases: [string, unknown, RegExp][] = [
      ['no body', undefined, /token is required/],
      ['body an array', [1], /^bad request data$/],
      ['no token', {}, /token is required/],
      ['token a number', { token: 42 }, /token is required/],
      ['not a JWT', { token: 'hello' }, /malformed: expected a JWT/],
      ['alg none', { token: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.AA` }, /signed with "none"/],
      ['another authority', { token: signLicense(other, claims()) }, /signature is invalid/],
      ['RS256 of an RSA authority', { token: signLicense(rsa, claims()) }, /RS256, which the configured license public key cannot verify/],
      ['expired', { token: signLicense(authority, claims({ exp: inSeconds(-60) })) }, /License token has expired/],
      ['license expired', { token: signLicense(authority, claims({ lexp: inSeconds(-60) })) }, /License has expired/],
      ['not valid yet', { token: signLicense(authority, claims({ nbf: inSeconds(3000) })) }, /not valid yet/],
      ['another instance', { token: signLicense(authority, claims({ sub: 'https://elsewhere.example.com/' })) }, /not for this instance/],
      ['no license id', { token: signLicense(authority, claims({ lid: undefined })) }, /claim lid/],
      ['a claim PostgreSQL cannot store (NUL)', { token: signLicense(authority, claims({ company: 'Ex\u0000ample' })) }, /claim company contains a NUL character/],
      ['included_users a string', { token: signLicense(authority, claims({ included_users: 'many' })) }, /claim included_users/],
    ];
    for (const [label, body, message] of cases) {
      const req = t.as.post('/api/licensing/token');
      const res = body === undefined ? await req : await req.send(body as object);
      expect([label, res.status]).toEqual([label, 400]);
      expect([label, res.body.message]).toEqual([label, expect.stringMatching(message)]);
    }
    expect(await storedLicenses()).toEqual([]);
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(false);
    const none = await t.as.get('/api/licensing/token');
    expect([none.status, none.body.message]).toEqual([404, 'No license token is installed']);
  });

  it('installs a valid token for every server on the database; check, token and the usage report say so; the token is never stored in clear', async () => {
    const first = claims();
    const token = signLicense(authority, { ...first, extra_claim: 'kept out of answers' });
    const res = await t.as.post('/api/licensing/token').send({ token });
    expect([res.status, res.body]).toEqual([200, first]);
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(true);
    expect((await t.as.get('/api/licensing/token').expect(200)).body).toEqual(first);
    const report = (await t.as.get('/api/admin/usage-report-preview').expect(200)).body;
    expect([report.hasValidLicense, report.metrics.valid_license]).toEqual([true, 1]);
    // One License object, installation-wide; another server over the same database answers the same license.
    expect((await storedLicenses()).map((i) => [i.key.namespace, i.key.name])).toEqual([['svc-licensing', 'license']]);
    const replica = await composeServer(t.config, silentLogger, t.storage, { version: 'test', commit: 'test' });
    await replica.identityReady();
    expect((await as({ app: replica.app }, 'admin', 'admin').get('/api/licensing/token').expect(200)).body).toEqual(first);
    const signature = token.split('.')[2]!;
    const stored = await storedText(t, LICENSES);
    expect(stored).not.toContain(signature);
    expect(stored).not.toContain('kept out of answers');
    // A second license replaces the first.
    const next = claims({ jti: 'tok-2', included_users: 50 });
    expect((await t.as.post('/api/licensing/token').send({ token: signLicense(authority, next) }).expect(200)).body).toEqual(next);
    expect((await t.as.get('/api/licensing/token').expect(200)).body).toEqual(next);
    expect(await storedLicenses()).toHaveLength(1);
  });

  it('renews from the license server: posts the current token, this instance and the active users, installs the answer', async () => {
    const current = signLicense(authority, claims({ jti: 'tok-3' }));
    await t.as.post('/api/licensing/token').send({ token: current }).expect(200);
    const renewed = claims({ jti: 'tok-4', exp: inSeconds(7200), included_users: 100 });
    server.reset();
    server.reply = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: signLicense(authority, renewed) }) });
    const res = await t.as.post('/api/licensing/token/renew').send({});
    expect([res.status, res.body]).toEqual([200, renewed]);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect([sent.method, sent.rawPath, sent.headers['content-type']]).toEqual(['POST', '/renew', 'application/json']);
    const stats = (await t.as.get('/api/licensing/refresh-stats').expect(200)).body;
    expect(JSON.parse(sent.body.toString())).toEqual({ token: current, instance, stats });
    expect((await t.as.get('/api/licensing/token').expect(200)).body).toEqual(renewed);
    // The license server's answer as plain text is taken too.
    const again = claims({ jti: 'tok-5' });
    server.reply = () => ({ status: 200, headers: { 'content-type': 'application/jwt' }, body: signLicense(authority, again) });
    expect((await t.as.post('/api/licensing/token/renew').send({}).expect(200)).body).toEqual(again);
  });

  it('renewal failures are 502 saying what the license server did, and change nothing', async () => {
    const before = (await t.as.get('/api/licensing/token').expect(200)).body;
    const cases: [string, () => { status: number; body: string }, RegExp][] = [
      ['a 500', () => ({ status: 500, body: 'boom' }), /answered 500/],
      ['no token', () => ({ status: 200, body: '{"ok":true}' }), /answered no token/],
      ['a token of another authority', () => ({ status: 200, body: JSON.stringify({ token: signLicense(licenseAuthority(), claims()) }) }), /does not verify: License token signature is invalid/],
      ['an expired token', () => ({ status: 200, body: JSON.stringify({ token: signLicense(authority, claims({ exp: inSeconds(-5) })) }) }), /does not verify: License token has expired/],
      ['another license', () => ({ status: 200, body: JSON.stringify({ token: signLicense(authority, claims({ lid: 'lic-2' })) }) }), /for license lic-2, not for the installed license lic-1/],
    ];
    for (const [label, reply, message] of cases) {
      server.reply = reply;
      const res = await t.as.post('/api/licensing/token/renew').send({});
      expect([label, res.status, res.body.message]).toEqual([label, 502, expect.stringMatching(message)]);
    }
    expect((await t.as.get('/api/licensing/token').expect(200)).body).toEqual(before);
  });

  it('refresh-stats counts the active users as the admin stats do', async () => {
    const viewer = await createUser(t, 'lic-active-viewer', { 1: 'Viewer' });
    await as(t, viewer.login).get('/api/user').expect(200);
    // Activity is recorded in the background: wait until the Viewer's is counted.
    let res = (await t.as.get('/api/licensing/refresh-stats').expect(200)).body;
    for (let i = 0; i < 50 && res.active_viewers < 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      res = (await t.as.get('/api/licensing/refresh-stats').expect(200)).body;
    }
    const stats = (await t.as.get('/api/admin/stats').expect(200)).body;
    expect(res).toEqual({ active_users: stats.activeUsers, active_viewers: stats.activeViewers, active_admins_and_editors: stats.activeAdmins + stats.activeEditors });
    expect(res.active_viewers).toBeGreaterThanOrEqual(1);
  });

  it('the custom permissions report lists the grants that let Viewers edit or administer, as JSON and as CSV', async () => {
    const viewer = await createUser(t, 'cp-viewer', { 1: 'Viewer' });
    const editor = await createUser(t, 'cp-editor', { 1: 'Editor' });
    const member = await createUser(t, 'cp-member', { 1: 'Viewer' });
    const team = (await t.as.post('/api/teams').send({ name: 'CP Team' }).expect(200)).body.teamId as number;
    await t.as.post(`/api/teams/${team}/members`).send({ userId: member.id }).expect(200);
    await t.as.post(`/api/teams/${team}/members`).send({ userId: editor.id }).expect(200);
    const teamUid = (await t.as.get(`/api/teams/${team}`).expect(200)).body.uid as string;
    const folder = (await t.as.post('/api/folders').send({ uid: 'cp-folder', title: 'CP, Folder' }).expect(200)).body;
    await t.as.post('/api/folders/cp-folder/permissions').send({
      items: [{ userId: viewer.id, permission: 2 }, { teamId: team, permission: 4 }, { role: 'Viewer', permission: 2 }, { role: 'Editor', permission: 2 }, { userId: editor.id, permission: 4 }],
    }).expect(200);
    const dash = (await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'cp-dash', title: 'CP Dash' } }).expect(200)).body;
    await t.as.post('/api/dashboards/uid/cp-dash/permissions').send({ items: [{ role: 'Viewer', permission: 1 }, { userId: viewer.id, permission: 4 }] }).expect(200);
    const viewers = (await t.as.get('/api/org/users').expect(200)).body.filter((u: { role: string }) => u.role === 'Viewer').length;

    const res = await t.as.get('/api/licensing/custom-permissions').expect(200);
    const onFolder = { id: folder.id, uid: 'cp-folder', title: 'CP, Folder', slug: 'cp-folder', url: '/dashboards/f/cp-folder/cp-folder', isFolder: true, orgId: 1 };
    const onDash = { id: dash.id, uid: 'cp-dash', title: 'CP Dash', slug: 'cp-dash', url: '/d/cp-dash/cp-dash', isFolder: false, orgId: 1 };
    const expected = [
      { ...onFolder, granteeName: 'Viewer', granteeType: 'role', granteeUrl: '', customPermissions: 'Edit', orgRole: 'Viewer', usersCount: viewers },
      { ...onFolder, granteeName: 'CP Team', granteeType: 'team', granteeUrl: `/org/teams/edit/${teamUid}`, customPermissions: 'Admin', orgRole: 'Viewer', usersCount: 1 },
      { ...onFolder, granteeName: 'cp-viewer', granteeType: 'user', granteeUrl: `/admin/users/edit/${viewer.uid}`, customPermissions: 'Edit', orgRole: 'Viewer', usersCount: 1 },
      { ...onDash, granteeName: 'cp-viewer', granteeType: 'user', granteeUrl: `/admin/users/edit/${viewer.uid}`, customPermissions: 'Admin', orgRole: 'Viewer', usersCount: 1 },
    ];
    expect(res.body.filter((r: { uid: string }) => r.uid.startsWith('cp-'))).toEqual(expected);

    const csv = await t.as.get('/api/licensing/custom-permissions-csv').expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('id,uid,title,slug,url,isFolder,orgId,granteeName,granteeType,granteeUrl,customPermissions,orgRole,usersCount');
    expect(lines).toContain(`${folder.id},cp-folder,"CP, Folder",cp-folder,/dashboards/f/cp-folder/cp-folder,true,1,cp-viewer,user,/admin/users/edit/${viewer.uid},Edit,Viewer,1`);
    expect(lines).toHaveLength(res.body.length + 2);
  });

  it('only server admins hold the licensing actions: Viewers, Editors, org Admins, another org\'s Admin and service accounts get 403, anonymous callers 401; a refusal changes nothing', async () => {
    // Every route of the area has its row here (a new route fails this until it gets one).
    expect(ROUTES.map(([m, p]) => `${m.toUpperCase()} ${p}`).sort()).toEqual(licensingArea.routes.map(routeName).sort());
    const installed = (await t.as.get('/api/licensing/token').expect(200)).body;
    // What each caller sends would change the license if it were let through.
    const body = { token: signLicense(authority, claims({ lid: 'lic-intruder', jti: 'tok-intruder' })), instance };
    const other = await t.users.createOrg(SYSTEM, 'Licensing elsewhere');
    await createUser(t, 'lic-other', { [other.id]: 'Admin' });
    for (const [login, role] of [['lic-viewer', 'Viewer'], ['lic-editor', 'Editor'], ['lic-orgadmin', 'Admin']] as const) await createUser(t, login, { 1: role });
    const sa = (await t.as.post('/api/serviceaccounts').send({ name: 'lic-robot', role: 'Admin' }).expect(201)).body;
    const key = (await t.as.post(`/api/serviceaccounts/${sa.id}/tokens`).send({ name: 'k' }).expect(200)).body.key as string;
    const callers: [string, (r: supertest.Test) => supertest.Test, number][] = [
      ['viewer', (r) => r.auth('lic-viewer', PASSWORD), 403],
      ['editor', (r) => r.auth('lic-editor', PASSWORD), 403],
      ['org admin', (r) => r.auth('lic-orgadmin', PASSWORD), 403],
      ['another org\'s admin', (r) => r.auth('lic-other', PASSWORD).set('X-Svc-Org-Id', String(other.id)), 403],
      ['admin service account', (r) => r.set('Authorization', `Bearer ${key}`), 403],
      ['anonymous', (r) => r, 401],
    ];
    const asked = server.requests.length;
    for (const [who, auth, status] of callers) {
      for (const [method, path] of ROUTES) {
        const res = await auth((t.anonymous as unknown as Record<string, (p: string) => supertest.Test>)[method]!(path)).send(body);
        expect([who, method, path, res.status, typeof res.body.message]).toEqual([who, method, path, status, 'string']);
      }
    }
    expect((await t.as.get('/api/licensing/token').expect(200)).body).toEqual(installed);
    expect(server.requests).toHaveLength(asked);
  });

  it('a license that expires after it was installed is no longer valid (its claims are still shown) until renewed', async () => {
    const soon = claims({ jti: 'tok-soon', exp: inSeconds(2) });
    await t.as.post('/api/licensing/token').send({ token: signLicense(authority, soon) }).expect(200);
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(true);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(false);
    expect((await t.as.get('/api/licensing/token').expect(200)).body).toEqual(soon);
    expect((await t.as.get('/api/admin/usage-report-preview').expect(200)).body.hasValidLicense).toBe(false);
    // The license server may still renew it: the expired token is what it is sent.
    server.reply = () => ({ status: 200, body: signLicense(authority, claims({ jti: 'tok-back' })) });
    expect((await t.as.post('/api/licensing/token/renew').send({}).expect(200)).body.jti).toBe('tok-back');
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(true);
  });

  it('removes the license of this instance only: 422 for another name, 400 without one, 202 whether or not one was installed', async () => {
    const other = await t.as.delete('/api/licensing/token').send({ instance: 'https://elsewhere.example.com/' });
    expect([other.status, other.body.message]).toEqual([422, `Incorrect instance name provided: this instance is ${instance}`]);
    const missing = await t.as.delete('/api/licensing/token').send({});
    expect([missing.status, missing.body.message]).toEqual([400, 'instance is required: the root URL of the instance whose license to remove']);
    expect(await storedLicenses()).toHaveLength(1);
    const removed = await t.as.delete('/api/licensing/token').send({ instance: instance.replace(/\/$/, '') });
    expect([removed.status, removed.body]).toEqual([202, { message: 'License removed' }]);
    expect(await storedLicenses()).toEqual([]);
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(false);
    expect((await t.as.get('/api/licensing/token')).status).toBe(404);
    expect((await t.as.delete('/api/licensing/token').send({ instance })).status).toBe(202);
    const renew = await t.as.post('/api/licensing/token/renew').send({});
    expect([renew.status, renew.body.message]).toEqual([404, 'No license token is installed']);
  });
});

describe('enterprise edition whose license server does not answer', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A port that was just listened on and closed again: connections to it are refused.
    const gone = await startRecordingUpstream();
    await gone.close();
    t = await startTestApp(['--server.edition=enterprise', `--enterprise.license_public_key=${authority.publicPem}`, `--enterprise.license_server_url=${gone.url}/renew`]);
  });
  afterAll(() => t.close());

  it('a renewal is a 502 saying the license server could not be reached; the installed license stays', async () => {
    const installed = { lid: 'lic-9', sub: t.config.server.root_url, exp: inSeconds(3600) };
    await t.as.post('/api/licensing/token').send({ token: signLicense(authority, installed) }).expect(200);
    const res = await t.as.post('/api/licensing/token/renew').send({});
    expect([res.status, res.body.message]).toEqual([502, expect.stringMatching(/^The license server could not be reached: .*ECONNREFUSED/)]);
    expect((await t.as.get('/api/licensing/token').expect(200)).body).toEqual(installed);
    expect((await t.as.get('/api/licensing/check').expect(200)).body).toBe(true);
  });
});
