import { z } from 'zod';
import type { LegacyRouteDoc } from '../../pkg/server/openapi/legacy-routes';

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
const ok = (description: string) => ({ description, schema: message, name: 'SuccessResponseBody' });
const roles = { description: 'The roles.', schema: z.array(roleDto) };
const role = { description: 'The role.', schema: roleDto, name: 'RoleDTO' };
const tags = ['access_control'];
const enterprise = 'Enterprise edition only: 404 in the others.';
/** Every custom-role endpoint also answers 404 outside the enterprise edition. */
const errors = { 400: {}, 401: {}, 403: {}, 404: {} };

/** /api/access-control (legacy-adapters/access-control/access-control-routes.ts). */
export const accessControlRouteDocs: LegacyRouteDoc[] = [
  {
    method: 'get', path: '/api/access-control/user/permissions', operationId: 'getUserPermissions', tags,
    summary: 'The permissions the caller holds in its organization, as scopes by action.',
    responses: { 200: { description: 'Scopes by action.', schema: z.record(z.string(), z.array(z.string())) }, 401: {}, 403: {} },
  },
  { method: 'get', path: '/api/access-control/roles', operationId: 'listRoles', tags, summary: 'List the organization\'s custom roles.', description: enterprise, responses: { 200: roles, ...errors } },
  {
    method: 'post', path: '/api/access-control/roles', operationId: 'createRole', tags, summary: 'Create a custom role.',
    description: `${enterprise} Only permissions the caller holds itself (permissions:type:delegate).`,
    body: { schema: roleForm, name: 'CreateRoleForm' }, responses: { 201: role, ...errors, 409: { description: 'Name or uid taken.' } },
  },
  { method: 'get', path: '/api/access-control/roles/:roleUID', operationId: 'getRole', tags, summary: 'Get a custom role.', description: enterprise, params: [roleUID], responses: { 200: role, ...errors } },
  {
    method: 'put', path: '/api/access-control/roles/:roleUID', operationId: 'updateRole', tags, summary: 'Replace a custom role (its version grows by one).', description: enterprise,
    params: [roleUID], body: { schema: roleForm.omit({ uid: true }), name: 'UpdateRoleCommand' }, responses: { 200: role, ...errors, 409: {} },
  },
  { method: 'delete', path: '/api/access-control/roles/:roleUID', operationId: 'deleteRole', tags, summary: 'Delete a custom role and its assignments.', description: enterprise, params: [roleUID], responses: { 200: ok('Role deleted.'), ...errors } },
  {
    method: 'get', path: '/api/access-control/roles/:roleUID/assignments', operationId: 'getRoleAssignments', tags, summary: 'Whom a custom role is assigned to.', description: enterprise,
    params: [roleUID], responses: { 200: { description: 'The assignments.', schema: assignments, name: 'RoleAssignmentsDTO' }, ...errors },
  },
  {
    method: 'put', path: '/api/access-control/roles/:roleUID/assignments', operationId: 'setRoleAssignments', tags, summary: 'Make these exactly whom a custom role is assigned to.', description: enterprise,
    params: [roleUID], body: { schema: assignmentIds, name: 'SetRoleAssignmentsCommand' },
    responses: { 200: { description: 'The assignments.', schema: assignments, name: 'RoleAssignmentsDTO' }, ...errors },
  },
  { method: 'get', path: '/api/access-control/users/:userId/roles', operationId: 'listUserRoles', tags, summary: 'The custom roles assigned to a user.', description: enterprise, params: [userId], responses: { 200: roles, ...errors } },
  {
    method: 'post', path: '/api/access-control/users/:userId/roles', operationId: 'addUserRole', tags, summary: 'Assign a custom role to a user.', description: enterprise,
    params: [userId], body: { ...roleRef, name: 'AddUserRoleCommand' }, responses: { 200: ok('Role added to the user.'), ...errors },
  },
  { method: 'delete', path: '/api/access-control/users/:userId/roles/:roleUID', operationId: 'removeUserRole', tags, summary: 'Take a custom role back from a user.', description: enterprise, params: [userId, roleUID], responses: { 200: ok('Role removed from user.'), ...errors } },
  { method: 'get', path: '/api/access-control/teams/:teamId/roles', operationId: 'listTeamRoles', tags, summary: 'The custom roles assigned to a team.', description: enterprise, params: [teamId], responses: { 200: roles, ...errors } },
  {
    method: 'post', path: '/api/access-control/teams/:teamId/roles', operationId: 'addTeamRole', tags, summary: 'Assign a custom role to a team (its members hold it).', description: enterprise,
    params: [teamId], body: { ...roleRef, name: 'AddTeamRoleCommand' }, responses: { 200: ok('Role added to the team.'), ...errors },
  },
  { method: 'delete', path: '/api/access-control/teams/:teamId/roles/:roleUID', operationId: 'removeTeamRole', tags, summary: 'Take a custom role back from a team.', description: enterprise, params: [teamId, roleUID], responses: { 200: ok('Role removed from team.'), ...errors } },
];
