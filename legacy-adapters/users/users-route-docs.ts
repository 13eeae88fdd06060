import { z } from 'zod';
import type { LegacyRouteDoc } from '../../pkg/server/openapi/legacy-routes';

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
const paging = [
  { name: 'perpage', in: 'query', type: 'integer', default: 1000 },
  { name: 'page', in: 'query', type: 'integer', default: 1 },
  { name: 'query', in: 'query', type: 'string', description: 'part of the login, email or name, any case' },
] as const;

/** User listings for server admins (legacy-adapters/users/users-routes.ts). */
export const usersRouteDocs: LegacyRouteDoc[] = [
  {
    method: 'get', path: '/api/users/search', operationId: 'searchUsersWithPaging', tags: ['users'], summary: 'Search users, a page at a time; server admins only.',
    params: [...paging],
    responses: {
      200: { description: 'One page, by login.', schema: z.object({ totalCount: z.number().int(), users: z.array(hit), page: z.number().int(), perPage: z.number().int() }), name: 'SearchUserQueryResult' },
      401: {}, 403: {},
    },
  },
  {
    method: 'get', path: '/api/users', operationId: 'searchUsers', tags: ['users'], summary: 'Users, a page at a time; server admins only.',
    params: [...paging],
    responses: { 200: { description: 'One page, by login.', schema: z.array(hit) }, 401: {}, 403: {} },
  },
];
