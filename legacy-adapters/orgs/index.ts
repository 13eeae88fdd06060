import { z } from 'zod';
import { ORG_ROLES } from '../../apis/iam.svc.app/v0alpha1/orgmember';
import { defineArea, guard, type LegacyParam } from '../shared';
import { addOrgUser, createOrg, getOrgUsers, lookupOrgUsers, removeOrgUser, searchOrgs, searchOrgUsers, updateOrgUser } from './orgs-routes';
import { deleteOrg, getOrg, getOrgByName, updateOrg, updateOrgAddress } from './org-details-routes';

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
const orgId: LegacyParam = { name: 'orgId', in: 'path', type: 'integer', required: true };
const line = z.string();
const orgDetails = {
  description: 'The organization.', name: 'OrgDetailsDTO',
  schema: z.object({ id: z.number().int(), name: z.string(), address: z.object({ address1: line, address2: line, city: line, zipCode: line, state: line, country: line }) }),
};
const updateOrgForm = { name: 'UpdateOrgForm', schema: z.object({ name: z.string().min(1) }) };
const addressForm = {
  name: 'UpdateOrgAddressForm', description: 'The whole address: lines left out become empty. The zip code is `zipcode` here, `zipCode` in OrgDetailsDTO.',
  schema: z.object({ address1: line, address2: line, city: line, zipcode: line, state: line, country: line }).partial(),
};
const orgNotFound = { 404: { description: 'Organization not found' } };
const byIdErrors = { 400: { description: 'orgId is invalid, or the body is.' }, 401: {}, 403: {}, ...orgNotFound };
const inOrg = 'Server admins only: an org Admin manages its own organization through /api/org/users with X-Svc-Org-Id.';
const userNotFound = { 404: { description: 'User not found (in this organization).' } };

/** Organizations (server admins) and the members of the current organization (its Admins), orgs-routes.ts. */
export const orgsArea = defineArea({
  name: 'orgs',
  routes: [
    {
      method: 'get', path: '/api/org', guard: guard.can('orgs:read'), handler: getOrg,
      operationId: 'getCurrentOrg', tags: ['org'], summary: 'The organization the request acts in.',
      responses: { 200: orgDetails, 401: {}, 403: {} },
    },
    {
      method: 'put', path: '/api/org', guard: guard.can('orgs:write'), handler: updateOrg,
      operationId: 'updateCurrentOrg', tags: ['org'], summary: 'Rename the organization the request acts in.', body: updateOrgForm,
      responses: { 200: ok('Organization updated'), 400: { description: 'bad request data (no name)' }, 401: {}, 403: {}, 409: { description: 'Organization name taken' } },
    },
    {
      method: 'put', path: '/api/org/address', guard: guard.can('orgs:write'), handler: updateOrgAddress,
      operationId: 'updateCurrentOrgAddress', tags: ['org'], summary: 'Set the address of the organization the request acts in.', body: addressForm,
      responses: { 200: ok('Address updated'), 400: { description: 'bad request data' }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/org/users/lookup', guard: guard.can(['org.users:read', 'teams.permissions:write', 'folders.permissions:write', 'dashboards.permissions:write']), handler: lookupOrgUsers,
      operationId: 'getOrgUsersForCurrentOrgLookup', tags: ['org'], summary: 'Members of the current organization matching a query: who a permission can name.',
      params: [
        { name: 'query', in: 'query', type: 'string', description: 'part of the login, email or name, any case' },
        { name: 'limit', in: 'query', type: 'integer', default: 1000 },
      ],
      responses: { 200: { description: 'The members, by login.', schema: z.array(z.object({ userId: z.number().int(), login: z.string(), avatarUrl: z.string() })) }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/orgs/name/:name', guard: guard.serverAdmin, handler: getOrgByName,
      operationId: 'getOrgByName', tags: ['orgs'], summary: 'An organization by name (any case).',
      params: [{ name: 'name', in: 'path', type: 'string', required: true }],
      responses: { 200: orgDetails, 401: {}, 403: {}, ...orgNotFound },
    },
    {
      method: 'get', path: '/api/orgs/:orgId', guard: guard.serverAdmin, handler: getOrg,
      operationId: 'getOrgByID', tags: ['orgs'], summary: 'An organization by id.', params: [orgId],
      responses: { 200: orgDetails, ...byIdErrors },
    },
    {
      method: 'put', path: '/api/orgs/:orgId', guard: guard.serverAdmin, handler: updateOrg,
      operationId: 'updateOrg', tags: ['orgs'], summary: 'Rename an organization.', params: [orgId], body: updateOrgForm,
      responses: { 200: ok('Organization updated'), ...byIdErrors, 409: { description: 'Organization name taken' } },
    },
    {
      method: 'delete', path: '/api/orgs/:orgId', guard: guard.serverAdmin, handler: deleteOrg,
      operationId: 'deleteOrgByID', tags: ['orgs'], summary: 'Delete an organization with everything in it.',
      description:
        'In one transaction: its dashboards, folders, data sources, library panels, playlists, snapshots, correlations, teams, service accounts and their tokens, ' +
        'memberships, invites, permissions, preferences, stars and quota limits (watches of its namespace see each deletion). Its users remain; one whose ' +
        'current organization it was moves to the first other one it belongs to.',
      params: [orgId],
      responses: {
        200: ok('Organization deleted'),
        400: { description: 'orgId is invalid, or it is the organization the request acts in ("Cannot delete your active organization...")' },
        401: {}, 403: {}, 404: { description: 'Failed to delete organization. ID not found' },
      },
    },
    {
      method: 'put', path: '/api/orgs/:orgId/address', guard: guard.serverAdmin, handler: updateOrgAddress,
      operationId: 'updateOrgAddress', tags: ['orgs'], summary: 'Set the address of an organization.', params: [orgId], body: addressForm,
      responses: { 200: ok('Address updated'), ...byIdErrors },
    },
    {
      method: 'get', path: '/api/orgs/:orgId/users', guard: guard.serverAdmin, handler: getOrgUsers,
      operationId: 'getOrgUsers', tags: ['orgs'], summary: 'The members of an organization.', description: inOrg, params: [orgId],
      responses: { 200: { description: 'The members, by user id.', schema: z.array(orgUser) }, ...byIdErrors },
    },
    {
      method: 'get', path: '/api/orgs/:orgId/users/search', guard: guard.serverAdmin, handler: searchOrgUsers,
      operationId: 'searchOrgUsers', tags: ['orgs'], summary: 'The members of an organization matching a query, a page at a time.', description: inOrg,
      params: [
        orgId,
        { name: 'query', in: 'query', type: 'string', description: 'part of the login, email or name, any case' },
        { name: 'perpage', in: 'query', type: 'integer', default: 1000 },
        { name: 'page', in: 'query', type: 'integer', default: 1 },
      ],
      responses: {
        200: { description: 'One page, by login.', name: 'SearchOrgUsersQueryResult', schema: z.object({ totalCount: z.number().int(), orgUsers: z.array(orgUser), page: z.number().int(), perPage: z.number().int() }) },
        ...byIdErrors,
      },
    },
    {
      method: 'post', path: '/api/orgs/:orgId/users', guard: guard.serverAdmin, handler: addOrgUser,
      operationId: 'addOrgUser', tags: ['orgs'], summary: 'Add an existing user to an organization.', description: inOrg, params: [orgId],
      body: { name: 'AddOrgUserCommand', schema: z.object({ loginOrEmail: z.string(), role }) },
      responses: {
        200: { description: 'User added to organization', schema: z.object({ message: z.string(), userId: z.number().int() }) },
        ...byIdErrors, 400: { description: 'orgId is invalid, or Invalid role specified' }, 404: { description: 'Organization not found, or User not found' }, 409: { description: 'User is already member of this organization' },
      },
    },
    {
      method: 'patch', path: '/api/orgs/:orgId/users/:userId', guard: guard.serverAdmin, handler: updateOrgUser,
      operationId: 'updateOrgUser', tags: ['orgs'], summary: "Change a member's role in an organization.", description: inOrg, params: [orgId, userId],
      body: { name: 'UpdateOrgUserCommand', schema: z.object({ role }) },
      responses: { 200: ok('Organization user updated'), ...byIdErrors, 400: { description: 'Invalid role specified, or no Admin would be left.' }, 404: { description: 'Organization not found, or User not found' } },
    },
    {
      method: 'delete', path: '/api/orgs/:orgId/users/:userId', guard: guard.serverAdmin, handler: removeOrgUser,
      operationId: 'removeOrgUser', tags: ['orgs'], summary: 'Remove a member from an organization (the user stays, in no organization if it was its last).', description: inOrg,
      params: [orgId, userId],
      responses: { 200: ok('User removed from organization'), ...byIdErrors, 400: { description: 'Cannot remove last organization admin' }, 404: { description: 'Organization not found, or User not found' } },
    },
    {
      method: 'post', path: '/api/orgs', guard: guard.serverAdmin, handler: createOrg,
      operationId: 'createOrg', tags: ['orgs'], summary: 'Create an organization; the caller becomes its Admin.',
      body: { name: 'CreateOrgCommand', schema: z.object({ name: z.string().min(1) }) },
      responses: { 200: { description: 'The organization.', schema: z.object({ orgId: z.number().int(), message: z.string() }) }, 400: {}, 401: {}, 403: {}, 409: { description: 'The name is taken.' } },
    },
    {
      method: 'get', path: '/api/orgs', guard: guard.serverAdmin, handler: searchOrgs,
      operationId: 'searchOrgs', tags: ['orgs'], summary: 'Search all Organizations.',
      description: "As the anchor's store: `query` is a prefix of the name (any case), `name` the exact name; `perpage` organizations (default 1000) after `perpage` × `page` (the anchor counts pages from 0: `page=1` skips the first page). By id.",
      params: [
        { name: 'page', in: 'query', type: 'integer' },
        { name: 'perpage', in: 'query', type: 'integer', description: 'Number of items per page (default 1000)' },
        { name: 'name', in: 'query', type: 'string' },
        { name: 'query', in: 'query', type: 'string', description: 'a prefix of the name, any case' },
      ],
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
        400: { description: 'Invalid role specified' }, 401: {}, 403: { description: "Not permitted, Cannot assign a role higher than user's role, or Quota reached (quota.org_user, or the user's quota.user_org)" }, ...userNotFound, 409: { description: 'User is already member of this organization' },
      },
    },
    {
      method: 'patch', path: '/api/org/users/:userId', guard: guard.can('org.users:write', 'users:id:{userId}'), handler: updateOrgUser,
      operationId: 'updateOrgUserForCurrentOrg', tags: ['org'], summary: 'Change a member\'s role.', params: [userId],
      body: { name: 'UpdateOrgUserCommand', schema: z.object({ role }) },
      responses: { 200: ok('Organization user updated'), 400: { description: 'Invalid role specified, or no Admin would be left.' }, 401: {}, 403: { description: "Not permitted, or Cannot assign a role higher than user's role" }, ...userNotFound },
    },
    {
      method: 'delete', path: '/api/org/users/:userId', guard: guard.can('org.users:remove', 'users:id:{userId}'), handler: removeOrgUser,
      operationId: 'removeOrgUserForCurrentOrg', tags: ['org'], summary: 'Remove a member; a user left in no organization is deleted.', params: [userId],
      responses: { 200: ok('User removed from organization, or User deleted'), 400: { description: 'Cannot remove last organization admin' }, 401: {}, 403: {}, ...userNotFound },
    },
  ],
});
