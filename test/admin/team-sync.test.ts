/**
 * Team sync (spec §4.10) through HTTP: the enterprise edition maps external groups to teams (the TeamGroup kind,
 * deleted with its team); the open-source edition serves none of it (404).
 */
import { teamGroupKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, PASSWORD } from '../support/users';

const DN = 'cn=editors,ou=groups,dc=example,dc=org';

/** Every TeamGroup object of organization 1. */
async function storedGroups(t: TestApp): Promise<unknown[]> {
  return (await t.users.registry.list(t.users.inOrg(SYSTEM, 1), anyKind(teamGroupKind), {})).items.map((o) => o.spec);
}

describe('open-source edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 on every team sync route, storing nothing', async () => {
    const id = (await t.as.post('/api/teams').send({ name: 'oss-team' })).body.teamId;
    for (const res of [
      await t.as.get(`/api/teams/${id}/groups`),
      await t.as.post(`/api/teams/${id}/groups`).send({ groupId: DN }),
      await t.as.delete(`/api/teams/${id}/groups?groupId=${encodeURIComponent(DN)}`),
      await t.as.get(`/api/teams/${id}/groups/search?query=x`),
    ]) expect(res.status).toBe(404);
    expect(await storedGroups(t)).toEqual([]);
  });
});

describe('enterprise edition', () => {
  let t: TestApp;
  let teamId: number;
  beforeAll(async () => {
    t = await startTestApp(['--server.edition=enterprise']);
    teamId = (await t.as.post('/api/teams').send({ name: 'sync-team' })).body.teamId;
    await createUser(t, 'ts-viewer', { 1: 'Viewer' });
  });
  afterAll(() => t.close());

  it('adds, lists, searches and removes external groups with the anchor\'s messages', async () => {
    const add = await t.as.post(`/api/teams/${teamId}/groups`).send({ groupId: DN });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ message: 'Group added to Team' });
    expect((await t.as.post(`/api/teams/${teamId}/groups`).send({ groupId: 'cn=admins,ou=groups,dc=example,dc=org' })).status).toBe(200);
    const again = await t.as.post(`/api/teams/${teamId}/groups`).send({ groupId: DN });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Group is already added to this team');

    const list = await t.as.get(`/api/teams/${teamId}/groups`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { orgId: 1, teamId, groupId: 'cn=admins,ou=groups,dc=example,dc=org' },
      { orgId: 1, teamId, groupId: DN },
    ]);

    const search = await t.as.get(`/api/teams/${teamId}/groups/search?query=EDITORS&page=1&perpage=10`);
    expect(search.status).toBe(200);
    expect(search.body).toEqual([{ totalCount: 1, teamGroups: [{ orgId: 1, teamId, groupId: DN }], page: 1, perPage: 10 }]);
    const byName = await t.as.get(`/api/teams/${teamId}/groups/search?name=${encodeURIComponent(DN)}`);
    expect(byName.body).toEqual([{ totalCount: 1, teamGroups: [{ orgId: 1, teamId, groupId: DN }], page: 1, perPage: 1000 }]);
    const secondPage = await t.as.get(`/api/teams/${teamId}/groups/search?query=&perpage=1&page=2`);
    expect(secondPage.body).toEqual([{ totalCount: 2, teamGroups: [{ orgId: 1, teamId, groupId: DN }], page: 2, perPage: 1 }]);

    const removed = await t.as.delete(`/api/teams/${teamId}/groups?groupId=${encodeURIComponent(DN)}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ message: 'Team Group removed' });
    const gone = await t.as.delete(`/api/teams/${teamId}/groups?groupId=${encodeURIComponent(DN)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Group not found');
    expect((await t.as.get(`/api/teams/${teamId}/groups`)).body).toEqual([{ orgId: 1, teamId, groupId: 'cn=admins,ou=groups,dc=example,dc=org' }]);
  });

  it('answers 404 "Team not found" for a team that does not exist, or is another organization\'s', async () => {
    const other = await t.users.createOrg(SYSTEM, 'Elsewhere');
    await t.users.setRole(SYSTEM, other.id, (await t.users.userByLoginOrEmail('admin'))!.id, 'Admin');
    const theirs = await t.as.post('/api/teams').set('X-Svc-Org-Id', String(other.id)).send({ name: 'their-team' });
    expect(theirs.status).toBe(200);
    for (const id of [987654, theirs.body.teamId]) {
      for (const res of [
        await t.as.get(`/api/teams/${id}/groups`).set('X-Svc-Org-Id', '1'),
        await t.as.post(`/api/teams/${id}/groups`).set('X-Svc-Org-Id', '1').send({ groupId: 'g' }),
        await t.as.delete(`/api/teams/${id}/groups?groupId=g`).set('X-Svc-Org-Id', '1'),
        await t.as.get(`/api/teams/${id}/groups/search?query=g`).set('X-Svc-Org-Id', '1'),
      ]) expect({ status: res.status, message: res.body.message }).toEqual({ status: 404, message: 'Team not found' });
    }
    expect((await t.users.registry.list(t.users.inOrg(SYSTEM, other.id), anyKind(teamGroupKind), {})).items).toEqual([]);
  });

  it('refuses a member without teams.permissions on the team, changing nothing', async () => {
    const before = await storedGroups(t);
    const v = (p: ReturnType<typeof t.anonymous.get>) => p.auth('ts-viewer', PASSWORD);
    expect((await v(t.anonymous.get(`/api/teams/${teamId}/groups`))).status).toBe(403);
    expect((await v(t.anonymous.post(`/api/teams/${teamId}/groups`)).send({ groupId: 'x' })).status).toBe(403);
    expect((await v(t.anonymous.delete(`/api/teams/${teamId}/groups?groupId=x`))).status).toBe(403);
    expect((await v(t.anonymous.get(`/api/teams/${teamId}/groups/search?query=x`))).status).toBe(403);
    expect((await t.anonymous.get(`/api/teams/${teamId}/groups`)).status).toBe(401);
    expect(await storedGroups(t)).toEqual(before);
  });

  it.each([
    ['no body', 'post', '', undefined],
    ['no groupId', 'post', '', {}],
    ['an empty groupId', 'post', '', { groupId: '   ' }],
    ['a groupId that is no string', 'post', '', { groupId: 5 }],
    ['a groupId too long', 'post', '', { groupId: 'g'.repeat(1025) }],
    ['an array', 'post', '', [{ groupId: 'g' }]],
    ['a bad team id', 'post', 'x!', { groupId: 'g' }],
    ['no groupId to delete', 'delete', '', undefined],
    ['an empty groupId to delete', 'delete', '?groupId=', undefined],
    ['a search without query or name', 'get', '/search', undefined],
    ['a search of a bad team id', 'get', 'x!/search?query=g', undefined],
  ])('answers 400 to %s, changing nothing', async (_label, method, suffix, body) => {
    const before = await storedGroups(t);
    const path = suffix.startsWith('x!') ? `/api/teams/${suffix.replace(/\/search.*/, '')}/groups${suffix.includes('/search') ? suffix.slice(2) : ''}` : `/api/teams/${teamId}/groups${suffix}`;
    const req = t.as[method as 'post' | 'delete' | 'get'](path);
    const res = body === undefined ? await req : await req.send(body as object);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await storedGroups(t)).toEqual(before);
  });

  it('deletes a team\'s groups with the team, in its transaction', async () => {
    const doomed = (await t.as.post('/api/teams').send({ name: 'doomed-team' })).body.teamId;
    expect((await t.as.post(`/api/teams/${doomed}/groups`).send({ groupId: 'cn=doomed' })).status).toBe(200);
    expect((await storedGroups(t)).filter((g) => (g as { teamId: number }).teamId === doomed)).toHaveLength(1);
    expect((await t.as.delete(`/api/teams/${doomed}`)).status).toBe(200);
    expect((await storedGroups(t)).filter((g) => (g as { teamId: number }).teamId === doomed)).toEqual([]);
    // The other team's groups stay.
    expect((await t.as.get(`/api/teams/${teamId}/groups`)).body).toHaveLength(1);
  });
});
