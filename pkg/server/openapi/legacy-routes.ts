import { z } from 'zod';
import { legacyAreas } from '../../../legacy-adapters';
import { describeGuard, type LegacyRouteDoc } from '../../../legacy-adapters/shared';

export type { LegacyBody, LegacyMethod, LegacyParam, LegacyResponse, LegacyRouteDoc } from '../../../legacy-adapters/shared';

/**
 * The legacy `/api` routes, described once: the OpenAPI v2 document (`/swagger.json`), the v3 generated from it
 * (`/openapi3.json`) and the explorer (`/swagger/`) are built from the route declarations of `legacyAreas`
 * (legacy-adapters/index.ts), each stating the guard it declares, and from the health probe's description.
 */

/** GET /api/health (pkg/server/health.ts). */
const healthSchema = z.object({
  database: z.enum(['ok', 'failing']).describe('"ok" when the database answers'),
  version: z.string().describe('the server version'),
  commit: z.string().describe('the commit the server was built from'),
});

export const healthRouteDocs: LegacyRouteDoc[] = [
  {
    method: 'get',
    path: '/api/health',
    operationId: 'getHealth',
    summary: 'Health of the server and its database.',
    description: 'Needs no credentials. Answers 503, with the same body, while the database does not answer.',
    tags: ['health'],
    authenticated: false,
    responses: {
      200: { description: 'The server and its database work.', schema: healthSchema, name: 'HealthResponse' },
      503: { description: 'The database does not answer.', schema: healthSchema, name: 'HealthResponse' },
    },
  },
];

/** Every documented legacy route: the health probe and every declared route under /api (not `/login`, `/logout`). */
export const legacyRoutes: readonly LegacyRouteDoc[] = [
  ...healthRouteDocs,
  ...legacyAreas
    .flatMap((a) => a.routes)
    .filter((r) => r.path.startsWith('/api/'))
    .map(({ guard, handler: _handler, servedIn: _servedIn, ...doc }): LegacyRouteDoc => {
      const needs = describeGuard(guard);
      // A description that already says what the route needs is left as written.
      const description = needs && !doc.description?.includes('Needs ') ? [doc.description, needs].filter(Boolean).join(' ') : doc.description;
      return { ...doc, ...(description ? { description } : {}), authenticated: guard.kind !== 'public' };
    }),
];
