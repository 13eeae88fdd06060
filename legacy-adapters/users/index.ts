import { z } from 'zod';
import { ORG_ROLES } from '../../apis/iam.svc.app/v0alpha1/orgmember';
import { defineArea, guard, type LegacyParam } from '../shared';
import {
  adminCreateUser, adminDeleteUser, adminUpdateUserPassword, adminUpdateUserPermissions, getSignedInUser, getSignedInUserOrgs, getUserByLoginOrEmail, listUsers,
  searchUsersWithPaging, userSetUsingOrg,
} from './users-routes';
import { getUserByID, getUserOrgList, getUserTeams, updateUser } from './user-by-id-routes';
import { changeUserPassword, clearHelpFlags, getSignedInUserTeamList, setHelpFlag, updateSignedInUser } from './signed-in-user-routes';

const message = z.object({ message: z.string() });
const ok = (description: string) => ({ description, schema: message, name: 'SuccessResponseBody' });
const hit = z.object({
  id: z.number().int(),
  uid: z.string(),
  name: z.string(),
  login: z.string(),
  email: z.string(),
  avatarUrl: z.string(),
  isAdmin: z.boolean().describe('server administrator'),
  isDisabled: z.boolean(),
  lastSeenAt: z.string().describe('latest activity (any request or sign-in, recorded at most once a minute); never active: ten years before creation'),
  lastSeenAtAge: z.string().describe('"10 years", "5 minutes", "< 1 minute"...'),
  authLabels: z.array(z.string()),
});
const profile = z.object({
  id: z.number().int(),
  uid: z.string(),
  email: z.string(),
  name: z.string(),
  login: z.string(),
  theme: z.string(),
  orgId: z.number().int().describe('the organization the user acts in'),
  isSvcAdmin: z.boolean().describe('server administrator'),
  isDisabled: z.boolean(),
  isExternal: z.boolean(),
  authLabels: z.array(z.string()),
  updatedAt: z.string(),
  createdAt: z.string(),
  avatarUrl: z.string(),
});
const paging: LegacyParam[] = [
  { name: 'perpage', in: 'query', type: 'integer', default: 1000 },
  { name: 'page', in: 'query', type: 'integer', default: 1 },
  { name: 'query', in: 'query', type: 'string', description: 'part of the login, email or name, any case' },
];
const userId: LegacyParam = { name: 'id', in: 'path', type: 'integer', required: true };
/** The anchor's `users:read` on every user: server admins (a service account never holds it). */
const readUsers = guard.can('users:read', 'global.users:*');
const userScope = 'global.users:id:{id}';
const byIdErrors = { 400: { description: 'id is invalid' }, 401: {}, 403: {}, 404: { description: 'user not found' } };
const updateUserCommand = {
  name: 'UpdateUserCommand',
  description: 'Blank fields keep their value; a blank login takes the email. `theme` is accepted and not stored (user preferences hold it).',
  schema: z.object({ login: z.string().optional(), email: z.string().optional(), name: z.string().optional(), theme: z.string().optional() }),
};
const updateErrors = { 400: { description: 'bad request data, or Validation error, need to specify either username or email' }, 409: { description: 'Update would result in user login conflict (another user holds the login or email).' } };
const team = z.object({
  id: z.number().int(), uid: z.string(), orgId: z.number().int(), name: z.string(), email: z.string(), avatarUrl: z.string(), memberCount: z.number().int(),
  permission: z.number().int().describe("the user's permission in the team: 0 Member, 4 Admin"),
});
const helpFlags = { description: 'The flags.', schema: z.object({ message: z.string(), helpFlags1: z.number().int() }) };
const forUsers = { 403: { description: 'Endpoint only available for users (a service account).' } };
const adminErrors = { 400: { description: 'id is invalid, or the body is.' }, 401: {}, 403: {}, 404: { description: 'User not found' } };

/** The signed-in user and the server-admin user endpoints (users-routes.ts), spec §4.11. */
export const usersArea = defineArea({
  name: 'users',
  routes: [
    {
      method: 'get', path: '/api/users/search', guard: guard.serverAdmin, handler: searchUsersWithPaging,
      operationId: 'searchUsersWithPaging', tags: ['users'], summary: 'Search users, a page at a time; server admins only.',
      params: paging,
      responses: {
        200: { description: 'One page, by login.', schema: z.object({ totalCount: z.number().int(), users: z.array(hit), page: z.number().int(), perPage: z.number().int() }), name: 'SearchUserQueryResult' },
        401: {}, 403: {},
      },
    },
    {
      method: 'get', path: '/api/users/lookup', guard: readUsers, handler: getUserByLoginOrEmail,
      operationId: 'getUserByLoginOrEmail', tags: ['users'], summary: 'The user with a login or email (any case).',
      description: 'What a client calls after `POST /api/admin/users` answered 412, to find the existing user.',
      params: [{ name: 'loginOrEmail', in: 'query', type: 'string', required: true, description: 'the login or the email of the user' }],
      responses: { 200: { description: 'The user.', schema: profile, name: 'UserProfileDTO' }, 401: {}, 403: {}, 404: { description: 'user not found' } },
    },
    {
      method: 'get', path: '/api/users/:id', guard: guard.can('users:read', userScope), handler: getUserByID,
      operationId: 'getUserByID', tags: ['users'], summary: 'A user by id.', params: [userId],
      responses: { 200: { description: 'The user; orgId is its current organization.', schema: profile, name: 'UserProfileDTO' }, ...byIdErrors },
    },
    {
      method: 'put', path: '/api/users/:id', guard: guard.can('users:write', userScope), handler: updateUser,
      operationId: 'updateUser', tags: ['users'], summary: "Change a user's login, email or name.", params: [userId], body: updateUserCommand,
      responses: { 200: ok('User updated'), ...byIdErrors, ...updateErrors },
    },
    {
      method: 'get', path: '/api/users/:id/orgs', guard: guard.can('users:read', userScope), handler: getUserOrgList,
      operationId: 'getUserOrgList', tags: ['users'], summary: 'The organizations of a user, with its role in each.', params: [userId],
      responses: { 200: { description: 'The organizations.', schema: z.array(z.object({ orgId: z.number().int(), name: z.string(), role: z.enum(ORG_ROLES) })) }, ...byIdErrors },
    },
    {
      method: 'get', path: '/api/users/:id/teams', guard: guard.can('users:read', userScope), handler: getUserTeams,
      operationId: 'getUserTeams', tags: ['users'], summary: 'The teams of a user in the organization the request acts in.', params: [userId],
      responses: { 200: { description: 'The teams, by name.', schema: z.array(team) }, ...byIdErrors },
    },
    {
      method: 'get', path: '/api/users', guard: guard.serverAdmin, handler: listUsers,
      operationId: 'searchUsers', tags: ['users'], summary: 'Users, a page at a time; server admins only.',
      params: paging,
      responses: { 200: { description: 'One page, by login.', schema: z.array(hit) }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/user', guard: guard.inHandler(guard.user, 'an anonymous visitor gets a profile of its own'), handler: getSignedInUser,
      operationId: 'getSignedInUser', tags: ['signed_in_user'], summary: 'The signed-in user.',
      description: 'An anonymous visitor gets a profile of its own (id 0, its organization).',
      responses: { 200: { description: 'The user.', schema: profile, name: 'UserProfileDTO' }, 401: {}, ...forUsers, 404: { description: 'User not found' } },
    },
    {
      method: 'get', path: '/api/user/orgs', guard: guard.user, handler: getSignedInUserOrgs,
      operationId: 'getSignedInUserOrgList', tags: ['signed_in_user'], summary: 'The organizations of the signed-in user, with its role in each.',
      responses: { 200: { description: 'The organizations.', schema: z.array(z.object({ orgId: z.number().int(), name: z.string(), role: z.enum(ORG_ROLES) })) }, 401: {}, ...forUsers },
    },
    {
      method: 'put', path: '/api/user', guard: guard.user, handler: updateSignedInUser,
      operationId: 'updateSignedInUser', tags: ['signed_in_user'], summary: "Change the signed-in user's login, email or name.", body: updateUserCommand,
      responses: { 200: ok('User updated'), 401: {}, ...forUsers, ...updateErrors },
    },
    {
      method: 'put', path: '/api/user/password', guard: guard.user, handler: changeUserPassword,
      operationId: 'changeUserPassword', tags: ['signed_in_user'], summary: "Change the signed-in user's password, given the old one.",
      body: { name: 'ChangeUserPasswordCommand', schema: z.object({ oldPassword: z.string(), newPassword: z.string().min(4) }) },
      responses: { 200: ok('User password changed'), 400: { description: 'bad request data, or New password is too short' }, 401: { description: 'Unauthorized, or Invalid old password' }, ...forUsers },
    },
    {
      method: 'get', path: '/api/user/teams', guard: guard.user, handler: getSignedInUserTeamList,
      operationId: 'getSignedInUserTeamList', tags: ['signed_in_user'], summary: 'The teams of the signed-in user in the organization the request acts in.',
      responses: { 200: { description: 'The teams, by name.', schema: z.array(team) }, 401: {}, ...forUsers },
    },
    {
      method: 'put', path: '/api/user/helpflags/:id', guard: guard.user, handler: setHelpFlag,
      operationId: 'setHelpFlag', tags: ['signed_in_user'], summary: 'Mark help hints as seen: the bits of `id` are added to helpFlags1.',
      params: [{ name: 'id', in: 'path', type: 'integer', required: true, description: 'the bits to set' }],
      responses: { 200: helpFlags, 400: { description: 'Invalid flag id' }, 401: {}, ...forUsers },
    },
    {
      method: 'get', path: '/api/user/helpflags/clear', guard: guard.user, handler: clearHelpFlags,
      operationId: 'clearHelpFlags', tags: ['signed_in_user'], summary: 'Show every help hint again (helpFlags1 becomes 0).',
      responses: { 200: helpFlags, 401: {}, ...forUsers },
    },
    {
      method: 'post', path: '/api/user/using/:orgId', guard: guard.user, handler: userSetUsingOrg,
      operationId: 'userSetUsingOrg', tags: ['signed_in_user'], summary: 'Switch the organization the signed-in user acts in when a request names none.',
      params: [{ name: 'orgId', in: 'path', type: 'integer', required: true }],
      responses: { 200: ok('Active organization changed'), 400: { description: 'orgId is invalid' }, 401: { description: 'Not a valid organization (the user is no member).' }, ...forUsers },
    },
    {
      method: 'post', path: '/api/admin/users', guard: guard.serverAdmin, handler: adminCreateUser,
      operationId: 'adminCreateUser', tags: ['admin_users'], summary: 'Create a user; server admins only.',
      description: 'The user joins its organization (default 1) with the role users.auto_assign_org_role.',
      body: {
        name: 'AdminCreateUserForm',
        schema: z.object({ login: z.string().optional(), email: z.string().optional(), name: z.string().optional(), password: z.string().min(4), orgId: z.number().int().optional() }),
      },
      responses: {
        200: { description: 'The user.', schema: z.object({ id: z.number().int(), uid: z.string(), message: z.string() }), name: 'AdminCreateUserResponse' },
        400: { description: 'No login nor email, a password under 4 characters, or no such organization.' }, 401: {}, 403: {}, 412: { description: "User with email '<email>' or username '<login>' already exists" },
      },
    },
    {
      method: 'put', path: '/api/admin/users/:id/password', guard: guard.serverAdmin, handler: adminUpdateUserPassword,
      operationId: 'adminUpdateUserPassword', tags: ['admin_users'], summary: 'Set a user\'s password; server admins only.', params: [userId],
      body: { name: 'AdminUpdateUserPasswordForm', schema: z.object({ password: z.string().min(4) }) },
      responses: { 200: ok('User password updated'), ...adminErrors },
    },
    {
      method: 'put', path: '/api/admin/users/:id/permissions', guard: guard.serverAdmin, handler: adminUpdateUserPermissions,
      operationId: 'adminUpdateUserPermissions', tags: ['admin_users'], summary: 'Make a user a server admin, or not; server admins only.', params: [userId],
      body: { name: 'AdminUpdateUserPermissionsForm', schema: z.object({ isSvcAdmin: z.boolean() }) },
      responses: { 200: ok('User permissions updated'), ...adminErrors },
    },
    {
      method: 'delete', path: '/api/admin/users/:id', guard: guard.serverAdmin, handler: adminDeleteUser,
      operationId: 'adminDeleteUser', tags: ['admin_users'], summary: 'Delete a user, its memberships and its sessions; server admins only.', params: [userId],
      responses: { 200: ok('User deleted'), ...adminErrors },
    },
  ],
});
