/**
 * GET /api/admin/settings (every edition) and PUT /api/admin/settings (the enterprise edition's auth.saml, stored in
 * the database), through HTTP.
 */
import { internalKinds } from '../../apis';
import { StoredSettings } from '../../pkg/settings';
import { startTestApp, type TestApp } from '../support/app';
import { createUser } from '../support/users';

const MASK = '*********';

describe('open-source edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(['--metrics.basic_auth_username=prom', '--metrics.basic_auth_password=scrape-pw', '--database.url=postgres://svc:db-pw@db.example:5432/svc', '--security.admin_password=admin']);
  });
  afterAll(() => t.close());

  it('answers the effective configuration by section, every value a string, secrets masked', async () => {
    const res = await t.as.get('/api/admin/settings');
    expect(res.status).toBe(200);
    expect(res.body.server).toMatchObject({ http_port: '3000', edition: 'oss', protocol: 'http' });
    expect(res.body.security).toMatchObject({ admin_user: 'admin', admin_password: MASK, secret_key: MASK, previous_secret_keys: '' });
    expect(res.body.metrics).toEqual({ enabled: 'true', basic_auth_username: 'prom', basic_auth_password: MASK });
    expect(res.body.database.url).toBe('postgres://svc:xxxxx@db.example:5432/svc');
    for (const section of Object.values(res.body) as Record<string, unknown>[]) for (const value of Object.values(section)) expect(typeof value).toBe('string');
    const text = JSON.stringify(res.body);
    for (const secret of ['scrape-pw', 'db-pw', 'SW2YcwTIb9zpOOhoPsMm']) expect(text).not.toContain(secret);
    // The configuration's auth.saml (no stored section in this edition).
    expect(res.body['auth.saml']).toMatchObject({ enabled: 'false', private_key: '', allow_sign_up: 'true' });
  });

  it('refuses everyone but a server admin', async () => {
    await createUser(t, 'org-admin', { 1: 'Admin' });
    expect((await t.anonymous.get('/api/admin/settings').auth('org-admin', 'password1')).status).toBe(403);
    expect((await t.anonymous.get('/api/admin/settings')).status).toBe(401);
  });

  it('does not serve PUT (enterprise edition only): 404, nothing stored', async () => {
    const res = await t.as.put('/api/admin/settings').send({ updates: { 'auth.saml': { enabled: 'true' } } });
    expect(res.status).toBe(404);
    expect(await new StoredSettings(t.registry.companion(internalKinds)).all()).toEqual({});
  });

  it('answers the removed LDAP reload 410 with the anchor\'s message, and the other LDAP routes as with LDAP not enabled', async () => {
    const reload = await t.as.post('/api/admin/ldap/reload');
    expect(reload.status).toBe(410);
    expect(reload.body).toEqual({ message: 'This endpoint has been removed. LDAP configuration is now loaded from SSO settings.' });
    for (const res of [await t.as.get('/api/admin/ldap/status'), await t.as.post('/api/admin/ldap/sync/1'), await t.as.get('/api/admin/ldap/someone')]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('LDAP is not enabled');
    }
    expect((await t.anonymous.post('/api/admin/ldap/reload').auth('org-admin', 'password1')).status).toBe(403);
  });

  it('does not serve the enterprise LDAP sync status (404)', async () => {
    const res = await t.as.get('/api/admin/ldap-sync-status');
    expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: 'Not found' } });
  });
});

describe('enterprise edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(['--server.edition=enterprise']);
  });
  afterAll(() => t.close());

  it('stores auth.saml updates and removals in the database, where every replica reads them', async () => {
    const put = await t.as.put('/api/admin/settings').send({ updates: { 'auth.saml': { enabled: 'true', private_key: 'PRIVATE-PEM', idp_metadata_url: 'https://u:idp-pw@idp.example/metadata', name: 'SAML' } } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ message: 'Settings updated' });
    const got = await t.as.get('/api/admin/settings');
    expect(got.body['auth.saml']).toMatchObject({ enabled: 'true', private_key: MASK, idp_metadata_url: 'https://u:xxxxx@idp.example/metadata', name: 'SAML' });
    expect(JSON.stringify(got.body)).not.toContain('PRIVATE-PEM');
    // Another replica: a registry of its own over the same database.
    expect(await new StoredSettings(t.registry.companion(internalKinds)).all()).toEqual({ 'auth.saml': { enabled: 'true', private_key: 'PRIVATE-PEM', idp_metadata_url: 'https://u:idp-pw@idp.example/metadata', name: 'SAML' } });

    const removed = await t.as.put('/api/admin/settings').send({ removals: { 'auth.saml': ['name', 'private_key'] }, updates: { 'auth.saml': { enabled: 'false' } } });
    expect(removed.status).toBe(200);
    // Over the configuration's: what was removed shows the configuration's value again.
    expect((await t.as.get('/api/admin/settings')).body['auth.saml']).toMatchObject({ enabled: 'false', idp_metadata_url: 'https://u:xxxxx@idp.example/metadata', private_key: '', name: 'SAML' });
  });

  it.each([
    ['no body', undefined],
    ['an array', [1]],
    ['neither updates nor removals', {}],
    ['empty updates', { updates: {} }],
    ['an empty section', { updates: { 'auth.saml': {} } }],
    ['another section', { updates: { server: { http_port: '80' } } }],
    ['another section among removals', { updates: { 'auth.saml': { enabled: 'true' } }, removals: { security: ['secret_key'] } }],
    ['a value that is no string', { updates: { 'auth.saml': { enabled: true } } }],
    ['removals that are no list', { removals: { 'auth.saml': 'enabled' } }],
    ['an unknown field', { updates: { 'auth.saml': { enabled: 'true' } }, reload: true }],
    ['a bad setting name', { updates: { 'auth.saml': { 'a b': 'x' } } }],
  ])('answers 400 to %s, changing nothing', async (_label, body) => {
    const before = (await t.as.get('/api/admin/settings')).body;
    const req = t.as.put('/api/admin/settings');
    const res = body === undefined ? await req : await req.send(body as object);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect((await t.as.get('/api/admin/settings')).body).toEqual(before);
  });

  it('answers 400 to JSON that does not parse, changing nothing', async () => {
    const before = (await t.as.get('/api/admin/settings')).body;
    const res = await t.as.put('/api/admin/settings').set('Content-Type', 'application/json').send('{"updates":');
    expect(res.status).toBe(400);
    expect((await t.as.get('/api/admin/settings')).body).toEqual(before);
  });

  it('refuses everyone but a server admin, storing nothing', async () => {
    await createUser(t, 'ent-admin', { 1: 'Admin' });
    const before = (await t.as.get('/api/admin/settings')).body;
    const res = await t.anonymous.put('/api/admin/settings').auth('ent-admin', 'password1').send({ updates: { 'auth.saml': { enabled: 'maybe' } } });
    expect(res.status).toBe(403);
    expect((await t.as.get('/api/admin/settings')).body).toEqual(before);
  });

  it('answers the LDAP sync status as its other LDAP routes without LDAP (400), to server admins only', async () => {
    const res = await t.as.get('/api/admin/ldap-sync-status');
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message: 'LDAP is not enabled' } });
    expect((await t.as.get('/api/admin/ldap/status')).body).toEqual(res.body);
    await createUser(t, 'ent-ldap-admin', { 1: 'Admin' });
    expect((await t.anonymous.get('/api/admin/ldap-sync-status').auth('ent-ldap-admin', 'password1')).status).toBe(403);
    expect((await t.anonymous.get('/api/admin/ldap-sync-status')).status).toBe(401);
  });
});
