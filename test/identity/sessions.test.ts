import type { Response } from 'supertest';
import { authTokenKind } from '../../apis';
import { IDENTITY_NAMESPACE, SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { sessionName } from '../../pkg/auth/authentication/sessions';
import { silentLogger } from '../../pkg/log';
import { createApp } from '../../pkg/server/app';
import { FOLDERS, RFC3339 } from '../support/paths';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import supertest from 'supertest';
import { createUser, PASSWORD } from '../support/users';

/**
 * Login sessions of a frontend (POST /login, GET /logout, the svc_session cookie) and the auth-token endpoints of
 * spec §4.11, through HTTP on a real database.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';

/** The session cookie a login set (`svc_session=<secret>`), and its attributes. */
function sessionCookie(res: Response): { pair: string; attributes: string } {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('svc_session='));
  if (!header) throw new Error(`no session cookie in ${JSON.stringify(res.headers)}`);
  const [pair, ...attributes] = header.split(';').map((s) => s.trim());
  return { pair: pair!, attributes: attributes.join('; ') };
}

async function login(user: string, password = PASSWORD, userAgent = CHROME_MAC): Promise<string> {
  const res = await t.anonymous.post('/login').set('User-Agent', userAgent).send({ user, password });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: 'Logged in', redirectUrl: '/' });
  return sessionCookie(res).pair;
}

const withCookie = (cookie: string) => ({
  get: (p: string) => t.anonymous.get(p).set('Cookie', cookie),
  post: (p: string) => t.anonymous.post(p).set('Cookie', cookie),
});

describe('POST /login', () => {
  it('sets an HttpOnly session cookie that authenticates /api and /apis', async () => {
    const id = (await createUser(t, 'ana')).id;
    const res = await t.anonymous.post('/login').send({ user: 'ana', password: PASSWORD });
    expect(res.status).toBe(200);
    const { pair, attributes } = sessionCookie(res);
    expect(pair).toMatch(/^svc_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toMatch(/HttpOnly/);
    expect(attributes).toMatch(/SameSite=Lax/);
    expect(attributes).toMatch(/Path=\//);
    expect(attributes).not.toMatch(/Secure/);
    expect(attributes).toMatch(/Max-Age=2592000/);

    const me = await withCookie(pair).get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id, login: 'ana' });
    const folders = await withCookie(`theme=dark; ${pair}`).get(FOLDERS);
    expect(folders.status).toBe(403); // signed in; ana is no member of org 1
    await t.users!.setRole(SYSTEM, 1, id, 'Viewer');
    expect((await withCookie(pair).get(FOLDERS)).status).toBe(200);
  });

  it('stores only a digest of the session secret', async () => {
    await createUser(t, 'digest');
    const pair = await login('digest');
    const secret = pair.slice('svc_session='.length);
    const ctx = { requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'test' };
    const stored = await t.users!.registry.get(ctx, authTokenKind, sessionName(secret));
    expect(stored.spec).toMatchObject({ clientIp: expect.any(String), userAgent: CHROME_MAC });
    const everything = JSON.stringify(await t.users!.registry.list(ctx, authTokenKind, {}));
    expect(everything).not.toContain(secret);
  });

  it('leaves no session behind when its cookie cannot be set', async () => {
    // The configuration loader refuses such a lifetime (exit 2); a config made another way must not leak sessions.
    const config = { ...t.config, auth: { ...t.config.auth, login_maximum_lifetime_duration: 1e20 } };
    const { app } = createApp({ config, storage: t.storage, registry: t.registry, log: silentLogger, build: { version: 'test', commit: 'test' } });
    const id = (await createUser(t, 'no-cookie')).id;
    const res = await supertest(app).post('/login').send({ user: 'no-cookie', password: PASSWORD });
    expect(res.status).toBe(500);
    expect(res.headers['set-cookie']).toBeUndefined();
    const sessions = await t.anonymous.get(`/api/admin/users/${id}/auth-tokens`).auth(ADMIN.user, ADMIN.password);
    expect(sessions.status).toBe(200);
    expect(sessions.body).toEqual([]);
  });

  it('accepts an email as the user, and refuses a wrong password, an unknown user and bad bodies', async () => {
    await createUser(t, 'bob');
    await t.users!.updateUser(SYSTEM, (await t.users!.userByLoginOrEmail('bob'))!.id, (s) => ({ ...s, email: 'bob@example.com' }));
    await login('BOB@example.com');
    for (const body of [{ user: 'bob', password: 'wrong' }, { user: 'nobody', password: 'x' }, { user: 'bob' }, {}]) {
      const res = await t.anonymous.post('/login').send(body);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid username or password' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    for (const body of [{ user: 1, password: 'x' }, ['bob']]) {
      const res = await t.anonymous.post('/login').send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'bad login data' });
    }
  });

  it('throttles a login after five failures, even with the right password, and basic auth too', async () => {
    await createUser(t, 'carol');
    for (let i = 0; i < 5; i++) {
      const res = await t.anonymous.post('/login').send({ user: 'carol', password: 'wrong' });
      expect(res.status).toBe(401);
    }
    const blocked = await t.anonymous.post('/login').send({ user: 'carol', password: PASSWORD });
    expect(blocked.status).toBe(401);
    expect(blocked.body).toEqual({ message: 'Invalid username or password' });
    expect((await t.anonymous.get('/api/user').auth('carol', PASSWORD)).status).toBe(401);
    // Other logins are not affected.
    await createUser(t, 'dave');
    await login('dave');
  });

  it('refuses disabled users', async () => {
    const id = (await createUser(t, 'erin')).id;
    const pair = await login('erin');
    await t.users!.updateUser(SYSTEM, id, (s) => ({ ...s, isDisabled: true }));
    expect((await t.anonymous.post('/login').send({ user: 'erin', password: PASSWORD })).status).toBe(401);
    expect((await withCookie(pair).get('/api/user')).status).toBe(401);
  });
});

describe('GET /logout', () => {
  it('ends the session and clears the cookie', async () => {
    await createUser(t, 'frank');
    const pair = await login('frank');
    const res = await withCookie(pair).get('/logout');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login');
    expect(sessionCookie(res).pair).toBe('svc_session=');
    const after = await withCookie(pair).get('/api/user');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Unauthorized' });
  });

  it('answers the same without a session', async () => {
    const res = await t.anonymous.get('/logout');
    expect(res.status).toBe(302);
  });
});

describe('auth tokens', () => {
  it('the admin lists a user\'s sessions with the device read from the User-Agent', async () => {
    const id = (await createUser(t, 'gina')).id;
    await login('gina', PASSWORD, CHROME_MAC);
    await login('gina', PASSWORD, FIREFOX_WINDOWS);
    const res = await t.as.get(`/api/admin/users/${id}/auth-tokens`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    const [chrome, firefox] = res.body;
    expect(chrome).toEqual({
      id: expect.any(Number), isActive: false, clientIp: expect.stringMatching(/^(127\.0\.0\.1|::1)$/), browser: 'Chrome', browserVersion: '120.0',
      os: 'Mac OS X', osVersion: '10.15', device: 'Mac', createdAt: expect.stringMatching(RFC3339), seenAt: expect.stringMatching(RFC3339),
    });
    expect(firefox).toMatchObject({ browser: 'Firefox', browserVersion: '121.0', os: 'Windows', osVersion: '10', device: 'Other' });
    expect(chrome.id).not.toBe(firefox.id);
    expect(JSON.stringify(res.body)).not.toMatch(/svc_session|userAgent/);
  });

  it('revoking a session refuses its next request at once', async () => {
    const id = (await createUser(t, 'hank')).id;
    const pair = await login('hank');
    const other = await login('hank', PASSWORD, FIREFOX_WINDOWS);
    expect((await withCookie(pair).get('/api/user')).status).toBe(200);
    const [token] = (await t.as.get(`/api/admin/users/${id}/auth-tokens`)).body;
    const res = await t.as.post(`/api/admin/users/${id}/revoke-auth-token`).send({ authTokenId: token.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'User auth token revoked' });
    expect((await withCookie(pair).get('/api/user')).status).toBe(401);
    expect((await withCookie(other).get('/api/user')).status).toBe(200);
    const again = await t.as.post(`/api/admin/users/${id}/revoke-auth-token`).send({ authTokenId: token.id });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'User auth token not found' });
  });

  it('a session of another user is not found by its id', async () => {
    const a = (await createUser(t, 'ivy')).id;
    const b = (await createUser(t, 'jack')).id;
    await login('ivy');
    const [token] = (await t.as.get(`/api/admin/users/${a}/auth-tokens`)).body;
    const res = await t.as.post(`/api/admin/users/${b}/revoke-auth-token`).send({ authTokenId: token.id });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'User auth token not found' });
    expect((await t.as.get(`/api/admin/users/${a}/auth-tokens`)).body).toHaveLength(1);
  });

  it('the admin logs a user out of every device', async () => {
    const id = (await createUser(t, 'kate')).id;
    const one = await login('kate');
    const two = await login('kate', PASSWORD, FIREFOX_WINDOWS);
    const res = await t.as.post(`/api/admin/users/${id}/logout`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'User logged out' });
    expect((await withCookie(one).get('/api/user')).status).toBe(401);
    expect((await withCookie(two).get('/api/user')).status).toBe(401);
    expect((await t.as.get(`/api/admin/users/${id}/auth-tokens`)).body).toEqual([]);
  });

  it('admin endpoints: unknown users, bad bodies, no self-logout, server admins only', async () => {
    expect((await t.as.get('/api/admin/users/9999/auth-tokens')).body).toEqual({ message: 'User not found' });
    expect((await t.as.post('/api/admin/users/9999/logout')).status).toBe(404);
    const bad = await t.as.post('/api/admin/users/1/revoke-auth-token').send({ authTokenId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'bad request data' });
    expect((await t.as.post('/api/admin/users/abc/logout')).body).toEqual({ message: 'id is invalid' });
    const self = await t.as.post('/api/admin/users/1/logout');
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ message: 'You cannot logout yourself' });
    const id = (await createUser(t, 'liam')).id;
    const pair = await login('liam');
    const denied = await withCookie(pair).get(`/api/admin/users/${id}/auth-tokens`);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: 'Permission denied' });
  });

  it('a signed-in user lists its own sessions, the current one active, and revokes the others but not that one', async () => {
    await createUser(t, 'mia');
    const current = await login('mia');
    const other = await login('mia', PASSWORD, FIREFOX_WINDOWS);
    const res = await withCookie(current).get('/api/user/auth-tokens');
    expect(res.status).toBe(200);
    const active = res.body.find((x: { isActive: boolean }) => x.isActive);
    const inactive = res.body.find((x: { isActive: boolean }) => !x.isActive);
    expect(res.body).toHaveLength(2);
    expect(active.browser).toBe('Chrome');
    const self = await withCookie(current).post('/api/user/revoke-auth-token').send({ authTokenId: active.id });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ message: 'Cannot revoke active user auth token' });
    const revoked = await withCookie(current).post('/api/user/revoke-auth-token').send({ authTokenId: inactive.id });
    expect(revoked.body).toEqual({ message: 'User auth token revoked' });
    expect((await withCookie(other).get('/api/user')).status).toBe(401);
    expect((await withCookie(current).get('/api/user')).status).toBe(200);
  });

  it('service accounts have no sessions: the signed-in user endpoints refuse them', async () => {
    const sa = await t.as.post('/api/serviceaccounts').send({ name: 'robot', role: 'Admin' });
    expect(sa.status).toBe(201);
    const token = await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'key' });
    expect(token.status).toBe(200);
    const bearer = `Bearer ${token.body.key}`;
    for (const res of [
      await t.anonymous.get('/api/user/auth-tokens').set('Authorization', bearer),
      await t.anonymous.post('/api/user/revoke-auth-token').set('Authorization', bearer).send({ authTokenId: 1 }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Endpoint only available for users' });
    }
    const admin = await t.anonymous.get('/api/admin/users/1/auth-tokens').set('Authorization', bearer);
    expect(admin.status).toBe(403);
    expect(admin.body).toEqual({ message: 'Permission denied' });
  });

  it('seenAt is written at most once a minute, not on every request', async () => {
    const id = (await createUser(t, 'noah')).id;
    const pair = await login('noah');
    const before = (await t.as.get(`/api/admin/users/${id}/auth-tokens`)).body[0];
    const ctx = { requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'test' };
    const name = sessionName(pair.slice('svc_session='.length));
    const rv = (await t.users!.registry.get(ctx, authTokenKind, name)).metadata.resourceVersion;
    for (let i = 0; i < 3; i++) expect((await withCookie(pair).get('/api/user')).status).toBe(200);
    expect((await t.users!.registry.get(ctx, authTokenKind, name)).metadata.resourceVersion).toBe(rv);
    expect((await t.as.get(`/api/admin/users/${id}/auth-tokens`)).body[0].seenAt).toBe(before.seenAt);
  });

  it('deleting a user ends its sessions', async () => {
    const id = (await createUser(t, 'olga')).id;
    const pair = await login('olga');
    expect((await t.as.delete(`/api/admin/users/${id}`)).body).toEqual({ message: 'User deleted' });
    expect((await withCookie(pair).get('/api/user')).status).toBe(401);
    const ctx = { requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'test' };
    const left = await t.users!.registry.list(ctx, authTokenKind, { labelSelector: `svc.app/user-id=${id}` });
    expect(left.items).toEqual([]);
  });
});

describe('session lifetimes', () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await startTestApp(['--auth.login_maximum_inactive_lifetime_duration=2s', '--auth.login_maximum_lifetime_duration=4s', '--auth.login_cookie_name=my_session', '--server.protocol=https']);
    await createUser(short, 'pat');
  });
  afterAll(async () => {
    await short.close();
  });

  async function shortLogin(): Promise<{ pair: string; attributes: string }> {
    const res = await short.anonymous.post('/login').send({ user: 'pat', password: PASSWORD });
    expect(res.status).toBe(200);
    const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('my_session='))!;
    const [pair, ...attributes] = header.split(';').map((s) => s.trim());
    return { pair: pair!, attributes: attributes.join('; ') };
  }
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('uses the configured cookie name, Secure under https, and its lifetime as Max-Age', async () => {
    const { attributes } = await shortLogin();
    expect(attributes).toMatch(/Secure/);
    expect(attributes).toMatch(/Max-Age=4(;|$)/);
  });

  it('ends a session unused for longer than the inactive lifetime', async () => {
    const { pair } = await shortLogin();
    expect((await short.anonymous.get('/api/user').set('Cookie', pair)).status).toBe(200);
    await sleep(2300);
    const res = await short.anonymous.get('/api/user').set('Cookie', pair);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthorized' });
  });

  it('keeps a session in use alive until its maximum lifetime, then ends it', async () => {
    const started = Date.now();
    const { pair } = await shortLogin();
    while (Date.now() - started < 3300) {
      expect((await short.anonymous.get('/api/user').set('Cookie', pair)).status).toBe(200);
      await sleep(400);
    }
    await sleep(Math.max(0, 4200 - (Date.now() - started)));
    expect((await short.anonymous.get('/api/user').set('Cookie', pair)).status).toBe(401);
  });
});

describe('cloud edition (bearer tokens only)', () => {
  let cloud: TestApp;
  beforeAll(async () => {
    cloud = await startTestApp(['--server.edition=cloud', '--server.stack_id=42', '--auth.anonymous.enabled=true']);
  });
  afterAll(async () => {
    await cloud.close();
  });

  it('has no login form, takes no session cookie and nobody is anonymous', async () => {
    const res = await cloud.anonymous.post('/login').send({ user: 'admin', password: 'admin' });
    expect(res.status).toBe(404);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await cloud.anonymous.get('/api/user')).status).toBe(401);
  });
});
