import { orgInviteKind } from '../../apis';
import { anyKind } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

/**
 * Org invites (`/api/org/invites`, the OrgInvite kind): an existing user is added at once, anyone else gets a pending
 * invite with a random code; invites are listed and revoked in their organization only; no mail server is configured,
 * so `sendEmail` is the anchor's 412 and changes nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Invite { id: number; orgId: number; email: string; name: string; role: string; code: string; status: string; url: string; invitedByLogin: string; invitedByEmail: string; invitedByName: string; emailSent: boolean; createdOn: string; emailSentOn: string }
const pending = async (hdr: [string, string] = ['X-Svc-Org-Id', '1']) => (await t.as.get('/api/org/invites').set(...hdr)).body as Invite[];
const members = async (org: number) => ((await t.as.get(`/api/orgs/${org}/users`)).body as { login: string; role: string }[]).map((u) => [u.login, u.role]);

async function newOrg(name: string): Promise<number> {
  const res = await t.as.post('/api/orgs').send({ name });
  expect(res.status).toBe(200);
  return res.body.orgId as number;
}

describe('org invites', () => {
  it('invites someone new: a pending invite with a random code, listed newest first, then revoked', async () => {
    const first = await t.as.post('/api/org/invites').send({ loginOrEmail: 'new.person@example.org', name: 'New Person', role: 'Editor', sendEmail: false });
    expect([first.status, first.body]).toEqual([200, { message: 'Created invite for new.person@example.org' }]);
    await t.as.post('/api/org/invites').send({ loginOrEmail: 'second@example.org', role: 'Viewer' }).expect(200);
    const list = await pending();
    expect(list.map((i) => i.email)).toEqual(['second@example.org', 'new.person@example.org']);
    const inv = list[1]!;
    expect(inv).toEqual({
      id: expect.any(Number), orgId: 1, name: 'New Person', email: 'new.person@example.org', role: 'Editor', code: expect.stringMatching(/^[0-9a-f]{30}$/),
      status: 'InvitePending', url: `${t.config.server.root_url.replace(/\/?$/, '/')}invite/${inv.code}`, invitedByLogin: 'admin', invitedByEmail: expect.any(String), invitedByName: expect.any(String),
      emailSent: false, emailSentOn: inv.createdOn, createdOn: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(list[0]!.code).not.toBe(inv.code);
    expect(list[0]!.id).toBeGreaterThan(inv.id);

    const revoked = await t.as.delete(`/api/org/invites/${inv.code}/revoke`);
    expect([revoked.status, revoked.body]).toEqual([200, { message: 'Invite revoked' }]);
    expect((await pending()).map((i) => i.email)).toEqual(['second@example.org']);
    // The stored object says so too.
    const obj = (await t.users.listInOrg(1, anyKind(orgInviteKind))).find((o) => o.metadata.name === inv.code);
    expect(obj?.spec).toMatchObject({ status: 'Revoked', email: 'new.person@example.org', role: 'Editor', invitedBy: 'user:admin' });
  });

  it('adds an existing user (by login or email) to the org at once; a member already is 412', async () => {
    const other = await newOrg('Invites Elsewhere');
    const kai = await createUser(t, 'inv-kai', { [other]: 'Viewer' });
    const add = await t.as.post('/api/org/invites').send({ loginOrEmail: 'INV-KAI@example.com', name: 'ignored', role: 'Editor', sendEmail: false });
    expect([add.status, add.body]).toEqual([200, { message: 'Existing user inv-kai added to org Main Org.', userId: kai.id }]);
    expect(await members(1)).toContainEqual(['inv-kai', 'Editor']);
    expect((await pending()).map((i) => i.email)).not.toContain('INV-KAI@example.com');
    const again = await t.as.post('/api/org/invites').send({ loginOrEmail: 'inv-kai', role: 'Viewer' });
    expect([again.status, again.body]).toEqual([412, { message: 'User inv-kai is already added to organization' }]);
    expect(await members(1)).toContainEqual(['inv-kai', 'Editor']);
  });

  it('invites into the org the request acts in; another org neither lists nor revokes them', async () => {
    const org = await newOrg('Invites Ops');
    const hdr: [string, string] = ['X-Svc-Org-Id', String(org)];
    await t.as.post('/api/org/invites').set(...hdr).send({ loginOrEmail: 'ops-only@example.org', role: 'Viewer' }).expect(200);
    const [ops] = await pending(hdr);
    expect(ops).toMatchObject({ orgId: org, email: 'ops-only@example.org' });
    expect((await pending()).map((i) => i.email)).not.toContain('ops-only@example.org');
    const cross = await t.as.delete(`/api/org/invites/${ops!.code}/revoke`);
    expect([cross.status, cross.body]).toEqual([404, { message: 'Invite not found' }]);
    expect((await pending(hdr)).map((i) => [i.email, i.status])).toEqual([['ops-only@example.org', 'InvitePending']]);
  });

  it('needs org.users:add (an Editor may not); an org Admin invites into its org, as itself', async () => {
    await createUser(t, 'inv-editor', { 1: 'Editor' });
    const refused = await as(t, 'inv-editor').post('/api/org/invites').send({ loginOrEmail: 'x@example.org', role: 'Viewer' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('org.users:add');
    expect((await as(t, 'inv-editor').get('/api/org/invites')).status).toBe(403);
    // An org Admin invites into its org, as itself.
    const org = await newOrg('Invites Roles');
    await createUser(t, 'inv-admin', { [org]: 'Admin' });
    const hdr: [string, string] = ['X-Svc-Org-Id', String(org)];
    const ok = await as(t, 'inv-admin').post('/api/org/invites').set(...hdr).send({ loginOrEmail: 'boss@example.org', role: 'Admin' });
    expect([ok.status, ok.body]).toEqual([200, { message: 'Created invite for boss@example.org' }]);
    expect((await pending(hdr))[0]).toMatchObject({ invitedByLogin: 'inv-admin', invitedByEmail: 'inv-admin@example.com', invitedByName: 'inv-admin' });
  });

  it('answers bad input with 4xx {message} and changes nothing', async () => {
    const org = await newOrg('Invites Stable');
    const hdr: [string, string] = ['X-Svc-Org-Id', String(org)];
    await t.as.post('/api/org/invites').set(...hdr).send({ loginOrEmail: 'keep@example.org', role: 'Viewer' }).expect(200);
    await createUser(t, 'inv-stays-out', { 1: 'Viewer' });
    const before = await pending(hdr);
    const membersBefore = await members(org);
    const post = (body: unknown) => () => t.as.post('/api/org/invites').set(...hdr).send(body as object);
    const cases: [string, () => Promise<{ status: number; body: { message?: unknown } }>, number, string][] = [
      ['no body fields', post({}), 400, 'bad request data'],
      ['no loginOrEmail', post({ role: 'Viewer' }), 400, 'bad request data'],
      ['blank loginOrEmail', post({ loginOrEmail: '  ', role: 'Viewer' }), 400, 'bad request data'],
      ['loginOrEmail a number', post({ loginOrEmail: 5, role: 'Viewer' }), 400, 'bad request data'],
      ['loginOrEmail too long', post({ loginOrEmail: `${'x'.repeat(200)}@example.org`, role: 'Viewer' }), 400, 'bad request data'],
      ['name too long', post({ loginOrEmail: 'a@example.org', name: 'x'.repeat(300), role: 'Viewer' }), 400, 'bad request data'],
      ['name an object', post({ loginOrEmail: 'a@example.org', name: {}, role: 'Viewer' }), 400, 'bad request data'],
      ['sendEmail a string', post({ loginOrEmail: 'a@example.org', role: 'Viewer', sendEmail: 'yes' }), 400, 'bad request data'],
      ['no role', post({ loginOrEmail: 'a@example.org' }), 400, 'bad request data'],
      ['unknown role', post({ loginOrEmail: 'a@example.org', role: 'Owner' }), 400, 'Invalid role specified'],
      ['body an array', post(['a@example.org']), 400, 'bad request data'],
      ['malformed JSON', () => t.as.post('/api/org/invites').set(...hdr).set('Content-Type', 'application/json').send('{"loginOrEmail":'), 400, expect.any(String) as unknown as string],
      ['loginOrEmail with NUL', post({ loginOrEmail: 'a\u0000@example.org', role: 'Viewer' }), 400, expect.stringMatching(/NUL/) as unknown as string],
      ['name with a lone surrogate', () => t.as.post('/api/org/invites').set(...hdr).set('Content-Type', 'application/json').send('{"loginOrEmail":"s@example.org","name":"\\ud800","role":"Viewer"}'), 400, expect.stringMatching(/surrogate/) as unknown as string],
      ['sendEmail without SMTP', post({ loginOrEmail: 'mail@example.org', role: 'Viewer', sendEmail: true }), 412, "SMTP not configured, check your config file's [smtp] section"],
      ['sendEmail to an existing user', post({ loginOrEmail: 'inv-stays-out', role: 'Viewer', sendEmail: true }), 412, "SMTP not configured, check your config file's [smtp] section"],
      ['revoke unknown code', () => t.as.delete('/api/org/invites/0123456789abcdef0123456789abcd/revoke').set(...hdr), 404, 'Invite not found'],
      ['revoke code with odd characters', () => t.as.delete('/api/org/invites/a.b%20c/revoke').set(...hdr), 404, 'Invite not found'],
      ['revoke code too long', () => t.as.delete(`/api/org/invites/${'a'.repeat(60)}/revoke`).set(...hdr), 404, 'Invite not found'],
    ];
    for (const [label, send, status, message] of cases) {
      const res = await send();
      expect([label, res.status, res.body.message]).toEqual([label, status, message]);
    }
    expect(await pending(hdr)).toEqual(before);
    expect(await members(org)).toEqual(membersBefore);
  });
});

describe('completing an invite (sign-up)', () => {
  async function invite(email: string, role = 'Editor', hdr: [string, string] = ['X-Svc-Org-Id', '1']): Promise<string> {
    await t.as.post('/api/org/invites').set(...hdr).send({ loginOrEmail: email, name: 'Invited One', role }).expect(200);
    return (await pending(hdr)).find((i) => i.email === email)!.code;
  }

  it('reads the invite without credentials, creates the user in the org with the role, signs it in, completes the invite', async () => {
    const org = await newOrg('Invites Signup');
    const hdr: [string, string] = ['X-Svc-Org-Id', String(org)];
    const code = await invite('joiner@example.org', 'Editor', hdr);
    const info = await t.anonymous.get(`/api/user/invite/${code}`);
    expect([info.status, info.body]).toEqual([200, { email: 'joiner@example.org', name: 'Invited One', username: 'joiner@example.org', invitedBy: expect.any(String) }]);
    const done = await t.anonymous.post('/api/user/invite/complete').send({ inviteCode: code, email: 'joiner@example.org', name: 'Joiner', username: 'joiner', password: 'joiner-pass', confirmPassword: 'joiner-pass' });
    expect([done.status, done.body]).toEqual([200, { message: 'User created and logged in', id: expect.any(Number) }]);
    const cookie = [done.headers['set-cookie']].flat()[0]!.split(';')[0]!;
    expect((await t.anonymous.get('/api/user').set('Cookie', cookie)).body).toMatchObject({ id: done.body.id, login: 'joiner', email: 'joiner@example.org', name: 'Joiner', orgId: org });
    expect(await members(org)).toContainEqual(['joiner', 'Editor']);
    expect(await pending(hdr)).toEqual([]);
    // Used once: the info is gone and a second completion is the anchor's 412.
    expect((await t.anonymous.get(`/api/user/invite/${code}`)).status).toBe(404);
    const again = await t.anonymous.post('/api/user/invite/complete').send({ inviteCode: code, email: 'other@example.org', username: 'other', password: 'other-pass' });
    expect([again.status, again.body]).toEqual([412, { message: 'Invite cannot be used in status Completed' }]);
    expect((await as(t, 'joiner', 'joiner-pass').get('/api/user')).status).toBe(200);
  });

  it('of two completions of one invite, one wins', async () => {
    const code = await invite('race@example.org', 'Viewer');
    const send = (n: number) => t.anonymous.post('/api/user/invite/complete').send({ inviteCode: code, email: `race${n}@example.org`, username: `race${n}`, password: 'race-pass' });
    const answers = await Promise.all([send(1), send(2), send(3)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412, 412]);
    const logins = ((await t.as.get('/api/org/users')).body as { login: string }[]).map((u) => u.login).filter((l) => l.startsWith('race'));
    expect(logins).toHaveLength(1);
  });

  it('answers bad input with 4xx {message} and changes nothing; a revoked invite cannot be used', async () => {
    await createUser(t, 'inv-taken', { 1: 'Viewer' });
    const code = await invite('later@example.org', 'Viewer');
    const revokedCode = await invite('revoked@example.org', 'Viewer');
    await t.as.delete(`/api/org/invites/${revokedCode}/revoke`).expect(200);
    const usersBefore = ((await t.as.get('/api/users')).body as unknown[]).length;
    const before = await pending();
    const complete = (body: unknown) => () => t.anonymous.post('/api/user/invite/complete').send(body as object);
    const ok = { inviteCode: code, email: 'later@example.org', username: 'later', password: 'later-pass' };
    const cases: [string, () => Promise<{ status: number; body: { message?: unknown } }>, number, string][] = [
      ['info: unknown code', () => t.anonymous.get('/api/user/invite/0123456789abcdef0123456789abcd'), 404, 'Invite not found'],
      ['info: odd code', () => t.anonymous.get('/api/user/invite/a.b%20c'), 404, 'Invite not found'],
      ['info: revoked', () => t.anonymous.get(`/api/user/invite/${revokedCode}`), 404, 'Invite not found'],
      ['no body fields', complete({}), 400, 'bad request data'],
      ['no code', complete({ ...ok, inviteCode: undefined }), 400, 'bad request data'],
      ['no email', complete({ ...ok, email: undefined }), 400, 'bad request data'],
      ['password a number', complete({ ...ok, password: 1234 }), 400, 'bad request data'],
      ['body an array', complete([ok]), 400, 'bad request data'],
      ['malformed JSON', () => t.anonymous.post('/api/user/invite/complete').set('Content-Type', 'application/json').send('{"inviteCode":'), 400, expect.any(String) as unknown as string],
      ['email with NUL', complete({ ...ok, email: 'later\u0000@example.org' }), 400, expect.stringMatching(/NUL/) as unknown as string],
      ['name with a lone surrogate', () => t.anonymous.post('/api/user/invite/complete').set('Content-Type', 'application/json').send(`{"inviteCode":"${code}","email":"later@example.org","name":"\\ud800","password":"later-pass"}`), 400, expect.stringMatching(/surrogate/) as unknown as string],
      ['nested too deep', complete({ ...ok, extra: JSON.parse(`${'{"n":'.repeat(200)}1${'}'.repeat(200)}`) }), 400, expect.any(String) as unknown as string],
      ['info: code with NUL', () => t.anonymous.get('/api/user/invite/a%00b'), 400, expect.stringMatching(/NUL/) as unknown as string],
      ['unknown code', complete({ ...ok, inviteCode: '0123456789abcdef0123456789abcd' }), 404, 'Invite not found'],
      ['code too long', complete({ ...ok, inviteCode: 'a'.repeat(60) }), 404, 'Invite not found'],
      ['password too short', complete({ ...ok, password: 'abc' }), 400, 'Password is missing or too short'],
      ['revoked invite', complete({ ...ok, inviteCode: revokedCode }), 412, 'Invite cannot be used in status Revoked'],
      ['login taken', complete({ ...ok, username: 'inv-taken' }), 412, "User with email 'later@example.org' or username 'inv-taken' already exists"],
      ['email taken', complete({ ...ok, email: 'inv-taken@example.com' }), 412, "User with email 'inv-taken@example.com' or username 'later' already exists"],
    ];
    for (const [label, send, status, message] of cases) {
      const res = await send();
      expect([label, res.status, res.body.message]).toEqual([label, status, message]);
    }
    expect(await pending()).toEqual(before);
    expect(((await t.as.get('/api/users')).body as unknown[]).length).toBe(usersBefore);
    // The invite refused above still works.
    expect((await complete(ok)()).status).toBe(200);
  });
});
