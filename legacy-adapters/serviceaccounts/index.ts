import { z } from 'zod';
import { defineArea, guard, invalidAs } from '../shared';
import {
  createServiceAccount, createToken, deleteServiceAccount, deleteToken, listTokens, retrieveServiceAccount, searchOrgServiceAccountsWithPaging,
  updateServiceAccount,
} from './serviceaccounts-routes';

const message = z.object({ message: z.string() });
const role = z.enum(['None', 'Viewer', 'Editor', 'Admin']);
const serviceAccountDto = z.object({
  id: z.number().int(),
  uid: z.string(),
  name: z.string(),
  login: z.string().describe('sa-<orgId>-<slug of the name>'),
  orgId: z.number().int(),
  isDisabled: z.boolean(),
  role,
  tokens: z.number().int().describe('how many tokens it has'),
  avatarUrl: z.string(),
});
const profileDto = serviceAccountDto.omit({ tokens: true }).extend({ createdAt: z.string(), updatedAt: z.string(), teams: z.array(z.string()) });
const tokenDto = z.object({
  id: z.number().int(),
  name: z.string(),
  created: z.string(),
  lastUsedAt: z.string().nullable(),
  expiration: z.string().nullable().describe('null: never expires'),
  secondsUntilExpiration: z.number().describe('counted down in the last week before the expiry, else 0'),
  hasExpired: z.boolean(),
  isRevoked: z.boolean(),
});
const id = { name: 'id', in: 'path', type: 'integer', required: true } as const;
const tokenId = { name: 'tokenId', in: 'path', type: 'integer', required: true } as const;
const ok = (description: string) => ({ description, schema: message, name: 'SuccessResponseBody' });
const tags = ['service_accounts'];

/** /api/serviceaccounts (legacy-adapters/serviceaccounts/serviceaccounts-routes.ts). */
export const serviceAccountsArea = defineArea({
  name: 'serviceaccounts',
  // The legacy body's `name` is the kind's spec.title.
  errors: { invalid: invalidAs({ 'spec.title': 'name' }) },
  routes: [
    {
      method: 'post', path: '/api/serviceaccounts', guard: guard.can('serviceaccounts:create'), handler: createServiceAccount, operationId: 'createServiceAccount', tags, summary: 'Create a service account in the current organization.',
      description: 'Needs `serviceaccounts:create` (org Admin). Role default Viewer; none above the caller\'s own (403).',
      body: { schema: z.object({ name: z.string(), role: role.optional(), isDisabled: z.boolean().optional() }), name: 'CreateServiceAccountForm' },
      responses: { 201: { description: 'Created.', schema: serviceAccountDto, name: 'ServiceAccountDTO' }, 400: { description: 'Bad body, invalid role, or the name is taken.' }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/serviceaccounts/search', guard: guard.can('serviceaccounts:read'), handler: searchOrgServiceAccountsWithPaging, operationId: 'searchOrgServiceAccountsWithPaging', tags, summary: 'Search the organization\'s service accounts.',
      params: [
        { name: 'query', in: 'query', type: 'string', description: 'part of the name or login, any case' },
        { name: 'perpage', in: 'query', type: 'integer', default: 1000 },
        { name: 'page', in: 'query', type: 'integer', default: 1 },
        { name: 'disabled', in: 'query', type: 'boolean', description: 'only disabled ones' },
        { name: 'expiredTokens', in: 'query', type: 'boolean', description: 'only those with an expired token' },
      ],
      responses: {
        200: { description: 'One page, by name.', schema: z.object({ totalCount: z.number().int(), serviceAccounts: z.array(serviceAccountDto), page: z.number().int(), perPage: z.number().int() }), name: 'SearchOrgServiceAccountsResult' },
        401: {}, 403: {},
      },
    },
    {
      method: 'get', path: '/api/serviceaccounts/:id', guard: guard.can('serviceaccounts:read', 'serviceaccounts:id:{id}'), handler: retrieveServiceAccount, operationId: 'retrieveServiceAccount', tags, summary: 'Get a service account.', params: [id],
      responses: { 200: { description: 'The service account.', schema: serviceAccountDto, name: 'ServiceAccountDTO' }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'patch', path: '/api/serviceaccounts/:id', guard: guard.can('serviceaccounts:write', 'serviceaccounts:id:{id}'), handler: updateServiceAccount, operationId: 'updateServiceAccount', tags, summary: 'Rename, change the role of, or disable a service account.', params: [id],
      description: 'A disabled service account\'s tokens are refused (401) until it is enabled again.',
      body: { schema: z.object({ name: z.string(), role, isDisabled: z.boolean() }).partial(), name: 'UpdateServiceAccountForm' },
      responses: {
        200: { description: 'Updated.', schema: z.object({ message: z.string(), id: z.number().int(), name: z.string(), serviceaccount: profileDto }), name: 'UpdateServiceAccountResponse' },
        400: {}, 401: {}, 403: {}, 404: {},
      },
    },
    {
      method: 'delete', path: '/api/serviceaccounts/:id', guard: guard.can('serviceaccounts:delete', 'serviceaccounts:id:{id}'), handler: deleteServiceAccount, operationId: 'deleteServiceAccount', tags, summary: 'Delete a service account and its tokens.', params: [id],
      responses: { 200: ok('Service account deleted.'), 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/serviceaccounts/:id/tokens', guard: guard.can('serviceaccounts:read', 'serviceaccounts:id:{id}'), handler: listTokens, operationId: 'listTokens', tags, summary: 'List a service account\'s tokens, never their keys.', params: [id],
      responses: { 200: { description: 'The tokens (none for a service account the organization does not have).', schema: z.array(tokenDto) }, 400: {}, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/serviceaccounts/:id/tokens', guard: guard.can('serviceaccounts:write', 'serviceaccounts:id:{id}'), handler: createToken, operationId: 'createToken', tags, summary: 'Make a token; its key is in this answer only.', params: [id],
      description: 'Send the key as `Authorization: Bearer <key>`. Only its SHA-256 is stored.',
      body: { schema: z.object({ name: z.string(), secondsToLive: z.number().int().optional().describe('> 0 sets an expiry; 0 or none: never') }), name: 'AddServiceAccountTokenCommand' },
      responses: {
        200: { description: 'The token and its key.', schema: z.object({ id: z.number().int(), name: z.string(), key: z.string() }), name: 'NewApiKeyResult' },
        400: { description: 'Bad body, negative secondsToLive, or the name is taken in the organization.' }, 401: {}, 403: {}, 404: {},
      },
    },
    {
      method: 'delete', path: '/api/serviceaccounts/:id/tokens/:tokenId', guard: guard.can('serviceaccounts:write', 'serviceaccounts:id:{id}'), handler: deleteToken, operationId: 'deleteToken', tags, summary: 'Revoke a token: it is refused from the next request on.', params: [id, tokenId],
      responses: { 200: ok('Service account token deleted.'), 400: {}, 401: {}, 403: {}, 404: {} },
    },
  ],
});
