import { z } from 'zod';
import type { LegacyRouteDoc } from '../../pkg/server/openapi/legacy-routes';

const message = z.object({ message: z.string() });
const userToken = z.object({
  id: z.number().int().describe('the authTokenId'),
  isActive: z.boolean().describe('the session of this request'),
  clientIp: z.string(),
  browser: z.string(),
  browserVersion: z.string(),
  os: z.string(),
  osVersion: z.string(),
  device: z.string(),
  createdAt: z.string(),
  seenAt: z.string().describe('written at most once a minute'),
});
const revokeBody = { schema: z.object({ authTokenId: z.number().int() }), name: 'RevokeAuthTokenCmd' };
const userId = { name: 'id', in: 'path', type: 'integer', required: true } as const;
const ok = (description: string) => ({ description, schema: message, name: 'SuccessResponseBody' });
const tokens = { description: 'The live sessions, oldest first.', schema: z.array(userToken) };

/**
 * The login-session (auth token) routes of spec §4.11 (legacy-adapters/sessions/sessions-routes.ts). `POST /login`
 * and `GET /logout` are outside /api and not described here.
 */
export const sessionsRouteDocs: LegacyRouteDoc[] = [
  {
    method: 'get', path: '/api/user/auth-tokens', operationId: 'getUserAuthTokens', tags: ['signed_in_user'], summary: 'The signed-in user\'s sessions (devices).',
    responses: { 200: tokens, 401: {}, 403: { description: 'Endpoint only available for users (a service account or anonymous visitor).' } },
  },
  {
    method: 'post', path: '/api/user/revoke-auth-token', operationId: 'revokeUserAuthToken', tags: ['signed_in_user'], summary: 'End one of the signed-in user\'s sessions.',
    description: 'Its next request is refused (401). The session of this request cannot be revoked this way (400): GET /logout ends it.',
    body: revokeBody,
    responses: { 200: ok('User auth token revoked'), 400: {}, 401: {}, 403: {}, 404: { description: 'User auth token not found.' } },
  },
  {
    method: 'get', path: '/api/admin/users/:id/auth-tokens', operationId: 'adminGetUserAuthTokens', tags: ['admin_users'], summary: 'A user\'s sessions (devices); server admins only.',
    params: [userId],
    responses: { 200: tokens, 400: {}, 401: {}, 403: {}, 404: { description: 'User not found.' } },
  },
  {
    method: 'post', path: '/api/admin/users/:id/revoke-auth-token', operationId: 'adminRevokeUserAuthToken', tags: ['admin_users'], summary: 'End one session of a user; server admins only.',
    params: [userId], body: revokeBody,
    responses: { 200: ok('User auth token revoked'), 400: {}, 401: {}, 403: {}, 404: { description: 'User not found, or User auth token not found.' } },
  },
  {
    method: 'post', path: '/api/admin/users/:id/logout', operationId: 'adminLogoutUser', tags: ['admin_users'], summary: 'End every session of a user; server admins only.',
    params: [userId],
    responses: { 200: ok('User logged out'), 400: { description: 'id is invalid, or You cannot logout yourself.' }, 401: {}, 403: {}, 404: { description: 'User not found.' } },
  },
];
