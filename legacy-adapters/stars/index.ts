import { z } from 'zod';
import { defineArea, guard, type LegacyRoute } from '../shared';
import { listStars, starById, starByUid, starErrors, unstarById, unstarByUid } from './stars-routes';

const messageSchema = z.object({ message: z.string() });
const tags = ['signed_in_user'];
// Anonymous visitors share one identity: stars are for signed-in callers (the anchor's reqSignedInNoAnonymous).
const signedIn = guard.notAnonymous;

/** The star routes of one verb: `post` stars, `delete` unstars. */
function starRoutes(method: 'post' | 'delete'): LegacyRoute[] {
  const [verb, message] = method === 'post' ? ['Star', 'Dashboard starred!'] : ['Unstar', 'Dashboard unstarred'];
  const ok = { description: `{"message": "${message}"}`, schema: messageSchema };
  return [
    {
      method, path: '/api/user/stars/dashboard/uid/:uid', guard: signedIn, handler: method === 'post' ? starByUid : unstarByUid,
      operationId: `${verb.toLowerCase()}DashboardByUID`, summary: `${verb} a dashboard.`, tags, responses: { 200: ok, 401: {}, 404: { description: 'Dashboard not found' } },
    },
    {
      method, path: '/api/user/stars/dashboard/:id', guard: signedIn, handler: method === 'post' ? starById : unstarById,
      operationId: `${verb.toLowerCase()}Dashboard`, summary: `${verb} a dashboard by its numeric id.`, tags,
      deprecated: { replacedBy: `${method.toUpperCase()} /api/user/stars/dashboard/uid/{uid}` },
      params: [{ name: 'id', in: 'path', type: 'integer', required: true }],
      responses: { 200: ok, 400: { description: 'Invalid dashboard ID' }, 401: {}, 404: { description: 'Dashboard not found' } },
    },
  ];
}

/** The signed-in user's stars (stars-routes.ts). */
export const starsArea = defineArea({
  name: 'stars',
  errors: starErrors,
  routes: [
    {
      method: 'get', path: '/api/user/stars', guard: signedIn, handler: listStars,
      operationId: 'getStars', summary: "The uids of the signed-in user's starred dashboards (in the org it acts in).", tags,
      responses: { 200: { description: 'Dashboard uids.', schema: z.array(z.string()) }, 401: {} },
    },
    ...starRoutes('post'),
    ...starRoutes('delete'),
  ],
});
