import { z } from 'zod';
import type { Config } from '../../pkg/config';
import { defineArea, guard } from '../shared';
import { adminGetUserAuthTokens, adminLogoutUser, adminRevokeUserAuthToken, getUserAuthTokens, login, logout, revokeUserAuthToken } from './sessions-routes';

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

const notCloud = (config: Config) => config.server.edition !== 'cloud';

/**
 * The login form and the login-session (auth token) routes of spec §4.11 (sessions-routes.ts). `POST /login` and
 * `GET /logout` are outside /api, reachable without credentials, and not in the cloud edition (bearer tokens
 * only); the /api documents leave them out.
 */
export const sessionsArea = defineArea({
  name: 'sessions',
  routes: [
    {
      method: 'post', path: '/login', guard: guard.public, handler: login, servedIn: notCloud,
      operationId: 'login', tags: ['login'], summary: 'Sign in: a session starts, its secret in an HttpOnly cookie.',
      body: { name: 'LoginCommand', schema: z.object({ user: z.string(), password: z.string() }) },
      responses: {
        200: { description: 'Logged in', schema: z.object({ message: z.string(), redirectUrl: z.string() }) },
        400: { description: 'bad login data' }, 401: { description: 'Invalid username or password (also when throttled).' },
      },
    },
    {
      method: 'get', path: '/logout', guard: guard.public, handler: logout, servedIn: notCloud,
      operationId: 'logout', tags: ['login'], summary: 'Sign out: the session of the cookie ends.',
      responses: { 302: { description: 'To the login page.' } },
    },
    {
      method: 'get', path: '/api/user/auth-tokens', guard: guard.user, handler: getUserAuthTokens, operationId: 'getUserAuthTokens', tags: ['signed_in_user'], summary: 'The signed-in user\'s sessions (devices).',
      responses: { 200: tokens, 401: {}, 403: { description: 'Endpoint only available for users (a service account or anonymous visitor).' } },
    },
    {
      method: 'post', path: '/api/user/revoke-auth-token', guard: guard.user, handler: revokeUserAuthToken, operationId: 'revokeUserAuthToken', tags: ['signed_in_user'], summary: 'End one of the signed-in user\'s sessions.',
      description: 'Its next request is refused (401). The session of this request cannot be revoked this way (400): GET /logout ends it.',
      body: revokeBody,
      responses: { 200: ok('User auth token revoked'), 400: {}, 401: {}, 403: {}, 404: { description: 'User auth token not found.' } },
    },
    {
      method: 'get', path: '/api/admin/users/:id/auth-tokens', guard: guard.serverAdmin, handler: adminGetUserAuthTokens, operationId: 'adminGetUserAuthTokens', tags: ['admin_users'], summary: 'A user\'s sessions (devices); server admins only.',
      params: [userId],
      responses: { 200: tokens, 400: {}, 401: {}, 403: {}, 404: { description: 'User not found.' } },
    },
    {
      method: 'post', path: '/api/admin/users/:id/revoke-auth-token', guard: guard.serverAdmin, handler: adminRevokeUserAuthToken, operationId: 'adminRevokeUserAuthToken', tags: ['admin_users'], summary: 'End one session of a user; server admins only.',
      params: [userId], body: revokeBody,
      responses: { 200: ok('User auth token revoked'), 400: {}, 401: {}, 403: {}, 404: { description: 'User not found, or User auth token not found.' } },
    },
    {
      method: 'post', path: '/api/admin/users/:id/logout', guard: guard.serverAdmin, handler: adminLogoutUser, operationId: 'adminLogoutUser', tags: ['admin_users'], summary: 'End every session of a user; server admins only.',
      params: [userId],
      responses: { 200: ok('User logged out'), 400: { description: 'id is invalid, or You cannot logout yourself.' }, 401: {}, 403: {}, 404: { description: 'User not found.' } },
    },
  ],
});
