import { orgMemberKind, preferencesKind, resourcePermissionKind, roleBindingKind, roleKind, serviceAccountTokenKind, teamBindingKind, teamKind } from '../../apis';
import { ROLE_BINDING_LABELS, roleKeyOf, type RoleSubjectKind, roleSubjectId } from '../../apis/iam.svc.app/v0alpha1/rolebinding';
import { TEAM_BINDING_LABELS } from '../../apis/iam.svc.app/v0alpha1/teambinding';
import { permissionObjectName } from '../../pkg/auth/authorization/stored-permissions';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { FOLDERS } from '../support/paths';
import { as, PASSWORD } from '../support/users';

/**
 * What goes with a deleted user, team, service account or role is declared by its kind (KindRegistration.cascades)
 * and deleted (or, for items inside another object's spec, pruned) in the delete's own transaction: nothing of it
 * remains once the answer is sent, and a delete that is refused leaves everything.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(() => t.close());

/** A user made by `POST /api/admin/users` (a Viewer of org 1, as the server assigns). */
async function createUserByAdmin(login: string): Promise<number> {
  const res = await t.as.post('/api/admin/users').send({ login, password: PASSWORD });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

async function createTeamWith(name: string, userIds: number[]): Promise<number> {
  const team = await t.as.post('/api/teams').send({ name });
  expect(team.status).toBe(200);
  for (const userId of userIds) expect((await t.as.post(`/api/teams/${team.body.teamId}/members`).send({ userId })).status).toBe(200);
  return team.body.teamId as number;
}

/** The team's members' ids (its creator, the admin, is one). */
async function memberIds(teamId: number): Promise<number[]> {
  return ((await t.as.get(`/api/teams/${teamId}/members`)).body as { userId: number }[]).map((m) => m.userId);
}

/** What storage holds of a user's memberships and team memberships, in every organization. */
async function storedOf(userId: number) {
  const type = (k: { group: string; plural: string }) => ({ group: k.group, resource: k.plural, namespace: '', everyNamespace: true });
  const members = await t.storage.list({ ...type(orgMemberKind), names: [String(userId)] });
  const bindings = await t.storage.list({ ...type(teamBindingKind), labels: [{ key: TEAM_BINDING_LABELS.userId, operator: 'Equals', values: [String(userId)] }] });
  return { members: members.items.map((s) => s.key.namespace), bindings: bindings.items.map((s) => s.key.name) };
}

it('a deleted user leaves no membership and no team membership in any organization', async () => {
  const id = await createUserByAdmin('cascade-user');
  const org = await t.as.post('/api/orgs').send({ name: 'Cascade Org' });
  expect(org.status).toBe(200);
  await t.users!.setRole(SYSTEM, org.body.orgId, id, 'Editor');
  const teamId = await createTeamWith('cascade-team', [id]);
  expect(await storedOf(id)).toEqual({ members: expect.arrayContaining(['default', `org-${org.body.orgId}`]), bindings: [`${teamId}-${id}`] });

  expect((await t.as.delete(`/api/admin/users/${id}`)).status).toBe(200);
  expect(await storedOf(id)).toEqual({ members: [], bindings: [] });
  expect(await memberIds(teamId)).toEqual([1]);
});

it('a user removed from an organization leaves its teams there', async () => {
  const id = await createUserByAdmin('cascade-leaver');
  const teamId = await createTeamWith('cascade-leavers', [id]);
  expect((await t.as.delete(`/api/org/users/${id}`)).status).toBe(200);
  expect(await storedOf(id)).toEqual({ members: [], bindings: [] });
  expect(await memberIds(teamId)).toEqual([1]);
});

it('a deleted team leaves no membership', async () => {
  const ids = [await createUserByAdmin('cascade-a'), await createUserByAdmin('cascade-b')];
  const teamId = await createTeamWith('cascade-gone', ids);
  expect((await t.as.delete(`/api/teams/${teamId}`)).status).toBe(200);
  for (const id of ids) expect((await storedOf(id)).bindings).toEqual([]);
});

it('a deleted service account leaves no token', async () => {
  const sa = await t.as.post('/api/serviceaccounts').send({ name: 'cascade-sa', role: 'Viewer' });
  expect(sa.status).toBe(201);
  for (const name of ['one', 'two']) expect((await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name })).status).toBe(200);
  expect((await t.as.delete(`/api/serviceaccounts/${sa.body.id}`)).status).toBe(200);
  const tokens = await t.storage.list({ group: serviceAccountTokenKind.group, resource: serviceAccountTokenKind.plural, namespace: '', everyNamespace: true });
  expect(tokens.items.filter((s) => s.value.metadata && JSON.stringify(s.value).includes(sa.body.uid))).toEqual([]);
});

/** Custom role assignments (stored in every edition) go with their subject: a member leaving, a team, a service account. */
it('a subject\'s role assignments go with it', async () => {
  const ctx = { requester: SYSTEM, namespace: 'default', fieldManager: 'test' };
  const assign = (kind: RoleSubjectKind, id: number) =>
    t.users!.registry.create(ctx, roleBindingKind, {
      metadata: { name: `rb-${kind}-${id}`, labels: { [ROLE_BINDING_LABELS.subjectId]: roleSubjectId(kind, id) } },
      spec: { roleUid: 'some-role', subject: { kind, uid: `u${id}`, id } },
    });
  const assigned = async (kind: RoleSubjectKind, id: number) =>
    (await t.users!.registry.list(ctx, roleBindingKind, { labelSelector: `${ROLE_BINDING_LABELS.subjectId}=${roleSubjectId(kind, id)}` })).items.length;
  const userId = await createUserByAdmin('cascade-assigned');
  const teamId = await createTeamWith('cascade-assigned-team', []);
  const sa = await t.as.post('/api/serviceaccounts').send({ name: 'cascade-assigned-sa', role: 'Viewer' });
  for (const [kind, id] of [['user', userId], ['team', teamId], ['service-account', sa.body.id]] as const) await assign(kind, id);
  expect((await t.as.delete(`/api/org/users/${userId}`)).status).toBe(200);
  expect((await t.as.delete(`/api/teams/${teamId}`)).status).toBe(200);
  expect((await t.as.delete(`/api/serviceaccounts/${sa.body.id}`)).status).toBe(200);
  expect([await assigned('user', userId), await assigned('team', teamId), await assigned('service-account', sa.body.id)]).toEqual([0, 0, 0]);
});

/** The grantees (login, team or role) of a folder's own permission items. */
async function folderGrantees(uid: string): Promise<unknown[]> {
  const res = await t.as.get(`/api/folders/${uid}/permissions`).expect(200);
  return (res.body as Record<string, unknown>[]).filter((i) => !i.inherited).map((i) => i.userLogin || i.team || i.role);
}

/** Whether storage holds the named preferences in org 1. */
async function hasPreferences(name: string): Promise<boolean> {
  return (await t.storage.get({ group: preferencesKind.group, resource: preferencesKind.plural, namespace: 'default', name })) !== undefined;
}

/**
 * The cascades are the kinds' own, not the legacy services': a team deleted through the registry itself loses its
 * preferences and its permission items (its ResourcePermission entries pruned, the objects kept), a role its
 * assignments.
 */
it("a team's preferences and permission items, and a role's assignments, go with it whoever deletes it", async () => {
  await t.as.post(FOLDERS).send({ metadata: { name: 'cascade-folder' }, spec: { title: 'Cascade folder' } }).expect(201);
  const team = (await t.as.post('/api/teams').send({ name: 'cascade-pruned' }).expect(200)).body as { teamId: number; uid: string };
  await t.as.put(`/api/teams/${team.teamId}/preferences`).send({ theme: 'dark' }).expect(200);
  const items = [{ role: 'Editor', permission: 2 }, { teamId: team.teamId, permission: 2 }];
  await t.as.post('/api/folders/cascade-folder/permissions').send({ items }).expect(200);
  expect(await folderGrantees('cascade-folder')).toEqual(expect.arrayContaining(['cascade-pruned', 'Editor']));
  expect(await hasPreferences(`team-${team.uid}`)).toBe(true);

  const ctx = { requester: SYSTEM, namespace: 'default', fieldManager: 'test' };
  await t.users!.registry.delete(ctx, teamKind, team.uid);
  expect(await folderGrantees('cascade-folder')).toEqual(['Editor']);
  expect(await hasPreferences(`team-${team.uid}`)).toBe(false);
  const permissions = await t.storage.list({ group: resourcePermissionKind.group, resource: resourcePermissionKind.plural, namespace: 'default' });
  expect(JSON.stringify(permissions.items.map((s) => s.value))).not.toContain(team.uid);

  await t.users!.registry.create(ctx, roleKind, { metadata: { name: 'cascade-role' }, spec: { name: 'custom:cascade', permissions: [] } });
  await t.users!.registry.create(ctx, roleBindingKind, {
    metadata: { name: 'cascade-role-binding', labels: { [ROLE_BINDING_LABELS.roleKey]: roleKeyOf('cascade-role') } },
    spec: { roleUid: 'cascade-role', subject: { kind: 'user', uid: 'u1', id: 1 } },
  });
  await t.users!.registry.delete(ctx, roleKind, 'cascade-role');
  await expect(t.users!.registry.get(ctx, roleBindingKind, 'cascade-role-binding')).rejects.toMatchObject({ code: 404 });
});

it("a deleted user's items leave the permission lists naming it, which its delete finds by an indexed containment query", async () => {
  const id = await createUserByAdmin('cascade-granted');
  await t.as.post(FOLDERS).send({ metadata: { name: 'granted-folder' }, spec: { title: 'Granted' } }).expect(201);
  await t.as.post(FOLDERS).send({ metadata: { name: 'ungranted-folder' }, spec: { title: 'Ungranted' } }).expect(201);
  await t.as.post('/api/folders/granted-folder/permissions').send({ items: [{ role: 'Editor', permission: 2 }, { userId: id, permission: 1 }] }).expect(200);
  expect(await folderGrantees('granted-folder')).toEqual(expect.arrayContaining(['cascade-granted', 'Editor']));
  const key = { group: resourcePermissionKind.group, resource: resourcePermissionKind.plural, namespace: 'default', name: permissionObjectName('folders', 'ungranted-folder') };
  const untouched = await t.storage.get(key);
  expect(untouched).toBeDefined();

  const statements: string[] = [];
  const stop = t.storage.observeQueries((_s, _f, sql) => statements.push(sql));
  try {
    expect((await t.as.delete(`/api/admin/users/${id}`)).status).toBe(200);
  } finally {
    stop();
  }
  expect(await folderGrantees('granted-folder')).toEqual(['Editor']);
  // A list that never named the user is not rewritten; the lists naming it are read by containment, not all of them.
  expect((await t.storage.get(key))?.resourceVersion).toBe(untouched!.resourceVersion);
  expect(statements.filter((sql) => /#> '\{"spec","permissions"\}'::text\[\]\) @>/.test(sql))).toHaveLength(1);
});

/**
 * Last, as the admin may lose. Two server admins deleting each other at once: one wins, the other is refused as the last server admin, and the
 * refused one keeps its memberships and teams (they went with the user, in its transaction, or not at all).
 */
it('a refused delete leaves the user its memberships, teams and preferences', async () => {
  const other = await createUserByAdmin('cascade-admin');
  expect((await t.as.put(`/api/admin/users/${other}/permissions`).send({ isSvcAdmin: true })).status).toBe(200);
  await t.users!.setRole(SYSTEM, 1, other, 'Admin');
  // The admin, its creator, is a member already.
  const teamId = await createTeamWith('cascade-admins', [other]);
  // Both have preferences in org 1 (deleted with the user, in its transaction, or kept).
  await t.as.put('/api/user/preferences').send({ theme: 'dark' }).expect(200);
  await as(t, 'cascade-admin').put('/api/user/preferences').send({ theme: 'dark' }).expect(200);
  // Credentials checked once before, so the deletes start together.
  await as(t, 'cascade-admin').get('/api/user').expect(200);
  const [byAdmin, byOther] = await Promise.all([t.as.delete(`/api/admin/users/${other}`), as(t, 'cascade-admin').delete('/api/admin/users/1')]);
  // The loser is refused as the last server admin, or is already gone when its credentials are checked (401).
  expect([byAdmin.status, byOther.status].filter((s) => s === 200)).toEqual([200]);
  const [survivor, refused] = byAdmin.status === 200 ? [1, byOther] : [other, byAdmin];
  expect([400, 401]).toContain(refused.status);
  expect((await storedOf(survivor)).members).toContain('default');
  expect((await storedOf(survivor)).bindings).toContain(`${teamId}-${survivor}`);
  expect(await hasPreferences(`user-${(await t.users!.userById(survivor))!.uid}`)).toBe(true);
});
