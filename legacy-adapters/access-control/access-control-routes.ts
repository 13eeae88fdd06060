import type { Request, Response } from 'express';
import type { Permission } from '../../pkg/auth/authorization/permissions';
import { serviceAccountNotFound } from '../../pkg/auth/identity/service-accounts';
import { accessDeniedError, requireAccess } from '../../pkg/auth/authorization/require-access';
import { type RoleDirectory, type RoleSubject, roleNotFound, type StoredRole } from '../../pkg/auth/authorization/role-directory';
import { teamNotFound, teamScope } from '../../pkg/auth/identity/team-directory';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, bodyObject, idParam } from '../shared';
import { parseRoleAssignments, parseRoleForm, scopesByAction, toRoleAssignmentsDTO, toRoleDTO } from './access-control-conversions';

const bad = (message: string) => new StatusError(400, 'BadRequest', message);
const DELEGATE = 'permissions:type:delegate';

/**
 * `GET /api/access-control/user/permissions`: what the caller holds in the org it acts in (basic role, team
 * permissions, custom roles of itself and its teams), as the anchor answers it in every edition.
 */
export async function getUserPermissions(req: Request, res: Response, { access }: AdapterDeps): Promise<void> {
  const subject = await access.subjectOf(req.user!);
  res.json(scopesByAction(await access.authorizer.permissionsOf(subject)));
}

/**
 * The anchor's `permissions:type:delegate` rule: a caller creates, changes, deletes, assigns and takes back only
 * roles whose every permission it holds itself, so no one grants more than it has.
 */
async function requireDelegable(req: Request, permissions: readonly Permission[]): Promise<void> {
  for (const p of permissions) {
    if (!(await req.access!.can(p.action, p.scope))) throw accessDeniedError(p.action);
  }
}

/**
 * Custom roles of the enterprise edition (`/api/access-control/roles`) and their assignments to users and teams,
 * as clients of the Role and RoleBinding kinds. Mounted only in the enterprise edition; elsewhere these paths are 404.
 */
const by = (req: Request) => ({ identity: req.user!.identity });

/** The custom roles of the enterprise edition; the routes using them are served there only. */
function rolesOf(deps: AdapterDeps): RoleDirectory {
  if (!deps.roles) throw new StatusError(404, 'NotFound', 'Not found');
  return deps.roles;
}

async function roleOf(roles: RoleDirectory, req: Request, uid = String(req.params.roleUID)): Promise<StoredRole> {
  const role = await roles.roleByUid(req.user!.orgId, uid);
  if (!role) throw roleNotFound();
  return role;
}

/** The role a `{roleUid}` body names. */
async function roleOfBody(roles: RoleDirectory, req: Request): Promise<StoredRole> {
  const uid = bodyObject(req).roleUid;
  if (typeof uid !== 'string' || uid === '') throw bad('bad request data');
  return roleOf(roles, req, uid);
}

async function userSubject({ users }: AdapterDeps, req: Request, action: string): Promise<RoleSubject> {
  const userId = idParam(req, 'userId');
  await requireAccess(req, action, action.endsWith(':read') ? `users:id:${userId}` : DELEGATE);
  const user = await users.userById(userId);
  if (!user || !(await users.roleOf(req.user!.orgId, userId))) throw new StatusError(404, 'NotFound', 'User not found');
  return { kind: 'user', uid: user.uid, id: user.id };
}

async function teamSubject({ teams }: AdapterDeps, req: Request, action: string): Promise<RoleSubject> {
  const teamId = idParam(req, 'teamId');
  await requireAccess(req, action, action.endsWith(':read') ? teamScope(teamId) : DELEGATE);
  const team = await teams.teamById(req.user!.orgId, teamId);
  if (!team) throw teamNotFound();
  return { kind: 'team', uid: team.uid, id: team.id };
}

export async function listRoles(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const roles = rolesOf(deps);
  res.json((await roles.listRoles(req.user!.orgId)).map(toRoleDTO));
}

export async function createRole(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const roles = rolesOf(deps);
  const form = parseRoleForm(bodyObject(req));
  if (typeof form === 'string') throw bad(form);
  await requireDelegable(req, form.fields.permissions);
  if (form.uid !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(form.uid)) throw bad('uid must be 1 to 40 letters, digits, - or _');
  res.status(201).json(toRoleDTO(await roles.createRole(by(req), req.user!.orgId, form.fields, form.uid)));
}

export async function getRole(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const roles = rolesOf(deps);
  res.json(toRoleDTO(await roleOf(roles, req)));
}

export async function updateRole(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const roles = rolesOf(deps);
  const role = await roleOf(roles, req);
  const form = parseRoleForm(bodyObject(req));
  if (typeof form === 'string') throw bad(form);
  await requireDelegable(req, [...role.permissions, ...form.fields.permissions]);
  res.json(toRoleDTO(await roles.updateRole(by(req), role, form.fields)));
}

export async function deleteRole(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const roles = rolesOf(deps);
  const role = await roleOf(roles, req);
  await requireDelegable(req, role.permissions);
  await roles.deleteRole(by(req), role);
  res.json({ message: 'Role deleted' });
}

export async function getRoleAssignments(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const roles = rolesOf(deps);
  await requireAccess(req, 'users.roles:read', 'users:id:*');
  await requireAccess(req, 'teams.roles:read', 'teams:id:*');
  const role = await roleOf(roles, req);
  res.json(toRoleAssignmentsDTO(role.uid, await roles.assignmentsOf(role)));
}

export async function setRoleAssignments(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const roles = rolesOf(deps);
  const { users, teams, accounts } = deps;
  for (const action of ['users.roles:add', 'users.roles:remove', 'teams.roles:add', 'teams.roles:remove']) await requireAccess(req, action, DELEGATE);
  const role = await roleOf(roles, req);
  const ids = parseRoleAssignments(bodyObject(req));
  if (!ids) throw bad('bad request data');
  await requireDelegable(req, role.permissions);
  const orgId = req.user!.orgId;
  const subjects: RoleSubject[] = [];
  for (const id of ids.user) {
    const user = await users.userById(id);
    if (!user || !(await users.roleOf(orgId, id))) throw new StatusError(404, 'NotFound', 'User not found');
    subjects.push({ kind: 'user', uid: user.uid, id });
  }
  for (const id of ids.team) {
    const team = await teams.teamById(orgId, id);
    if (!team) throw teamNotFound();
    subjects.push({ kind: 'team', uid: team.uid, id });
  }
  for (const id of ids['service-account']) {
    const sa = await accounts.byId(orgId, id);
    if (!sa) throw serviceAccountNotFound();
    subjects.push({ kind: 'service-account', uid: sa.uid, id });
  }
  await roles.setAssignments(by(req), role, subjects);
  res.json(toRoleAssignmentsDTO(role.uid, await roles.assignmentsOf(role)));
}

type Handler = (req: Request, res: Response, deps: AdapterDeps) => Promise<void>;

/**
 * The custom role assignments of one kind of subject (users, teams): listed, added and taken back by the same rules,
 * each with its subject's path parameter and the anchor's messages.
 */
function assignmentRoutes(
  subjectOf: (deps: AdapterDeps, req: Request, action: string) => Promise<RoleSubject>,
  resource: 'users' | 'teams',
  messages: { added: string; removed: string; set: string },
): { list: Handler; add: Handler; remove: Handler; set: Handler } {
  return {
    async list(req, res, deps) {
      const subject = await subjectOf(deps, req, `${resource}.roles:read`);
      res.json((await rolesOf(deps).rolesOf(req.user!.orgId, subject)).map(toRoleDTO));
    },
    async add(req, res, deps) {
      const roles = rolesOf(deps);
      const subject = await subjectOf(deps, req, `${resource}.roles:add`);
      if (resource === 'users' && bodyObject(req).global === true) throw bad('global roles are not supported: assign a role of the organization');
      const role = await roleOfBody(roles, req);
      await requireDelegable(req, role.permissions);
      await roles.assign(by(req), req.user!.orgId, role, subject);
      res.json({ message: messages.added });
    },
    async remove(req, res, deps) {
      const roles = rolesOf(deps);
      const subject = await subjectOf(deps, req, `${resource}.roles:remove`);
      const role = await roleOf(roles, req);
      await requireDelegable(req, role.permissions);
      await roles.unassign(by(req), req.user!.orgId, role.uid, subject);
      res.json({ message: messages.removed });
    },
    /**
     * `PUT .../roles` ({roleUids}): the subject's custom roles become exactly these. Every role named must exist and
     * every role added or taken back be delegable before anything is written, so a refused request changes nothing.
     */
    async set(req, res, deps) {
      const roles = rolesOf(deps);
      const subject = await subjectOf(deps, req, `${resource}.roles:add`);
      await requireAccess(req, `${resource}.roles:remove`, DELEGATE);
      const body = bodyObject(req);
      const uids = body.roleUids;
      if (!Array.isArray(uids) || uids.some((u) => typeof u !== 'string' || u === '')) throw bad('bad request data');
      if (resource === 'users' && body.global === true) throw bad('global roles are not supported: assign a role of the organization');
      const orgId = req.user!.orgId;
      const wanted = await Promise.all([...new Set(uids as string[])].map((uid) => roleOf(roles, req, uid)));
      const current = await roles.rolesOf(orgId, subject);
      const added = wanted.filter((r) => !current.some((c) => c.uid === r.uid));
      const removed = current.filter((c) => !wanted.some((r) => r.uid === c.uid));
      for (const role of [...added, ...removed]) await requireDelegable(req, role.permissions);
      for (const role of removed) await roles.unassign(by(req), orgId, role.uid, subject);
      for (const role of added) await roles.assign(by(req), orgId, role, subject);
      res.json({ message: messages.set });
    },
  };
}

export const { list: listUserRoles, add: addUserRole, remove: removeUserRole, set: setUserRoles } = assignmentRoutes(userSubject, 'users', {
  added: 'Role added to the user.',
  removed: 'Role removed from user.',
  set: 'User roles have been updated.',
});
export const { list: listTeamRoles, add: addTeamRole, remove: removeTeamRole, set: setTeamRoles } = assignmentRoutes(teamSubject, 'teams', {
  added: 'Role added to the team.',
  removed: 'Role removed from team.',
  set: 'Team roles have been updated.',
});
