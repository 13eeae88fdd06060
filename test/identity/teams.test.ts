import { teamBindingKind, teamKind } from '../../apis';
import { anyKind } from '../../pkg/meta';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { StoredPermissions } from '../../pkg/auth/authorization/stored-permissions';
import { FOLDERS } from '../support/paths';
import { startTestApp, type TestApp } from '../support/app';
import { recordReads } from '../support/storage-reads';
import { as, createUser } from '../support/users';

/**
 * Teams through the legacy API (/api/teams), on the stored Team and TeamBinding kinds: the anchor's shapes and
 * messages, its 400/403/404/409 answers, who may do what, and one organization's teams invisible from another.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const DENIED = /^You'll need additional permissions to perform this action\. Permissions needed: /;

async function createTeam(name: string, email = ''): Promise<{ teamId: number; uid: string }> {
  const res = await t.as.post('/api/teams').send({ name, email });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: 'Team created', teamId: expect.any(Number), uid: expect.stringMatching(/^[a-z0-9]{14}$/) });
  return res.body;
}

describe('team CRUD', () => {
  it('creates a team, with its creator as team Admin, and reads it back as TeamDTO', async () => {
    const { teamId, uid } = await createTeam('Platform', 'platform@example.com');
    const got = await t.as.get(`/api/teams/${teamId}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      id: teamId,
      uid,
      orgId: 1,
      name: 'Platform',
      email: 'platform@example.com',
      avatarUrl: expect.stringMatching(/^\/avatar\/[0-9a-f]{32}$/),
      memberCount: 1,
      permission: 4,
    });
    const members = await t.as.get(`/api/teams/${teamId}/members`);
    expect(members.body).toEqual([expect.objectContaining({ orgId: 1, teamId, teamUID: uid, userId: 1, login: 'admin', permission: 4 })]);
  });

  it('stores the team as an iam.svc.app Team named by its uid, numbered by the registry', async () => {
    const { teamId, uid } = await createTeam('Stored');
    const ctx = { requester: SYSTEM, namespace: 'default', fieldManager: 'test' };
    const obj = await t.users!.registry.get(ctx, anyKind(teamKind), uid);
    expect(obj).toMatchObject({
      apiVersion: 'iam.svc.app/v0alpha1',
      kind: 'Team',
      metadata: { name: uid, namespace: 'default', labels: { 'svc.app/deprecatedInternalID': String(teamId) }, annotations: { 'svc.app/createdBy': 'user:admin' } },
      spec: { name: 'Stored', email: '' },
    });
    // The anchor's paths take a team's uid in place of its id.
    expect((await t.as.get(`/api/teams/${uid}`)).body).toMatchObject({ id: teamId, uid, name: 'Stored' });
    const bindings = await t.users!.registry.list(ctx, anyKind(teamBindingKind), { labelSelector: `svc.app/team-id=${teamId}` });
    expect(bindings.items.map((b) => b.spec)).toEqual([expect.objectContaining({ teamId, teamUid: uid, userId: 1, permission: 'Admin' })]);
  });

  it('refuses a taken name (any case) with 409 and bad bodies with 400, storing nothing', async () => {
    await createTeam('Unique');
    const taken = await t.as.post('/api/teams').send({ name: 'unique' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: 'Team name taken' });
    const noName = await t.as.post('/api/teams').send({ email: 'x@example.com' });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ message: 'Team name is required' });
    const wrongType = await t.as.post('/api/teams').send({ name: 42 });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ message: 'bad request data' });
    expect((await t.as.post('/api/teams').send([1])).status).toBe(400);
    const search = await t.as.get('/api/teams/search?name=unique');
    expect(search.body.totalCount).toBe(0);
  });

  it('one name asked for at once gives at most one team; the others get 409', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => t.as.post('/api/teams').send({ name: 'Raced' })));
    const created = results.filter((r) => r.status === 200);
    expect(created.length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.body]).toEqual([409, { message: 'Team name taken' }]);
    const search = await t.as.get('/api/teams/search?name=Raced');
    expect(search.body.totalCount).toBe(created.length);
    // Ids stay distinct however teams are created.
    const ids = await Promise.all(['Race A', 'Race B', 'Race C'].map(async (name) => (await createTeam(name)).teamId));
    expect(new Set(ids).size).toBe(3);
  });

  it('updates name and email; a taken name is 400 as in the anchor', async () => {
    const { teamId } = await createTeam('Before');
    await createTeam('Other');
    const upd = await t.as.put(`/api/teams/${teamId}`).send({ name: 'After', email: 'after@example.com' });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ message: 'Team updated' });
    expect((await t.as.get(`/api/teams/${teamId}`)).body).toMatchObject({ name: 'After', email: 'after@example.com' });
    const taken = await t.as.put(`/api/teams/${teamId}`).send({ name: 'other' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Team name taken' });
    // Keeping its own name (in another case) is no clash.
    expect((await t.as.put(`/api/teams/${teamId}`).send({ name: 'AFTER' })).status).toBe(200);
    expect((await t.as.put(`/api/teams/${teamId}`).send({ name: ['x'] })).body).toEqual({ message: 'bad request data' });
  });

  it('deletes a team and its memberships', async () => {
    const { teamId } = await createTeam('Doomed');
    const del = await t.as.delete(`/api/teams/${teamId}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'Team deleted' });
    const gone = await t.as.get(`/api/teams/${teamId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: 'Team not found' });
    const again = await t.as.delete(`/api/teams/${teamId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Failed to delete Team. ID not found' });
    expect(await t.users!.registry.list({ requester: SYSTEM, namespace: 'default', fieldManager: 'test' }, anyKind(teamBindingKind), { labelSelector: `svc.app/team-id=${teamId}` })).toMatchObject({ items: [] });
  });

  it('answers 400 for malformed ids and 404 for unknown ones', async () => {
    for (const path of ['/api/teams/abc', '/api/teams/0', '/api/teams/-1']) {
      const res = await t.as.get(path);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'teamId is invalid' });
    }
    expect((await t.as.put('/api/teams/99999').send({ name: 'x' })).body).toEqual({ message: 'Team not found' });
    expect((await t.as.get('/api/teams/99999/members')).status).toBe(404);
  });
});

describe('team search', () => {
  beforeAll(async () => {
    for (const name of ['Search Alpha', 'Search Beta', 'Search Gamma']) await createTeam(name);
  });

  it('filters by query (part of the name, any case) and by exact name, and pages', async () => {
    const all = await t.as.get('/api/teams/search?query=search');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ totalCount: 3, page: 1, perPage: 1000 });
    expect(all.body.teams.map((x: { name: string }) => x.name)).toEqual(['Search Alpha', 'Search Beta', 'Search Gamma']);
    expect(all.body.teams[0]).toMatchObject({ orgId: 1, memberCount: 1, permission: 4 });

    const page2 = await t.as.get('/api/teams/search?query=SEARCH&perpage=2&page=2');
    expect(page2.body).toMatchObject({ totalCount: 3, page: 2, perPage: 2 });
    expect(page2.body.teams.map((x: { name: string }) => x.name)).toEqual(['Search Gamma']);

    const byName = await t.as.get('/api/teams/search?name=Search%20Beta');
    expect(byName.body.teams.map((x: { name: string }) => x.name)).toEqual(['Search Beta']);
    // Bad paging values fall back to the defaults, as the anchor's QueryInt does.
    expect((await t.as.get('/api/teams/search?query=search&page=x&perpage=-3')).body).toMatchObject({ totalCount: 3, page: 1, perPage: 1000 });
  });

  it('reads the requested page in the database: that page\'s teams and their memberships, never every team', async () => {
    const reads = recordReads(t.storage);
    try {
      const res = await t.as.get('/api/teams/search?query=search&perpage=1&page=2').expect(200);
      expect(res.body).toMatchObject({ totalCount: 3, page: 2, perPage: 1, teams: [{ name: 'Search Beta', memberCount: 1, permission: 4 }] });
      expect(reads.of('teams')).toEqual([{ op: 'page', items: 1 }]);
      expect(reads.of('teambindings')).toEqual([{ op: 'page', items: 1 }]);
    } finally {
      reads.stop();
    }
  });
});

describe('team members', () => {
  it('adds, lists, updates and removes members, with the anchor messages', async () => {
    const { teamId } = await createTeam('Members');
    const ana = (await createUser(t, 'ana', { 1: 'Viewer' })).id;
    const add = await t.as.post(`/api/teams/${teamId}/members`).send({ userId: ana });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ message: 'Member added to Team' });
    const dup = await t.as.post(`/api/teams/${teamId}/members`).send({ userId: ana });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: 'User is already added to this team' });
    const ghost = await t.as.post(`/api/teams/${teamId}/members`).send({ userId: 99999 });
    expect(ghost.status).toBe(404);
    expect(ghost.body).toEqual({ message: 'User not found' });
    expect((await t.as.post(`/api/teams/${teamId}/members`).send({ userId: 'ana' })).body).toEqual({ message: 'bad request data' });

    const list = await t.as.get(`/api/teams/${teamId}/members`);
    expect(list.body.map((m: { login: string; permission: number }) => [m.login, m.permission])).toEqual([
      ['admin', 4],
      ['ana', 0],
    ]);
    expect(list.body[1]).toEqual({
      orgId: 1, teamId, teamUID: expect.any(String), userId: ana, auth_module: '', email: 'ana@example.com', name: 'ana', login: 'ana',
      avatarUrl: expect.stringMatching(/^\/avatar\//), labels: [], permission: 0,
    });
    expect((await t.as.get(`/api/teams/${teamId}`)).body.memberCount).toBe(2);

    const upd = await t.as.put(`/api/teams/${teamId}/members/${ana}`).send({ permission: 4 });
    expect(upd.body).toEqual({ message: 'Team member updated' });
    expect((await t.as.put(`/api/teams/${teamId}/members/${ana}`).send({ permission: 2 })).body).toEqual({ message: 'bad request data' });
    expect((await t.as.put(`/api/teams/${teamId}/members/99999`).send({ permission: 0 })).body).toEqual({ message: 'Team member not found.' });

    const rm = await t.as.delete(`/api/teams/${teamId}/members/${ana}`);
    expect(rm.body).toEqual({ message: 'Team Member removed' });
    const rmAgain = await t.as.delete(`/api/teams/${teamId}/members/${ana}`);
    expect(rmAgain.status).toBe(404);
    expect(rmAgain.body).toEqual({ message: 'Team member not found' });
    expect((await t.as.delete(`/api/teams/${teamId}/members/x`)).body).toEqual({ message: 'userId is invalid' });
  });

  it('sets the members and admins at once by email (PUT /members)', async () => {
    const { teamId } = await createTeam('Bulk');
    await createUser(t, 'bulk1', { 1: 'Viewer' });
    const bulk2 = (await createUser(t, 'bulk2', { 1: 'Viewer' })).id;
    await t.as.post(`/api/teams/${teamId}/members`).send({ userId: bulk2 });
    const res = await t.as.put(`/api/teams/${teamId}/members`).send({ members: ['bulk1@example.com'], admins: ['admin@localhost'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Team memberships have been updated' });
    const members = await t.as.get(`/api/teams/${teamId}/members`);
    expect(members.body.map((m: { login: string; permission: number }) => [m.login, m.permission])).toEqual([
      ['admin', 4],
      ['bulk1', 0],
    ]);
    const unknown = await t.as.put(`/api/teams/${teamId}/members`).send({ members: ['nobody@example.com'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'user not found' });
    expect((await t.as.get(`/api/teams/${teamId}`)).body.memberCount).toBe(2);
    expect((await t.as.put(`/api/teams/${teamId}/members`).send({ admins: 'admin@localhost' })).body).toEqual({ message: 'bad request data' });
  });

  it('a deleted user, or one removed from the org, leaves its teams', async () => {
    const { teamId } = await createTeam('Leavers');
    const bo = (await createUser(t, 'bo', { 1: 'Viewer' })).id;
    const cy = (await createUser(t, 'cy', { 1: 'Viewer' })).id;
    const org2 = await t.users!.createOrg(SYSTEM, 'Leavers Org');
    await t.users!.setRole(SYSTEM, org2.id, cy, 'Viewer');
    for (const userId of [bo, cy]) await t.as.post(`/api/teams/${teamId}/members`).send({ userId });
    expect((await t.as.get(`/api/teams/${teamId}`)).body.memberCount).toBe(3);

    expect((await t.as.delete(`/api/admin/users/${bo}`)).body).toEqual({ message: 'User deleted' });
    expect((await t.as.delete(`/api/org/users/${cy}`)).body).toEqual({ message: 'User removed from organization' });
    const members = await t.as.get(`/api/teams/${teamId}/members`);
    expect(members.body.map((m: { login: string }) => m.login)).toEqual(['admin']);
  });
});

describe('who may do what', () => {
  let teamId: number;
  let other: number;
  beforeAll(async () => {
    teamId = (await createTeam('Viewers Team')).teamId;
    other = (await createTeam('Not Theirs')).teamId;
    const vic = (await createUser(t, 'vic', { 1: 'Viewer' })).id;
    await createUser(t, 'eddie', { 1: 'Editor' });
    await createUser(t, 'lonely', { 1: 'Viewer' });
    await t.as.post(`/api/teams/${teamId}/members`).send({ userId: vic });
  });

  it('Viewers and Editors may not create teams', async () => {
    for (const login of ['vic', 'eddie']) {
      const res = await as(t, login).post('/api/teams').send({ name: `${login} team` });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(DENIED);
      expect(res.body.message).toContain('teams:create');
    }
    expect((await t.as.get('/api/teams/search?name=vic%20team')).body.totalCount).toBe(0);
  });

  it('a member reads its own team (and finds only it), not the others, and may not change it', async () => {
    const own = await as(t, 'vic').get(`/api/teams/${teamId}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: teamId, name: 'Viewers Team', permission: 0 });
    const notOwn = await as(t, 'vic').get(`/api/teams/${other}`);
    expect(notOwn.status).toBe(403);
    expect(notOwn.body.message).toContain('teams:read');
    const search = await as(t, 'vic').get('/api/teams/search');
    expect(search.body).toMatchObject({ totalCount: 1, teams: [{ id: teamId }] });
    expect((await as(t, 'vic').put(`/api/teams/${teamId}`).send({ name: 'Mine' })).status).toBe(403);
    expect((await as(t, 'vic').delete(`/api/teams/${teamId}`)).status).toBe(403);
    expect((await as(t, 'vic').get(`/api/teams/${teamId}/members`)).status).toBe(403);
  });

  it('with ?accesscontrol=true a team says which team actions the caller holds on it', async () => {
    const member = await as(t, 'vic').get(`/api/teams/${teamId}?accesscontrol=true`);
    expect(member.body.accessControl).toEqual({ 'teams:read': true });
    const admin = await t.as.get(`/api/teams/${teamId}?accesscontrol=true`);
    expect(Object.keys(admin.body.accessControl).sort()).toEqual([
      'teams.permissions:read', 'teams.permissions:write', 'teams.roles:add', 'teams.roles:read', 'teams.roles:remove', 'teams:delete', 'teams:read', 'teams:write',
    ]);
    const search = await as(t, 'vic').get('/api/teams/search?accesscontrol=true');
    expect(search.body.teams[0].accessControl).toEqual({ 'teams:read': true });
    expect((await t.as.get(`/api/teams/${teamId}`)).body).not.toHaveProperty('accessControl');
  });

  it('a user in no team may not search teams', async () => {
    const res = await as(t, 'lonely').get('/api/teams/search');
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('teams:read');
  });

  it('a team Admin manages its team without being an org Admin', async () => {
    const { teamId: id } = await createTeam('Delegated');
    const tara = (await createUser(t, 'tara', { 1: 'Viewer' })).id;
    const sam = (await createUser(t, 'sam', { 1: 'Viewer' })).id;
    await t.as.post(`/api/teams/${id}/members`).send({ userId: tara });
    await t.as.put(`/api/teams/${id}/members/${tara}`).send({ permission: 4 });
    expect((await as(t, 'tara').post(`/api/teams/${id}/members`).send({ userId: sam })).body).toEqual({ message: 'Member added to Team' });
    expect((await as(t, 'tara').put(`/api/teams/${id}`).send({ name: 'Delegated 2' })).body).toEqual({ message: 'Team updated' });
    expect((await as(t, 'tara').get(`/api/teams/${id}/members`)).body).toHaveLength(3);
    // Still not another team's.
    expect((await as(t, 'tara').put(`/api/teams/${other}`).send({ name: 'x' })).status).toBe(403);
  });
});

describe('managed permissions granted to a team', () => {
  it('reach its members, and stop when they leave', async () => {
    const created = await t.as.post(FOLDERS).send({ metadata: { name: 'team-only' }, spec: { title: 'Team only' } });
    expect(created.status).toBe(201);
    const { teamId, uid } = await createTeam('Folder Readers');
    const inTeam = (await createUser(t, 'fr-member', { 1: 'Viewer' })).id;
    await createUser(t, 'fr-outsider', { 1: 'Viewer' });
    await t.as.post(`/api/teams/${teamId}/members`).send({ userId: inTeam });
    // Only the team may view the folder (as an admin would set it in the folder's permissions).
    const permissions = new StoredPermissions(t.users!.registry);
    await permissions.replace(SYSTEM, 1, 'folders', 'team-only', [
      { resource: 'folders', uid: 'team-only', grantee: { kind: 'role', role: 'Admin' }, permission: 'Admin' },
      { resource: 'folders', uid: 'team-only', grantee: { kind: 'team', uid }, permission: 'View' },
    ]);
    expect((await as(t, 'fr-member').get(`${FOLDERS}/team-only`)).status).toBe(200);
    expect((await as(t, 'fr-outsider').get(`${FOLDERS}/team-only`)).status).toBe(403);
    await t.as.delete(`/api/teams/${teamId}/members/${inTeam}`);
    expect((await as(t, 'fr-member').get(`${FOLDERS}/team-only`)).status).toBe(403);
  });
});

describe('organizations', () => {
  it('a team of another org is invisible, and ids stay unique across orgs', async () => {
    const org2 = await t.users!.createOrg(SYSTEM, 'Second');
    await t.users!.setRole(SYSTEM, org2.id, 1, 'Admin');
    const hdr = ['X-Svc-Org-Id', String(org2.id)] as const;
    const res = await t.as.post('/api/teams').set(...hdr).send({ name: 'Platform' }); // org 1 has a Platform too
    expect(res.status).toBe(200);
    const id2 = res.body.teamId as number;
    const inOrg2 = await t.as.get(`/api/teams/${id2}`).set(...hdr);
    expect(inOrg2.body).toMatchObject({ id: id2, orgId: org2.id, name: 'Platform' });

    const fromOrg1 = await t.as.get(`/api/teams/${id2}`);
    expect(fromOrg1.status).toBe(404);
    expect(fromOrg1.body).toEqual({ message: 'Team not found' });
    expect((await t.as.put(`/api/teams/${id2}`).send({ name: 'Hijack' })).status).toBe(404);
    expect((await t.as.delete(`/api/teams/${id2}`)).status).toBe(404);
    expect((await t.as.get(`/api/teams/${id2}/members`)).status).toBe(404);

    const search1 = await t.as.get('/api/teams/search?name=Platform');
    expect(search1.body.teams.map((x: { orgId: number }) => x.orgId)).toEqual([1]);
    expect(search1.body.teams[0].id).not.toBe(id2);
    const search2 = await t.as.get('/api/teams/search').set(...hdr);
    expect(search2.body.teams.map((x: { id: number }) => x.id)).toEqual([id2]);

    // A user of org 1 only cannot be added to a team of org 2.
    const dee = (await createUser(t, 'dee', { 1: 'Viewer' })).id;
    expect((await t.as.post(`/api/teams/${id2}/members`).set(...hdr).send({ userId: dee })).body).toEqual({ message: 'User not found' });
  });
});
