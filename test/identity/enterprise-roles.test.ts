import { registryFolderTree } from '../../pkg/auth/authorization/access-control';
import { Authorizer } from '../../pkg/auth/authorization/authorizer';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { folderScope, type Subject } from '../../pkg/auth/authorization/permissions';
import { RoleDirectory } from '../../pkg/auth/authorization/role-directory';
import { ServiceAccounts } from '../../pkg/auth/identity/service-accounts';
import { FOLDERS } from '../support/paths';
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

/**
 * Custom roles of the enterprise edition (/api/access-control): CRUD with the anchor's shapes, the no-escalation
 * rule, assignments to users and teams, and what a member of a team then holds.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(['--server.edition=enterprise']);
});
afterAll(async () => {
  await t.close();
});

const ROLES = '/api/access-control/roles';
const DASH_READER = { name: 'custom:dash-reader', displayName: 'Dashboard reader', description: 'Reads every dashboard', group: 'Custom', permissions: [{ action: 'dashboards:read', scope: 'dashboards:*' }] };

async function createRole(body: object): Promise<string> {
  const res = await t.as.post(ROLES).send(body);
  expect(res.status).toBe(201);
  return res.body.uid as string;
}

async function createTeam(name: string): Promise<number> {
  const res = await t.as.post('/api/teams').send({ name });
  expect(res.status).toBe(200);
  return res.body.teamId as number;
}

describe('custom roles', () => {
  it('creates, lists, gets, updates (version + 1) and deletes a role', async () => {
    const created = await t.as.post(ROLES).send({ ...DASH_READER, uid: 'dash-reader' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      version: 1,
      uid: 'dash-reader',
      name: 'custom:dash-reader',
      displayName: 'Dashboard reader',
      description: 'Reads every dashboard',
      group: 'Custom',
      hidden: false,
      permissions: [{ action: 'dashboards:read', scope: 'dashboards:*', created: expect.any(String), updated: expect.any(String) }],
      created: expect.any(String),
      updated: expect.any(String),
    });
    expect((await t.as.get(ROLES)).body.map((r: { uid: string }) => r.uid)).toContain('dash-reader');
    expect((await t.as.get(`${ROLES}/dash-reader`)).body).toEqual(created.body);

    const upd = await t.as.put(`${ROLES}/dash-reader`).send({ ...DASH_READER, permissions: [{ action: 'dashboards:read', scope: 'folders:uid:ops' }] });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ uid: 'dash-reader', version: 2, permissions: [{ action: 'dashboards:read', scope: 'folders:uid:ops' }] });

    const del = await t.as.delete(`${ROLES}/dash-reader`);
    expect(del.body).toEqual({ message: 'Role deleted' });
    const gone = await t.as.get(`${ROLES}/dash-reader`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: 'Role not found' });
    expect((await t.as.put(`${ROLES}/dash-reader`).send(DASH_READER)).status).toBe(404);
    expect((await t.as.delete(`${ROLES}/dash-reader`)).status).toBe(404);
  });

  it('refuses bad forms (400), reserved names (400) and taken names or uids (409)', async () => {
    await createRole({ name: 'custom:taken', uid: 'taken' });
    const cases: [object, number, string | RegExp][] = [
      [{ permissions: [] }, 400, 'Role name is required'],
      [{ name: 'custom:x', permissions: [{ scope: 'dashboards:*' }] }, 400, 'bad request data'],
      [{ name: 'custom:x', uid: 'not a uid!' }, 400, 'uid must be 1 to 40 letters, digits, - or _'],
      [{ name: 'fixed:dashboards:reader' }, 400, /^the role name cannot start with "fixed:"/],
      [{ name: 'custom:x', global: true }, 400, /^global roles are not supported/],
      [{ name: 'custom:taken' }, 409, 'A role with the same name already exists'],
      [{ name: 'custom:other', uid: 'taken' }, 409, 'A role with the same uid already exists'],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.as.post(ROLES).send(body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.body.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    }
    expect((await t.as.get(ROLES)).body.filter((r: { name: string }) => r.name === 'custom:taken')).toHaveLength(1);
  });

  it('is for org Admins, who may only give away what they hold themselves', async () => {
    await createUser(t, 'rv', { 1: 'Viewer' });
    await createUser(t, 'ra', { 1: 'Admin' });
    const viewer = await as(t, 'rv').post(ROLES).send(DASH_READER);
    expect(viewer.status).toBe(403);
    expect(viewer.body.message).toContain('roles:write');
    expect((await as(t, 'rv').get(ROLES)).status).toBe(403);
    // users:create belongs to server admins: an org Admin cannot put it in a role, nor assign a role that has it.
    const escalate = await as(t, 'ra').post(ROLES).send({ name: 'custom:user-maker', permissions: [{ action: 'users:create' }] });
    expect(escalate.status).toBe(403);
    expect(escalate.body.message).toContain('users:create');
    const makerUid = await createRole({ name: 'custom:user-maker', permissions: [{ action: 'users:create' }] });
    const ra = await t.users!.userByLoginOrEmail('ra');
    const assign = await as(t, 'ra').post(`/api/access-control/users/${ra!.id}/roles`).send({ roleUid: makerUid });
    expect(assign.status).toBe(403);
    expect((await as(t, 'ra').delete(`${ROLES}/${makerUid}`)).status).toBe(403);
    expect((await as(t, 'ra').post(ROLES).send({ name: 'custom:ra-reader', permissions: DASH_READER.permissions })).status).toBe(201);
  });
});

describe('assignments', () => {
  it('a role assigned to a team gives its members its permissions, until taken back', async () => {
    const roleUid = await createRole({ ...DASH_READER, name: 'custom:team-dash-reader' });
    const member = await createUser(t, 'tm', { 1: 'Viewer' });
    const teamId = await createTeam('Readers');
    await t.as.post(`/api/teams/${teamId}/members`).send({ userId: member.id });

    const before = await as(t, 'tm').get('/api/access-control/user/permissions');
    expect(before.status).toBe(200);
    expect(before.body['dashboards:read']).toBeUndefined();
    expect(before.body['teams:read']).toEqual([`teams:id:${teamId}`]);

    const add = await t.as.post(`/api/access-control/teams/${teamId}/roles`).send({ roleUid });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ message: 'Role added to the team.' });
    expect((await t.as.get(`/api/access-control/teams/${teamId}/roles`)).body.map((r: { uid: string }) => r.uid)).toEqual([roleUid]);
    expect((await as(t, 'tm').get('/api/access-control/user/permissions')).body['dashboards:read']).toEqual(['dashboards:*']);

    const rm = await t.as.delete(`/api/access-control/teams/${teamId}/roles/${roleUid}`);
    expect(rm.body).toEqual({ message: 'Role removed from team.' });
    expect((await as(t, 'tm').get('/api/access-control/user/permissions')).body['dashboards:read']).toBeUndefined();
    const again = await t.as.delete(`/api/access-control/teams/${teamId}/roles/${roleUid}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Role assignment not found' });

    // Deleting the team takes its assignments along; a member who leaves the team loses them at once.
    await t.as.post(`/api/access-control/teams/${teamId}/roles`).send({ roleUid });
    await t.as.delete(`/api/teams/${teamId}/members/${member.id}`);
    expect((await as(t, 'tm').get('/api/access-control/user/permissions')).body['dashboards:read']).toBeUndefined();
    await t.as.delete(`/api/teams/${teamId}`);
    const left = await t.users!.registry.list({ requester: SYSTEM, namespace: 'default', fieldManager: 'test' }, t.users!.registry.kinds.find((k) => k.kind === 'RoleBinding')!, { labelSelector: `svc.app/subject-id=team-${teamId}` });
    expect(left.items).toEqual([]);
  });

  it('assigns roles to users, lists and takes them back', async () => {
    const roleUid = await createRole({ ...DASH_READER, name: 'custom:user-dash-reader' });
    const u = await createUser(t, 'ur', { 1: 'Viewer' });
    const add = await t.as.post(`/api/access-control/users/${u.id}/roles`).send({ roleUid, global: false });
    expect(add.body).toEqual({ message: 'Role added to the user.' });
    // Assigning again changes nothing.
    expect((await t.as.post(`/api/access-control/users/${u.id}/roles`).send({ roleUid })).status).toBe(200);
    const list = await t.as.get(`/api/access-control/users/${u.id}/roles`);
    expect(list.body).toEqual([expect.objectContaining({ uid: roleUid, name: 'custom:user-dash-reader', version: 1 })]);
    expect((await as(t, 'ur').get('/api/access-control/user/permissions')).body['dashboards:read']).toEqual(['dashboards:*']);

    const rm = await t.as.delete(`/api/access-control/users/${u.id}/roles/${roleUid}`);
    expect(rm.body).toEqual({ message: 'Role removed from user.' });
    expect((await t.as.get(`/api/access-control/users/${u.id}/roles`)).body).toEqual([]);
    expect((await as(t, 'ur').get('/api/access-control/user/permissions')).body['dashboards:read']).toBeUndefined();
  });

  it("sets a user's and a team's roles exactly (PUT .../roles); a bad or refused request changes nothing", async () => {
    const a = await createRole({ ...DASH_READER, name: 'custom:set-a' });
    const b = await createRole({ ...DASH_READER, name: 'custom:set-b' });
    const c = await createRole({ ...DASH_READER, name: 'custom:set-c' });
    const u = await createUser(t, 'set-user', { 1: 'Viewer' });
    const teamId = await createTeam('set-team');
    const uidsOf = async (path: string) => ((await t.as.get(path)).body as { uid: string }[]).map((r) => r.uid).sort();
    for (const [subject, message] of [[`users/${u.id}`, 'User roles have been updated.'], [`teams/${teamId}`, 'Team roles have been updated.']] as const) {
      const path = `/api/access-control/${subject}/roles`;
      await t.as.post(path).send({ roleUid: a }).expect(200);
      const set = await t.as.put(path).send({ roleUids: [b, c, b] });
      expect([set.status, set.body]).toEqual([200, { message }]);
      expect(await uidsOf(path)).toEqual([b, c].sort());
      const bad: [unknown, number][] = [[{}, 400], [{ roleUids: 'x' }, 400], [{ roleUids: [1] }, 400], [{ roleUids: [''] }, 400], [[b], 400], [{ roleUids: [a, 'missing'] }, 404]];
      for (const [body, status] of bad) {
        const res = await t.as.put(path).send(body as object);
        expect([subject, JSON.stringify(body), res.status, typeof res.body.message]).toEqual([subject, JSON.stringify(body), status, 'string']);
      }
      expect(await uidsOf(path)).toEqual([b, c].sort());
      expect((await t.as.put(path).send({ roleUids: [] })).status).toBe(200);
      expect(await uidsOf(path)).toEqual([]);
    }
    expect((await t.as.put('/api/access-control/users/99999/roles').send({ roleUids: [a] })).body).toEqual({ message: 'User not found' });
    expect((await t.as.put('/api/access-control/teams/99999/roles').send({ roleUids: [a] })).status).toBe(404);
    expect((await t.as.put('/api/access-control/users/abc/roles').send({ roleUids: [a] })).status).toBe(400);
    expect((await t.as.put(`/api/access-control/users/${u.id}/roles`).send({ roleUids: [a], global: true })).status).toBe(400);
    // An Editor holds neither action.
    await createUser(t, 'set-editor', { 1: 'Editor' });
    const refused = await as(t, 'set-editor').put(`/api/access-control/users/${u.id}/roles`).send({ roleUids: [a] });
    expect([refused.status, refused.body.message]).toEqual([403, "You'll need additional permissions to perform this action. Permissions needed: users.roles:add"]);
    expect(await uidsOf(`/api/access-control/users/${u.id}/roles`)).toEqual([]);
  });

  it('status: enabled, for every signed-in user', async () => {
    await createUser(t, 'status-viewer', { 1: 'Viewer' });
    expect((await as(t, 'status-viewer').get('/api/access-control/status')).body).toEqual({ enabled: true });
    expect((await t.anonymous.get('/api/access-control/status')).status).toBe(401);
  });

  it('assignments search: a row per permission of each assigned role and per basic role, narrowed by the body', async () => {
    const roleUid = await createRole({ ...DASH_READER, name: 'custom:search-me', permissions: [{ action: 'dashboards:read', scope: 'dashboards:*' }, { action: 'folders:read', scope: 'folders:*' }] });
    const u = await createUser(t, 'searched', { 1: 'Viewer' });
    const teamId = await createTeam('searched-team');
    await t.as.post(`/api/access-control/users/${u.id}/roles`).send({ roleUid }).expect(200);
    await t.as.post(`/api/access-control/teams/${teamId}/roles`).send({ roleUid }).expect(200);
    const mine = await t.as.post('/api/access-control/assignments/search').send({ roleName: 'custom:search-me' });
    expect(mine.status).toBe(200);
    expect(mine.body.result).toEqual(expect.arrayContaining([
      { orgId: 1, userId: u.id, roleName: 'custom:search-me', version: 1, action: 'dashboards:read', scope: 'dashboards:*' },
      { orgId: 1, userId: u.id, roleName: 'custom:search-me', version: 1, action: 'folders:read', scope: 'folders:*' },
      { orgId: 1, teamId, roleName: 'custom:search-me', version: 1, action: 'folders:read', scope: 'folders:*' },
    ]));
    expect(mine.body.result).toHaveLength(4);
    const basic = await t.as.post('/api/access-control/assignments/search').send({ userId: u.id });
    expect(basic.body.result).toContainEqual({ orgId: 1, userId: u.id, basicRole: 'Viewer' });
    expect((await t.as.post('/api/access-control/assignments/search')).status).toBe(200);
    for (const body of [{ userId: 'x' }, { userId: 0 }, { action: 5 }, [1]]) {
      const res = await t.as.post('/api/access-control/assignments/search').send(body as object);
      expect([JSON.stringify(body), res.status, res.body]).toEqual([JSON.stringify(body), 400, { message: 'bad request data' }]);
    }
    const refused = await as(t, 'searched').post('/api/access-control/assignments/search').send({});
    expect([refused.status, refused.body.message]).toEqual([403, "You'll need additional permissions to perform this action. Permissions needed: teams.roles:read"]);
  });

  it('sets and lists whom a role is assigned to, service accounts included', async () => {
    const roleUid = await createRole({ ...DASH_READER, name: 'custom:assigned-reader' });
    const u = await createUser(t, 'as-user', { 1: 'Viewer' });
    const teamId = await createTeam('Assigned');
    const accounts = new ServiceAccounts(t.users!.registry, t.storage);
    const sa = await accounts.create(SYSTEM, 1, { name: 'reader-bot', role: 'Viewer' });
    const { key } = await accounts.addToken(SYSTEM, sa, { name: 'k' });
    const saPermissions = async () => (await t.anonymous.get('/api/access-control/user/permissions').set('Authorization', `Bearer ${key}`)).body;
    expect((await saPermissions())['dashboards:read']).toBeUndefined();

    const set = await t.as.put(`${ROLES}/${roleUid}/assignments`).send({ users: [u.id], teams: [teamId], service_accounts: [sa.id] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ role_uid: roleUid, users: [u.id], teams: [teamId], service_accounts: [sa.id] });
    expect((await t.as.get(`${ROLES}/${roleUid}/assignments`)).body).toEqual(set.body);
    expect((await saPermissions())['dashboards:read']).toEqual(['dashboards:*']);
    expect((await t.as.get(`/api/access-control/teams/${teamId}/roles`)).body.map((r: { uid: string }) => r.uid)).toEqual([roleUid]);

    // A set naming a missing team changes nothing; then a smaller set takes the others back.
    const missing = await t.as.put(`${ROLES}/${roleUid}/assignments`).send({ teams: [99999] });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Team not found' });
    expect((await t.as.get(`${ROLES}/${roleUid}/assignments`)).body).toEqual(set.body);
    expect((await t.as.put(`${ROLES}/${roleUid}/assignments`).send({ users: ['x'] })).body).toEqual({ message: 'bad request data' });
    const smaller = await t.as.put(`${ROLES}/${roleUid}/assignments`).send({ users: [u.id] });
    expect(smaller.body).toEqual({ role_uid: roleUid, users: [u.id], teams: [], service_accounts: [] });
    expect((await saPermissions())['dashboards:read']).toBeUndefined();
    expect((await t.as.get(`${ROLES}/nope/assignments`)).body).toEqual({ message: 'Role not found' });
  });

  it('a deleted service account loses its assignments', async () => {
    const roleUid = await createRole({ ...DASH_READER, name: 'custom:sa-reader' });
    const sa = await t.as.post('/api/serviceaccounts').send({ name: 'short-lived', role: 'Viewer' });
    expect(sa.status).toBe(201);
    await t.as.put(`${ROLES}/${roleUid}/assignments`).send({ service_accounts: [sa.body.id] });
    expect((await t.as.get(`${ROLES}/${roleUid}/assignments`)).body.service_accounts).toEqual([sa.body.id]);
    expect((await t.as.delete(`/api/serviceaccounts/${sa.body.id}`)).status).toBe(200);
    expect((await t.as.get(`${ROLES}/${roleUid}/assignments`)).body.service_accounts).toEqual([]);
  });

  it('answers 400 and 404 for what is malformed or missing', async () => {
    const roleUid = await createRole({ name: 'custom:for-404s' });
    const u = await createUser(t, 'u404', { 1: 'Viewer' });
    const cases: [string, string, object | undefined, number, string][] = [
      ['post', '/api/access-control/users/99999/roles', { roleUid }, 404, 'User not found'],
      ['post', `/api/access-control/users/${u.id}/roles`, { roleUid: 'nope' }, 404, 'Role not found'],
      ['post', `/api/access-control/users/${u.id}/roles`, {}, 400, 'bad request data'],
      ['get', '/api/access-control/users/abc/roles', undefined, 400, 'userId is invalid'],
      ['post', '/api/access-control/teams/99999/roles', { roleUid }, 404, 'Team not found'],
      ['get', '/api/access-control/teams/x/roles', undefined, 400, 'teamId is invalid'],
      ['delete', `/api/access-control/users/${u.id}/roles/${roleUid}`, undefined, 404, 'Role assignment not found'],
    ];
    for (const [method, path, body, status, message] of cases) {
      const req = method === 'get' ? t.as.get(path) : method === 'post' ? t.as.post(path).send(body ?? {}) : t.as.delete(path);
      const res = await req;
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status, body: { message } });
    }
  });

  it('a user of another org is not found, and roles of another org are invisible', async () => {
    const org2 = await t.users!.createOrg(SYSTEM, 'Roles Org');
    await t.users!.setRole(SYSTEM, org2.id, 1, 'Admin');
    const hdr = ['X-Svc-Org-Id', String(org2.id)] as const;
    const res = await t.as.post(ROLES).set(...hdr).send({ name: 'custom:org2-only', uid: 'org2-only' });
    expect(res.status).toBe(201);
    expect((await t.as.get(`${ROLES}/org2-only`)).status).toBe(404);
    expect((await t.as.get(ROLES)).body.map((r: { uid: string }) => r.uid)).not.toContain('org2-only');
    const outsider = await createUser(t, 'outsider', { [org2.id]: 'Viewer' });
    expect((await t.as.post(`/api/access-control/users/${outsider.id}/roles`).send({ roleUid: 'org2-only' })).status).toBe(404);
  });
});

describe('folder creation by custom role (spec §5.6)', () => {
  let authz: Authorizer;
  let roles: RoleDirectory;
  beforeAll(async () => {
    for (const [name, parent] of [['ops', undefined], ['ops-child', 'ops'], ['dev', undefined]] as const) {
      const res = await t.as.post(FOLDERS).send({ metadata: { name, ...(parent ? { annotations: { 'svc.app/folder': parent } } : {}) }, spec: { title: name } });
      expect(res.status).toBe(201);
    }
    // The app's own directories are not exposed; these read and write the same stored kinds.
    roles = new RoleDirectory(t.users!);
    authz = new Authorizer({ tree: registryFolderTree(t.registry), roles });
  });

  async function viewerWith(login: string, scope: string): Promise<Subject> {
    const u = await createUser(t, login, { 1: 'Viewer' });
    const role = await roles.createRole(SYSTEM, 1, { name: `custom:${login}`, permissions: [{ action: 'folders:create', scope }] });
    await roles.assign(SYSTEM, 1, role, { kind: 'user', uid: u.uid, id: u.id });
    return { kind: 'user', uid: u.uid, orgId: 1, orgRole: 'Viewer', isServerAdmin: false, teamUids: [] };
  }

  it('folders:create on folders:uid:general creates root folders only', async () => {
    const s = await viewerWith('rootmaker', folderScope('general'));
    expect(await authz.can(s, 'folders:create', folderScope(undefined))).toBe(true);
    expect(await authz.can(s, 'folders:create', folderScope('ops'))).toBe(false);
    expect((await as(t, 'rootmaker').get('/api/access-control/user/permissions')).body['folders:create']).toEqual(['folders:uid:general']);
  });

  it('through /apis: a Viewer with folders:create on general makes root folders, not subfolders', async () => {
    await viewerWith('rootmaker-http', folderScope('general'));
    const root = await as(t, 'rootmaker-http').post(FOLDERS).send({ metadata: { name: 'rm-root' }, spec: { title: 'Root by role' } });
    expect(root.status).toBe(201);
    const sub = await as(t, 'rootmaker-http').post(FOLDERS).send({ metadata: { name: 'rm-sub', annotations: { 'svc.app/folder': 'ops' } }, spec: { title: 'Sub' } });
    expect(sub.status).toBe(403);
    expect(sub.body).toMatchObject({ kind: 'Status', code: 403 });
  });

  it('through /apis: a Viewer with folders:create on folders:uid:ops makes subfolders of ops only', async () => {
    await viewerWith('opsmaker-http', folderScope('ops'));
    const create = (name: string, parent?: string) =>
      as(t, 'opsmaker-http').post(FOLDERS).send({ metadata: { name, ...(parent ? { annotations: { 'svc.app/folder': parent } } : {}) }, spec: { title: name } });
    expect((await create('om-1', 'ops')).status).toBe(201);
    expect((await create('om-2', 'ops-child')).status).toBe(201);
    expect((await create('om-3', 'dev')).status).toBe(403);
    expect((await create('om-4')).status).toBe(403);
    // Without the role, the same Viewer could make none of them.
    await createUser(t, 'plain-viewer', { 1: 'Viewer' });
    const plain = await as(t, 'plain-viewer').post(FOLDERS).send({ metadata: { name: 'pv-1', annotations: { 'svc.app/folder': 'ops' } }, spec: { title: 'x' } });
    expect(plain.status).toBe(403);
  });

  it('folders:create on folders:uid:X creates subfolders of X (at any depth) only', async () => {
    const s = await viewerWith('opsmaker', folderScope('ops'));
    expect(await authz.can(s, 'folders:create', folderScope('ops'))).toBe(true);
    expect(await authz.can(s, 'folders:create', folderScope('ops-child'))).toBe(true);
    expect(await authz.can(s, 'folders:create', folderScope('dev'))).toBe(false);
    expect(await authz.can(s, 'folders:create', folderScope(undefined))).toBe(false);
  });
});
