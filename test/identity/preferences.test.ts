import type { Response } from 'supertest';
import { preferencesKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';
import { DEFAULT_PREFERENCES_DTO } from '../fixtures/legacy-preferences';

/**
 * Preferences (spec §2.11, §4.9) of users, orgs and teams through the legacy API, on the stored Preferences kind,
 * and the home dashboard they choose (GET /api/dashboards/home): every key on GET, PUT resetting what it omits,
 * PATCH keeping it, the anchor's errors, who may read and change each level, and one organization never seeing
 * another's.
 */
let t: TestApp;
let otherOrg: number;
beforeAll(async () => {
  t = await startTestApp();
  otherOrg = (await t.users!.createOrg(SYSTEM, 'Other')).id;
  for (const [login, role] of [['viewer', 'Viewer'], ['editor', 'Editor'], ['member', 'Viewer'], ['teamadmin', 'Viewer'], ['outsider', 'Viewer']] as const) {
    await createUser(t, login, { 1: role });
  }
  await createUser(t, 'stranger', { [otherOrg]: 'Admin' });
});
afterAll(async () => {
  await t.close();
});

const DEFAULTS = DEFAULT_PREFERENCES_DTO;

/** PUT and PATCH answer the message as text/plain (spec §4.9). */
function expectUpdated(res: Response): void {
  expect(res.status).toBe(200);
  expect(res.type).toBe('text/plain');
  expect(JSON.parse(res.text)).toEqual({ message: 'Preferences updated' });
}

async function createDashboard(uid: string, title: string, folderUid?: string): Promise<number> {
  const res = await t.as.post('/api/dashboards/db').send({ dashboard: { uid, title }, folderUid });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

async function createTeam(name: string): Promise<{ teamId: number; uid: string }> {
  const res = await t.as.post('/api/teams').send({ name });
  expect(res.status).toBe(200);
  return res.body;
}

async function addMember(teamId: number, login: string, admin = false): Promise<void> {
  const user = await t.users!.userByLoginOrEmail(login);
  expect((await t.as.post(`/api/teams/${teamId}/members`).send({ userId: user!.id })).status).toBe(200);
  if (admin) expect((await t.as.put(`/api/teams/${teamId}/members/${user!.id}`).send({ permission: 4 })).status).toBe(200);
}

describe('GET, PUT and PATCH', () => {
  it('answers every key at its default before anything is stored, for each level', async () => {
    const { teamId } = await createTeam('Defaults');
    for (const path of ['/api/user/preferences', '/api/org/preferences', `/api/teams/${teamId}/preferences`]) {
      const res = await t.as.get(path);
      expect([path, res.status, res.body]).toEqual([path, 200, DEFAULTS]);
    }
  });

  it('PUT stores the keys it gives and resets those it omits', async () => {
    await createDashboard('pref-home', 'Pref Home');
    const full = {
      theme: 'dark',
      homeDashboardUID: 'pref-home',
      timezone: 'Europe/Paris',
      weekStart: 'monday',
      language: 'fr-FR',
      regionalFormat: 'fr',
      navbar: { bookmarkUrls: ['/d/pref-home'] },
      queryHistory: { homeTab: 'starred' },
      cookies: ['analytics', 'functional'],
    };
    expectUpdated(await as(t, 'viewer').put('/api/user/preferences').send(full));
    const id = (await t.as.get('/api/dashboards/uid/pref-home')).body.dashboard.id as number;
    const { cookies: _, ...stored } = full;
    expect((await as(t, 'viewer').get('/api/user/preferences')).body).toEqual({ ...stored, homeDashboardId: id, cookiePreferences: { analytics: {}, functional: {} } });

    expectUpdated(await as(t, 'viewer').put('/api/user/preferences').send({ timezone: 'utc' }));
    expect((await as(t, 'viewer').get('/api/user/preferences')).body).toEqual({ ...DEFAULTS, timezone: 'utc' });
  });

  it('PATCH changes the keys it gives and keeps the others', async () => {
    expectUpdated(await as(t, 'editor').put('/api/user/preferences').send({ theme: 'light', timezone: 'browser', weekStart: 'sunday' }));
    expectUpdated(await as(t, 'editor').patch('/api/user/preferences').send({ timezone: 'America/New_York', queryHistory: { homeTab: 'query' } }));
    expect((await as(t, 'editor').get('/api/user/preferences')).body).toEqual({
      ...DEFAULTS,
      theme: 'light',
      timezone: 'America/New_York',
      weekStart: 'sunday',
      queryHistory: { homeTab: 'query' },
    });
    // '' clears one key.
    expectUpdated(await as(t, 'editor').patch('/api/user/preferences').send({ theme: '' }));
    expect((await as(t, 'editor').get('/api/user/preferences')).body).toMatchObject({ theme: '', timezone: 'America/New_York' });
  });

  it('takes the deprecated homeDashboardId and answers both; a deleted home dashboard reads as unset', async () => {
    const id = await createDashboard('by-id', 'By Id');
    expectUpdated(await t.as.patch('/api/user/preferences').send({ homeDashboardId: id }));
    expect((await t.as.get('/api/user/preferences')).body).toMatchObject({ homeDashboardUID: 'by-id', homeDashboardId: id });
    expect((await t.as.delete('/api/dashboards/uid/by-id')).status).toBe(200);
    expect((await t.as.get('/api/user/preferences')).body).toMatchObject({ homeDashboardUID: '', homeDashboardId: 0 });
  });

  it('refuses bad input with the anchor messages and stores nothing', async () => {
    expectUpdated(await as(t, 'member').put('/api/user/preferences').send({ theme: 'dark', timezone: 'utc' }));
    const cases: [string, 'put' | 'patch', unknown, number, string][] = [
      ['/api/user/preferences', 'put', { theme: 'purple' }, 400, 'Invalid theme'],
      ['/api/user/preferences', 'patch', { theme: 'system' }, 400, 'Invalid theme'],
      ['/api/user/preferences', 'put', { timezone: 'Mars/Olympus_Mons' }, 400, 'Invalid timezone'],
      ['/api/user/preferences', 'patch', { timezone: '+01:00' }, 400, 'Invalid timezone'],
      ['/api/user/preferences', 'put', { homeDashboardUID: 'no-such-dashboard' }, 404, 'Dashboard not found'],
      ['/api/user/preferences', 'patch', { homeDashboardId: 987654 }, 404, 'Dashboard not found'],
      ['/api/user/preferences', 'put', [1, 2], 400, 'bad request data'],
      ['/api/user/preferences', 'patch', { theme: 5 }, 400, 'bad request data'],
      ['/api/user/preferences', 'patch', { cookies: ['tracking'] }, 400, 'bad request data'],
      ['/api/user/preferences', 'patch', { navbar: { bookmarkUrls: 'x' } }, 400, 'bad request data'],
      ['/api/user/preferences', 'patch', { homeDashboardId: -1 }, 400, 'bad request data'],
    ];
    for (const [path, method, body, status, message] of cases) {
      const res = await as(t, 'member')[method](path).send(body as object);
      expect([method, body, res.status, res.body]).toEqual([method, body, status, { message }]);
    }
    expect((await as(t, 'member').get('/api/user/preferences')).body).toEqual({ ...DEFAULTS, theme: 'dark', timezone: 'utc' });
  });
});

describe('who may read and change them', () => {
  it('user preferences are for users: a service account gets the anchor 403', async () => {
    const sa = await t.as.post('/api/serviceaccounts').send({ name: 'prefs-robot', role: 'Admin' });
    const token = await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'key' });
    const bearer = `Bearer ${token.body.key}`;
    for (const res of [
      await t.anonymous.get('/api/user/preferences').set('Authorization', bearer),
      await t.anonymous.put('/api/user/preferences').set('Authorization', bearer).send({ theme: 'dark' }),
      await t.anonymous.patch('/api/user/preferences').set('Authorization', bearer).send({ theme: 'dark' }),
    ]) {
      expect([res.status, res.body]).toEqual([403, { message: 'Endpoint only available for users' }]);
    }
    // The org's preferences are its to read.
    expect((await t.anonymous.get('/api/org/preferences').set('Authorization', bearer)).status).toBe(200);
  });

  it('org preferences: every member reads them, only Admins change them', async () => {
    expectUpdated(await t.as.put('/api/org/preferences').send({ theme: 'light', weekStart: 'saturday' }));
    expect((await as(t, 'viewer').get('/api/org/preferences')).body).toEqual({ ...DEFAULTS, theme: 'light', weekStart: 'saturday' });
    for (const res of [await as(t, 'editor').put('/api/org/preferences').send({ theme: 'dark' }), await as(t, 'viewer').patch('/api/org/preferences').send({ theme: 'dark' })]) {
      expect([res.status, res.body]).toEqual([403, { message: 'Permission denied' }]);
    }
    expectUpdated(await t.as.patch('/api/org/preferences').send({ theme: 'dark' }));
    expect((await as(t, 'editor').get('/api/org/preferences')).body).toEqual({ ...DEFAULTS, theme: 'dark', weekStart: 'saturday' });
  });

  it("team preferences: its members read them, its Admins and org Admins change them, others are refused", async () => {
    const { teamId, uid } = await createTeam('Prefs Team');
    await addMember(teamId, 'member');
    await addMember(teamId, 'teamadmin', true);
    const path = `/api/teams/${teamId}/preferences`;
    expectUpdated(await as(t, 'teamadmin').put(path).send({ theme: 'dark', timezone: 'Asia/Tokyo' }));
    expect((await as(t, 'member').get(path)).body).toEqual({ ...DEFAULTS, theme: 'dark', timezone: 'Asia/Tokyo' });
    // By uid too, as the team endpoints take either.
    expect((await as(t, 'member').get(`/api/teams/${uid}/preferences`)).body).toMatchObject({ theme: 'dark' });
    expectUpdated(await t.as.patch(path).send({ theme: 'light' }));
    expect((await as(t, 'teamadmin').get(path)).body).toEqual({ ...DEFAULTS, theme: 'light', timezone: 'Asia/Tokyo' });

    const denied = await as(t, 'member').patch(path).send({ theme: 'dark' });
    expect([denied.status, denied.body.message]).toEqual([403, "You'll need additional permissions to perform this action. Permissions needed: teams:write"]);
    const outsider = await as(t, 'outsider').get(path);
    expect([outsider.status, outsider.body.message]).toEqual([403, "You'll need additional permissions to perform this action. Permissions needed: teams:read"]);
    const missing = await t.as.get('/api/teams/999999/preferences');
    expect([missing.status, missing.body]).toEqual([404, { message: 'Team not found' }]);
    expect((await as(t, 'member').get(path)).body.theme).toBe('light');
  });

  it("a deleted team's preferences go with it", async () => {
    const { teamId, uid } = await createTeam('Short Lived');
    expectUpdated(await t.as.put(`/api/teams/${teamId}/preferences`).send({ theme: 'dark' }));
    const ctx = { requester: SYSTEM, namespace: 'default', fieldManager: 'test' };
    expect((await t.users!.registry.get(ctx, anyKind(preferencesKind), `team-${uid}`)).spec).toMatchObject({ theme: 'dark' });
    expect((await t.as.delete(`/api/teams/${teamId}`)).status).toBe(200);
    await expect(t.users!.registry.get(ctx, anyKind(preferencesKind), `team-${uid}`)).rejects.toMatchObject({ code: 404 });
  });
});

describe('organizations', () => {
  it("a user's preferences in an org go when it leaves that org", async () => {
    const id = (await createUser(t, 'leaver', { 1: 'Viewer' })).id;
    expectUpdated(await as(t, 'leaver').put('/api/user/preferences').send({ theme: 'dark' }));
    const uid = (await t.users!.userById(id))!.uid;
    const ctx = { requester: SYSTEM, namespace: 'default', fieldManager: 'test' };
    expect((await t.users!.registry.get(ctx, anyKind(preferencesKind), `user-${uid}`)).spec).toMatchObject({ theme: 'dark' });
    expect((await t.as.delete(`/api/org/users/${id}`)).status).toBe(200);
    await expect(t.users!.registry.get(ctx, anyKind(preferencesKind), `user-${uid}`)).rejects.toMatchObject({ code: 404 });
  });


  it("one org never sees another's preferences, and a home dashboard must be of the caller's org", async () => {
    expectUpdated(await t.as.put('/api/org/preferences').send({ theme: 'dark', timezone: 'Europe/Berlin' }));
    expect((await as(t, 'stranger').get('/api/org/preferences')).body).toEqual(DEFAULTS);
    expect((await as(t, 'stranger').get('/api/user/preferences')).body).toEqual(DEFAULTS);
    await createDashboard('org1-only', 'Org One');
    const res = await as(t, 'stranger').put('/api/user/preferences').send({ homeDashboardUID: 'org1-only' });
    expect([res.status, res.body]).toEqual([404, { message: 'Dashboard not found' }]);
    expectUpdated(await as(t, 'stranger').put('/api/org/preferences').send({ theme: 'light' }));
    expect((await t.as.get('/api/org/preferences')).body).toMatchObject({ theme: 'dark', timezone: 'Europe/Berlin' });
    // The server admin's own preferences differ per org it acts in.
    await t.users!.setRole(SYSTEM, otherOrg, 1, 'Admin');
    expectUpdated(await t.as.put('/api/user/preferences').set('X-Svc-Org-Id', String(otherOrg)).send({ theme: 'light' }));
    expect((await t.as.get('/api/user/preferences').set('X-Svc-Org-Id', String(otherOrg))).body.theme).toBe('light');
    expect((await t.as.get('/api/org/preferences').set('X-Svc-Org-Id', String(otherOrg))).body.theme).toBe('light');
    expect((await t.as.get('/api/user/preferences')).body.theme).not.toBe('light');
  });
});

describe('GET /api/dashboards/home', () => {
  /** A fresh user of org 1, in the given teams. */
  async function userInTeams(login: string, teamIds: number[]): Promise<void> {
    await createUser(t, login, { 1: 'Viewer' });
    for (const teamId of teamIds) await addMember(teamId, login);
  }
  const homeOf = async (login: string) => {
    const res = await as(t, login).get('/api/dashboards/home');
    expect(res.status).toBe(200);
    return res.body;
  };
  const isBuiltIn = (body: { dashboard?: { title?: string }; redirectUri?: string }) => body.redirectUri === undefined && body.dashboard?.title === 'Home';

  it("follows the user's preference, else its teams', else the org's, else the built-in home", async () => {
    await t.as.put('/api/org/preferences').send({});
    await createDashboard('home-org', 'Org Home');
    await createDashboard('home-team', 'Team Home');
    await createDashboard('home-user', 'User: Home!');
    const team = await createTeam('Home Team');
    await userInTeams('h-member', [team.teamId]);
    await userInTeams('h-loner', []);

    expect(isBuiltIn(await homeOf('h-member'))).toBe(true);
    expectUpdated(await t.as.patch('/api/org/preferences').send({ homeDashboardUID: 'home-org' }));
    expect(await homeOf('h-member')).toEqual({ redirectUri: '/d/home-org/org-home' });
    expectUpdated(await t.as.patch(`/api/teams/${team.teamId}/preferences`).send({ homeDashboardUID: 'home-team' }));
    expect(await homeOf('h-member')).toEqual({ redirectUri: '/d/home-team/team-home' });
    expect(await homeOf('h-loner')).toEqual({ redirectUri: '/d/home-org/org-home' });
    expectUpdated(await as(t, 'h-member').put('/api/user/preferences').send({ homeDashboardUID: 'home-user' }));
    expect(await homeOf('h-member')).toEqual({ redirectUri: '/d/home-user/user-home' });
    // Another org's members keep their built-in home.
    expect(isBuiltIn(await homeOf('stranger'))).toBe(true);
    // Clearing one level uncovers the next.
    expectUpdated(await as(t, 'h-member').patch('/api/user/preferences').send({ homeDashboardUID: '' }));
    expect(await homeOf('h-member')).toEqual({ redirectUri: '/d/home-team/team-home' });
  });

  it('between two teams, the one created last wins (as the anchor)', async () => {
    await createDashboard('home-first', 'First');
    await createDashboard('home-second', 'Second');
    const first = await createTeam('First Team');
    const second = await createTeam('Second Team');
    await userInTeams('h-both', [second.teamId, first.teamId]);
    await t.as.put(`/api/teams/${first.teamId}/preferences`).send({ homeDashboardUID: 'home-first' });
    await t.as.put(`/api/teams/${second.teamId}/preferences`).send({ homeDashboardUID: 'home-second' });
    expect(await homeOf('h-both')).toEqual({ redirectUri: '/d/home-second/second' });
  });

  it('falls back to the built-in home when the preferred dashboard is deleted or hidden from the caller', async () => {
    await t.as.put('/api/org/preferences').send({});
    expect((await t.as.post('/api/folders').send({ uid: 'secret-f', title: 'Secret' })).status).toBe(200);
    expect((await t.as.post('/api/folders/secret-f/permissions').send({ items: [] })).status).toBe(200);
    await createDashboard('home-secret', 'Secret Home', 'secret-f');
    await createDashboard('home-gone', 'Gone');
    await userInTeams('h-hidden', []);
    await userInTeams('h-deleted', []);

    expectUpdated(await as(t, 'h-hidden').put('/api/user/preferences').send({ homeDashboardUID: 'home-secret' }));
    expect((await as(t, 'h-hidden').get('/api/dashboards/uid/home-secret')).status).toBe(403);
    expect(isBuiltIn(await homeOf('h-hidden'))).toBe(true);
    // The server admin reads it, so it goes there.
    await t.as.put('/api/user/preferences').send({ homeDashboardUID: 'home-secret' });
    expect((await t.as.get('/api/dashboards/home')).body).toEqual({ redirectUri: '/d/home-secret/secret-home' });

    expectUpdated(await as(t, 'h-deleted').put('/api/user/preferences').send({ homeDashboardUID: 'home-gone' }));
    expect(await homeOf('h-deleted')).toEqual({ redirectUri: '/d/home-gone/gone' });
    expect((await t.as.delete('/api/dashboards/uid/home-gone')).status).toBe(200);
    expect(isBuiltIn(await homeOf('h-deleted'))).toBe(true);
  });
});

describe('anonymous visitors', () => {
  let anon: TestApp;
  beforeAll(async () => {
    anon = await startTestApp(['--auth.anonymous.enabled=true']);
  });
  afterAll(async () => {
    await anon.close();
  });

  it("have no preferences of their own, read the org's and follow its home dashboard", async () => {
    const own = await anon.anonymous.get('/api/user/preferences');
    expect([own.status, own.body]).toEqual([403, { message: 'Endpoint only available for users' }]);
    expect((await anon.as.post('/api/dashboards/db').send({ dashboard: { uid: 'public-home', title: 'Public Home' } })).status).toBe(200);
    expectUpdated(await anon.as.put('/api/org/preferences').send({ homeDashboardUID: 'public-home' }));
    expect((await anon.anonymous.get('/api/org/preferences')).body).toMatchObject({ homeDashboardUID: 'public-home' });
    expect((await anon.anonymous.get('/api/dashboards/home')).body).toEqual({ redirectUri: '/d/public-home/public-home' });
  });
});
