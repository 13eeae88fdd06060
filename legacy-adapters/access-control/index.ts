import { z } from 'zod';
import { defineArea, guard } from '../shared';
import type { Config } from '../../pkg/config';
import {
  addTeamRole, addUserRole, createRole, deleteRole, getRole, getRoleAssignments, getUserPermissions, listRoles, listTeamRoles, listUserRoles, removeTeamRole,
  removeUserRole, setRoleAssignments, setTeamRoles, setUserRoles, updateRole,
} from './access-control-routes';
import { getAccessControlStatus, searchRoleAssignments } from './access-control-status-routes';

const message = z.object({ message: z.string() });
const permission = z.object({ action: z.string(), scope: z.string().optional() });
const roleDto = z.object({
  version: z.number().int(),
  uid: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  group: z.string(),
  hidden: z.boolean(),
  permissions: z.array(z.object({ action: z.string(), scope: z.string(), created: z.string(), updated: z.string() })),
  created: z.string(),
  updated: z.string(),
});
const roleForm = z.object({
  uid: z.string().optional(),
  name: z.string(),
  displayName: z.string().optional(),
  description: z.string().optional(),
  group: z.string().optional(),
  hidden: z.boolean().optional(),
  permissions: z.array(permission).optional(),
});
const ids = z.array(z.number().int());
const assignmentIds = z.object({ users: ids.optional(), teams: ids.optional(), service_accounts: ids.optional() });
const assignments = z.object({ role_uid: z.string(), users: ids, teams: ids, service_accounts: ids });
const roleUID = { name: 'roleUID', in: 'path', type: 'string', required: true } as const;
const userId = { name: 'userId', in: 'path', type: 'integer', required: true } as const;
const teamId = { name: 'teamId', in: 'path', type: 'integer', required: true } as const;
const roleRef = { schema: z.object({ roleUid: z.string() }) };
const roleUids = {
  description: 'The custom roles the subject has afterwards, exactly (an empty list takes every one back).',
  schema: z.object({ roleUids: z.array(z.string()), global: z.boolean().optional().describe('unsupported: true is 400'), includeHidden: z.boolean().optional() }),
};
const setRoles = 'Needs the add and the remove action on permissions:type:delegate, and every role added or taken back delegable; a refused request changes nothing.';
const ok = (description: string) => ({ description, schema: message, name: 'SuccessResponseBody' });
const roles = { description: 'The roles.', schema: z.array(roleDto) };
const role = { description: 'The role.', schema: roleDto, name: 'RoleDTO' };
const tags = ['access_control'];
const enterpriseOnly = 'Enterprise edition only: 404 in the others.';
/** Every custom-role endpoint also answers 404 outside the enterprise edition. */
const errors = { 400: {}, 401: {}, 403: {}, 404: {} };
/** Custom roles are served in the enterprise edition only. */
const enterprise = (config: Config) => config.server.edition === 'enterprise';
/** Why the role assignment routes of a user or team check their action themselves. */
const subjectFirst = 'the id is checked first (400), the user or team after the action (404)';

/** /api/access-control (access-control-routes.ts): what the caller holds, and the enterprise edition's custom roles. */
export const accessControlArea = defineArea({
  name: 'access-control',
  routes: [
    {
      method: 'get', path: '/api/access-control/user/permissions', guard: guard.signedIn, handler: getUserPermissions, operationId: 'getUserPermissions', tags,
      summary: 'The permissions the caller holds in its organization, as scopes by action.',
      responses: { 200: { description: 'Scopes by action.', schema: z.record(z.string(), z.array(z.string())) }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/access-control/status', guard: guard.can('status:accesscontrol', 'services:accesscontrol'), servedIn: enterprise, handler: getAccessControlStatus, operationId: 'getAccessControlStatus', tags,
      summary: 'Whether fine-grained access control is enabled: always, here.', description: enterpriseOnly,
      responses: { 200: { description: 'Enabled.', schema: z.object({ enabled: z.boolean() }) }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/access-control/assignments/search', guard: guard.inHandler(guard.can('teams.roles:read', 'teams:*'), 'and users.roles:read on users:*: both are needed'), servedIn: enterprise,
      handler: searchRoleAssignments, operationId: 'searchResult', tags, summary: 'Debug permissions: who holds what in the organization.',
      description: `${enterpriseOnly} One row per permission of each custom role assigned to a user or a team, and one per member's basic role; the optional body narrows them (userId, teamId, action, scope, roleName).`,
      body: { name: 'SearchAssignmentsQuery', schema: z.object({ userId: z.number().int().optional(), teamId: z.number().int().optional(), action: z.string().optional(), scope: z.string().optional(), roleName: z.string().optional() }) },
      responses: {
        200: {
          description: 'The rows.', name: 'SearchResult',
          schema: z.object({ result: z.array(z.object({ orgId: z.number().int(), userId: z.number().int().optional(), teamId: z.number().int().optional(), roleName: z.string().optional(), version: z.number().int().optional(), action: z.string().optional(), scope: z.string().optional(), basicRole: z.string().optional() })) }),
        },
        ...errors,
      },
    },
    { method: 'get', path: '/api/access-control/roles', guard: guard.can('roles:read', 'roles:*'), servedIn: enterprise, handler: listRoles, operationId: 'listRoles', tags, summary: 'List the organization\'s custom roles.', description: enterpriseOnly, responses: { 200: roles, ...errors } },
    {
      method: 'post', path: '/api/access-control/roles', guard: guard.can('roles:write', 'permissions:type:delegate'), servedIn: enterprise, handler: createRole, operationId: 'createRole', tags, summary: 'Create a custom role.',
      description: `${enterpriseOnly} Only permissions the caller holds itself (permissions:type:delegate).`,
      body: { schema: roleForm, name: 'CreateRoleForm' }, responses: { 201: role, ...errors, 409: { description: 'Name or uid taken.' } },
    },
    { method: 'get', path: '/api/access-control/roles/:roleUID', guard: guard.can('roles:read', 'roles:uid:{roleUID}'), servedIn: enterprise, handler: getRole, operationId: 'getRole', tags, summary: 'Get a custom role.', description: enterpriseOnly, params: [roleUID], responses: { 200: role, ...errors } },
    {
      method: 'put', path: '/api/access-control/roles/:roleUID', guard: guard.can('roles:write', 'permissions:type:delegate'), servedIn: enterprise, handler: updateRole, operationId: 'updateRole', tags, summary: 'Replace a custom role (its version grows by one).', description: enterpriseOnly,
      params: [roleUID], body: { schema: roleForm.omit({ uid: true }), name: 'UpdateRoleCommand' }, responses: { 200: role, ...errors, 409: {} },
    },
    { method: 'delete', path: '/api/access-control/roles/:roleUID', guard: guard.can('roles:delete', 'permissions:type:delegate'), servedIn: enterprise, handler: deleteRole, operationId: 'deleteRole', tags, summary: 'Delete a custom role and its assignments.', description: enterpriseOnly, params: [roleUID], responses: { 200: ok('Role deleted.'), ...errors } },
    {
      method: 'get', path: '/api/access-control/roles/:roleUID/assignments', guard: guard.inHandler(guard.can('users.roles:read', 'users:id:*'), 'and teams.roles:read on teams:id:*: both are needed'), servedIn: enterprise, handler: getRoleAssignments, operationId: 'getRoleAssignments', tags, summary: 'Whom a custom role is assigned to.', description: enterpriseOnly,
      params: [roleUID], responses: { 200: { description: 'The assignments.', schema: assignments, name: 'RoleAssignmentsDTO' }, ...errors },
    },
    {
      method: 'put', path: '/api/access-control/roles/:roleUID/assignments', guard: guard.inHandler(guard.can('users.roles:add', 'permissions:type:delegate'), 'and users.roles:remove, teams.roles:add, teams.roles:remove: all are needed'), servedIn: enterprise, handler: setRoleAssignments, operationId: 'setRoleAssignments', tags, summary: 'Make these exactly whom a custom role is assigned to.', description: enterpriseOnly,
      params: [roleUID], body: { schema: assignmentIds, name: 'SetRoleAssignmentsCommand' },
      responses: { 200: { description: 'The assignments.', schema: assignments, name: 'RoleAssignmentsDTO' }, ...errors },
    },
    { method: 'get', path: '/api/access-control/users/:userId/roles', guard: guard.inHandler(guard.can('users.roles:read', 'users:id:{userId}'), subjectFirst), servedIn: enterprise, handler: listUserRoles, operationId: 'listUserRoles', tags, summary: 'The custom roles assigned to a user.', description: enterpriseOnly, params: [userId], responses: { 200: roles, ...errors } },
    {
      method: 'post', path: '/api/access-control/users/:userId/roles', guard: guard.inHandler(guard.can('users.roles:add', 'permissions:type:delegate'), subjectFirst), servedIn: enterprise, handler: addUserRole, operationId: 'addUserRole', tags, summary: 'Assign a custom role to a user.', description: enterpriseOnly,
      params: [userId], body: { ...roleRef, name: 'AddUserRoleCommand' }, responses: { 200: ok('Role added to the user.'), ...errors },
    },
    {
      method: 'put', path: '/api/access-control/users/:userId/roles', guard: guard.inHandler(guard.can('users.roles:add', 'permissions:type:delegate'), subjectFirst), servedIn: enterprise, handler: setUserRoles, operationId: 'setUserRoles', tags,
      summary: 'Make these exactly the custom roles of a user.', description: `${enterpriseOnly} ${setRoles}`,
      params: [userId], body: { ...roleUids, name: 'SetUserRolesCommand' }, responses: { 200: ok('User roles have been updated.'), ...errors },
    },
    { method: 'delete', path: '/api/access-control/users/:userId/roles/:roleUID', guard: guard.inHandler(guard.can('users.roles:remove', 'permissions:type:delegate'), subjectFirst), servedIn: enterprise, handler: removeUserRole, operationId: 'removeUserRole', tags, summary: 'Take a custom role back from a user.', description: enterpriseOnly, params: [userId, roleUID], responses: { 200: ok('Role removed from user.'), ...errors } },
    { method: 'get', path: '/api/access-control/teams/:teamId/roles', guard: guard.inHandler(guard.can('teams.roles:read', 'teams:id:{teamId}'), subjectFirst), servedIn: enterprise, handler: listTeamRoles, operationId: 'listTeamRoles', tags, summary: 'The custom roles assigned to a team.', description: enterpriseOnly, params: [teamId], responses: { 200: roles, ...errors } },
    {
      method: 'post', path: '/api/access-control/teams/:teamId/roles', guard: guard.inHandler(guard.can('teams.roles:add', 'permissions:type:delegate'), subjectFirst), servedIn: enterprise, handler: addTeamRole, operationId: 'addTeamRole', tags, summary: 'Assign a custom role to a team (its members hold it).', description: enterpriseOnly,
      params: [teamId], body: { ...roleRef, name: 'AddTeamRoleCommand' }, responses: { 200: ok('Role added to the team.'), ...errors },
    },
    {
      method: 'put', path: '/api/access-control/teams/:teamId/roles', guard: guard.inHandler(guard.can('teams.roles:add', 'permissions:type:delegate'), subjectFirst), servedIn: enterprise, handler: setTeamRoles, operationId: 'setTeamRoles', tags,
      summary: 'Make these exactly the custom roles of a team.', description: `${enterpriseOnly} ${setRoles}`,
      params: [teamId], body: { ...roleUids, name: 'SetTeamRolesCommand' }, responses: { 200: ok('Team roles have been updated.'), ...errors },
    },
    { method: 'delete', path: '/api/access-control/teams/:teamId/roles/:roleUID', guard: guard.inHandler(guard.can('teams.roles:remove', 'permissions:type:delegate'), subjectFirst), servedIn: enterprise, handler: removeTeamRole, operationId: 'removeTeamRole', tags, summary: 'Take a custom role back from a team.', description: enterpriseOnly, params: [teamId, roleUID], responses: { 200: ok('Role removed from team.'), ...errors } },
  ],
});
