import { type Request, Router } from 'express';
import type { AccessControl } from '../../pkg/auth/access-control';
import type { IdentityDirectory } from '../../pkg/auth/identity-directory';
import type { Permission } from '../../pkg/auth/permissions';
import { serviceAccountNotFound, type ServiceAccounts } from '../../pkg/auth/service-accounts';
import { accessDeniedError, requireAccess } from '../../pkg/auth/require-access';
import { type RoleDirectory, type RoleSubject, roleNotFound, type StoredRole } from '../../pkg/auth/role-directory';
import { type TeamDirectory, teamNotFound, teamScope } from '../../pkg/auth/team-directory';
import { StatusError } from '../../pkg/errors';
import { idParam, object } from '../users/users-routes';
import { parseRoleAssignments, parseRoleForm, scopesByAction, toRoleAssignmentsDTO, toRoleDTO } from './access-control-conversions';

const bad = (message: string) => new StatusError(400, 'BadRequest', message);
const DELEGATE = 'permissions:type:delegate';

/**
 * `GET /api/access-control/user/permissions`: what the caller holds in the org it acts in (basic role, team
 * permissions, custom roles of itself and its teams), as the anchor answers it in every edition.
 */
export function userPermissionsRouter(access: AccessControl): Router {
  const router = Router();
  router.get('/api/access-control/user/permissions', async (req, res) => {
    const subject = await access.subjectOf(req.user!);
    res.json(scopesByAction(await access.authorizer.permissionsOf(subject)));
  });
  return router;
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
export function customRolesRouter(users: IdentityDirectory, teams: TeamDirectory, roles: RoleDirectory, accounts: ServiceAccounts): Router {
  const router = Router();
  const by = (req: Request) => ({ identity: req.user!.identity });

  async function roleOf(req: Request, uid = String(req.params.roleUID)): Promise<StoredRole> {
    const role = await roles.roleByUid(req.user!.orgId, uid);
    if (!role) throw roleNotFound();
    return role;
  }

  /** The role a `{roleUid}` body names. */
  async function roleOfBody(req: Request): Promise<StoredRole> {
    const uid = object(req.body).roleUid;
    if (typeof uid !== 'string' || uid === '') throw bad('bad request data');
    return roleOf(req, uid);
  }

  async function userSubject(req: Request, action: string): Promise<RoleSubject> {
    const userId = idParam(req, 'userId');
    await requireAccess(req, action, action.endsWith(':read') ? `users:id:${userId}` : DELEGATE);
    const user = await users.userById(userId);
    if (!user || !(await users.roleOf(req.user!.orgId, userId))) throw new StatusError(404, 'NotFound', 'User not found');
    return { kind: 'user', uid: user.uid, id: user.id };
  }

  async function teamSubject(req: Request, action: string): Promise<RoleSubject> {
    const teamId = idParam(req, 'teamId');
    await requireAccess(req, action, action.endsWith(':read') ? teamScope(teamId) : DELEGATE);
    const team = await teams.teamById(req.user!.orgId, teamId);
    if (!team) throw teamNotFound();
    return { kind: 'team', uid: team.uid, id: team.id };
  }

  router.get('/api/access-control/roles', async (req, res) => {
    await requireAccess(req, 'roles:read', 'roles:*');
    res.json((await roles.listRoles(req.user!.orgId)).map(toRoleDTO));
  });

  router.post('/api/access-control/roles', async (req, res) => {
    await requireAccess(req, 'roles:write', DELEGATE);
    const form = parseRoleForm(object(req.body));
    if (typeof form === 'string') throw bad(form);
    await requireDelegable(req, form.fields.permissions);
    if (form.uid !== undefined && !/^[A-Za-z0-9_-]{1,40}$/.test(form.uid)) throw bad('uid must be 1 to 40 letters, digits, - or _');
    res.status(201).json(toRoleDTO(await roles.createRole(by(req), req.user!.orgId, form.fields, form.uid)));
  });

  router.get('/api/access-control/roles/:roleUID', async (req, res) => {
    await requireAccess(req, 'roles:read', `roles:uid:${req.params.roleUID}`);
    res.json(toRoleDTO(await roleOf(req)));
  });

  router.put('/api/access-control/roles/:roleUID', async (req, res) => {
    await requireAccess(req, 'roles:write', DELEGATE);
    const role = await roleOf(req);
    const form = parseRoleForm(object(req.body));
    if (typeof form === 'string') throw bad(form);
    await requireDelegable(req, [...role.permissions, ...form.fields.permissions]);
    res.json(toRoleDTO(await roles.updateRole(by(req), role, form.fields)));
  });

  router.delete('/api/access-control/roles/:roleUID', async (req, res) => {
    await requireAccess(req, 'roles:delete', DELEGATE);
    const role = await roleOf(req);
    await requireDelegable(req, role.permissions);
    await roles.deleteRole(by(req), role);
    res.json({ message: 'Role deleted' });
  });

  router.get('/api/access-control/roles/:roleUID/assignments', async (req, res) => {
    await requireAccess(req, 'users.roles:read', 'users:id:*');
    await requireAccess(req, 'teams.roles:read', 'teams:id:*');
    const role = await roleOf(req);
    res.json(toRoleAssignmentsDTO(role.uid, await roles.assignmentsOf(role)));
  });

  router.put('/api/access-control/roles/:roleUID/assignments', async (req, res) => {
    for (const action of ['users.roles:add', 'users.roles:remove', 'teams.roles:add', 'teams.roles:remove']) await requireAccess(req, action, DELEGATE);
    const role = await roleOf(req);
    const ids = parseRoleAssignments(object(req.body));
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
  });

  router.get('/api/access-control/users/:userId/roles', async (req, res) => {
    const subject = await userSubject(req, 'users.roles:read');
    res.json((await roles.rolesOf(req.user!.orgId, subject)).map(toRoleDTO));
  });

  router.post('/api/access-control/users/:userId/roles', async (req, res) => {
    const subject = await userSubject(req, 'users.roles:add');
    if (object(req.body).global === true) throw bad('global roles are not supported: assign a role of the organization');
    const role = await roleOfBody(req);
    await requireDelegable(req, role.permissions);
    await roles.assign(by(req), req.user!.orgId, role, subject);
    res.json({ message: 'Role added to the user.' });
  });

  router.delete('/api/access-control/users/:userId/roles/:roleUID', async (req, res) => {
    const subject = await userSubject(req, 'users.roles:remove');
    const role = await roleOf(req);
    await requireDelegable(req, role.permissions);
    await roles.unassign(by(req), req.user!.orgId, role.uid, subject);
    res.json({ message: 'Role removed from user.' });
  });

  router.get('/api/access-control/teams/:teamId/roles', async (req, res) => {
    const subject = await teamSubject(req, 'teams.roles:read');
    res.json((await roles.rolesOf(req.user!.orgId, subject)).map(toRoleDTO));
  });

  router.post('/api/access-control/teams/:teamId/roles', async (req, res) => {
    const subject = await teamSubject(req, 'teams.roles:add');
    const role = await roleOfBody(req);
    await requireDelegable(req, role.permissions);
    await roles.assign(by(req), req.user!.orgId, role, subject);
    res.json({ message: 'Role added to the team.' });
  });

  router.delete('/api/access-control/teams/:teamId/roles/:roleUID', async (req, res) => {
    const subject = await teamSubject(req, 'teams.roles:remove');
    const role = await roleOf(req);
    await requireDelegable(req, role.permissions);
    await roles.unassign(by(req), req.user!.orgId, role.uid, subject);
    res.json({ message: 'Role removed from team.' });
  });

  return router;
}
