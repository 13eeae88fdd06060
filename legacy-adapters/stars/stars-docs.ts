import { z } from 'zod';
import type { LegacyRouteDoc } from '../../pkg/server/openapi/legacy-routes';

const messageSchema = z.object({ message: z.string() });

/** The signed-in user's stars (legacy-adapters/stars/stars-routes.ts). */
export const starsRouteDocs: LegacyRouteDoc[] = [
  {
    method: 'get',
    path: '/api/user/stars',
    operationId: 'getStars',
    summary: "The uids of the signed-in user's starred dashboards (in the org it acts in).",
    tags: ['signed_in_user'],
    responses: { 200: { description: 'Dashboard uids.', schema: z.array(z.string()) }, 401: {} },
  },
  ...(['post', 'delete'] as const).flatMap((method): LegacyRouteDoc[] => {
    const [verb, message] = method === 'post' ? ['Star', 'Dashboard starred!'] : ['Unstar', 'Dashboard unstarred'];
    const ok = { description: `{"message": "${message}"}`, schema: messageSchema };
    return [
      {
        method, path: '/api/user/stars/dashboard/uid/:uid', operationId: `${verb.toLowerCase()}DashboardByUID`, summary: `${verb} a dashboard.`,
        tags: ['signed_in_user'], responses: { 200: ok, 401: {}, 404: { description: 'Dashboard not found' } },
      },
      {
        method, path: '/api/user/stars/dashboard/:id', operationId: `${verb.toLowerCase()}Dashboard`, summary: `${verb} a dashboard by its numeric id.`,
        tags: ['signed_in_user'], deprecated: { replacedBy: `${method.toUpperCase()} /api/user/stars/dashboard/uid/{uid}` },
        params: [{ name: 'id', in: 'path', type: 'integer', required: true }],
        responses: { 200: ok, 400: { description: 'Invalid dashboard ID' }, 401: {}, 404: { description: 'Dashboard not found' } },
      },
    ];
  }),
];
