import { z } from 'zod';
import { ORG_ROLES } from '../../apis/iam.svc.app/v0alpha1/orgmember';
import { defineArea, guard, type LegacyParam } from '../shared';
import { addOrgUser, createOrg, getOrgUsers, removeOrgUser, searchOrgs, updateOrgUser } from './orgs-routes';

const ok = (description: string) => ({ description, schema: z.object({ message: z.string() }), name: 'SuccessResponseBody' });
const role = z.enum(ORG_ROLES);
const orgUser = z.object({
  orgId: z.number().int(),
  userId: z.number().int(),
  uid: z.string(),
  email: z.string(),
  name: z.string(),
  login: z.string(),
  role,
  avatarUrl: z.string(),
  isDisabled: z.boolean(),
  lastSeenAt: z.string(),
  lastSeenAtAge: z.string(),
  authLabels: z.array(z.string()),
});
const userId: LegacyParam = { name: 'userId', in: 'path', type: 'integer', required: true };
const userNotFound = { 404: { description: 'User not found (in this organization).' } };

/** Organizations (server admins) and the members of the current organization (its Admins), orgs-routes.ts. */
export const orgsArea = defineArea({
  name: 'orgs',
  routes: [
    {
      method: 'post', path: '/api/orgs', guard: guard.serverAdmin, handler: createOrg,
      operationId: 'createOrg', tags: ['orgs'], summary: 'Create an organization; the caller becomes its Admin.',
      body: { name: 'CreateOrgCommand', schema: z.object({ name: z.string().min(1) }) },
      responses: { 200: { description: 'The organization.', schema: z.object({ orgId: z.number().int(), message: z.string() }) }, 400: {}, 401: {}, 403: {}, 409: { description: 'The name is taken.' } },
    },
    {
      method: 'get', path: '/api/orgs', guard: guard.serverAdmin, handler: searchOrgs,
      operationId: 'searchOrgs', tags: ['orgs'], summary: 'Every organization.',
      responses: { 200: { description: 'The organizations.', schema: z.array(z.object({ id: z.number().int(), name: z.string() })) }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/org/users', guard: guard.can('org.users:read', 'users:*'), handler: getOrgUsers,
      operationId: 'getOrgUsersForCurrentOrg', tags: ['org'], summary: 'The members of the current organization.',
      responses: { 200: { description: 'The members.', schema: z.array(orgUser) }, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/org/users', guard: guard.can('org.users:add', 'users:*'), handler: addOrgUser,
      operationId: 'addOrgUserToCurrentOrg', tags: ['org'], summary: 'Add an existing user to the current organization.',
      body: { name: 'AddOrgUserCommand', schema: z.object({ loginOrEmail: z.string(), role }) },
      responses: {
        200: { description: 'User added to organization', schema: z.object({ message: z.string(), userId: z.number().int() }) },
        400: { description: 'Invalid role specified' }, 401: {}, 403: {}, ...userNotFound, 409: { description: 'User is already member of this organization' },
      },
    },
    {
      method: 'patch', path: '/api/org/users/:userId', guard: guard.can('org.users:write', 'users:id:{userId}'), handler: updateOrgUser,
      operationId: 'updateOrgUserForCurrentOrg', tags: ['org'], summary: 'Change a member\'s role.', params: [userId],
      body: { name: 'UpdateOrgUserCommand', schema: z.object({ role }) },
      responses: { 200: ok('Organization user updated'), 400: { description: 'Invalid role specified, or no Admin would be left.' }, 401: {}, 403: {}, ...userNotFound },
    },
    {
      method: 'delete', path: '/api/org/users/:userId', guard: guard.can('org.users:remove', 'users:id:{userId}'), handler: removeOrgUser,
      operationId: 'removeOrgUserForCurrentOrg', tags: ['org'], summary: 'Remove a member; a user left in no organization is deleted.', params: [userId],
      responses: { 200: ok('User removed from organization, or User deleted'), 400: { description: 'Cannot remove last organization admin' }, 401: {}, 403: {}, ...userNotFound },
    },
  ],
});
