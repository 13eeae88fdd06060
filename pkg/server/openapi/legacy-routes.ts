import { z, type ZodType } from 'zod';
import { accessControlRouteDocs } from '../../../legacy-adapters/access-control/access-control-route-docs';
import { serviceAccountsRouteDocs } from '../../../legacy-adapters/serviceaccounts/serviceaccounts-route-docs';
import { dashboardsRouteDocs } from '../../../legacy-adapters/dashboards/dashboards-route-docs';
import { teamsRouteDocs } from '../../../legacy-adapters/teams/teams-route-docs';
import { searchRouteDocs } from '../../../legacy-adapters/search/search-docs';
import { starsRouteDocs } from '../../../legacy-adapters/stars/stars-docs';
import { permissionsRouteDocs } from '../../../legacy-adapters/permissions/permissions-route-docs';
import { folderRouteDocs } from '../../../legacy-adapters/folders/folders-docs';
import { sessionsRouteDocs } from '../../../legacy-adapters/sessions/sessions-route-docs';
import { usersRouteDocs } from '../../../legacy-adapters/users/users-route-docs';
import { preferencesRouteDocs } from '../../../legacy-adapters/preferences/preferences-route-docs';

/**
 * The legacy `/api` routes, described once: the OpenAPI v2 document (`/swagger.json`), the v3 generated from it
 * (`/openapi3.json`) and the explorer (`/swagger/`) are built from this list. An adapter that adds routes exports
 * their descriptions beside them and adds one line to `legacyRoutes` below.
 *
 * @example
 *   export const playlistRouteDocs: LegacyRouteDoc[] = [{
 *     method: 'get', path: '/api/playlists/:uid', operationId: 'getPlaylist', tags: ['playlists'],
 *     summary: 'Get a playlist.', responses: { 200: { description: 'The playlist.', schema: playlistDto, name: 'PlaylistDTO' }, 404: {} },
 *   }];
 */

export type LegacyMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A body (request or response): a zod schema; `name` makes it a named model (a definition) instead of inline. */
export interface LegacyBody {
  schema: ZodType;
  name?: string;
  description?: string;
}

/** A path, query or header parameter. Path parameters not listed are derived from `:name` segments (strings). */
export interface LegacyParam {
  name: string;
  in: 'path' | 'query' | 'header';
  type: 'string' | 'integer' | 'number' | 'boolean';
  /** A comma-separated or repeated list of `type`. */
  array?: boolean;
  required?: boolean;
  description?: string;
  enum?: (string | number)[];
  default?: string | number | boolean;
  deprecated?: boolean;
}

/** A response; without `description` the usual words for its status code are used, without `schema` the `{message}` error. */
export interface LegacyResponse {
  description?: string;
  schema?: ZodType;
  name?: string;
}

export interface LegacyRouteDoc {
  method: LegacyMethod;
  /** Express syntax, under `/api`: `/api/dashboards/uid/:uid`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: LegacyParam[];
  body?: LegacyBody;
  responses: Record<number, LegacyResponse>;
  /** Default true: the route needs HTTP basic authentication (401 otherwise). */
  authenticated?: boolean;
  /** A deprecated route names what replaces it. */
  deprecated?: { replacedBy: string };
}

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

/** Every documented legacy route. Adding an adapter's routes is one line here. */
export const legacyRoutes: readonly LegacyRouteDoc[] = [
  ...healthRouteDocs,
  ...teamsRouteDocs,
  ...serviceAccountsRouteDocs,
  ...dashboardsRouteDocs,
  ...searchRouteDocs,
  ...starsRouteDocs,
  ...accessControlRouteDocs,
  ...permissionsRouteDocs,
  ...folderRouteDocs,
  ...sessionsRouteDocs,
  ...usersRouteDocs,
  ...preferencesRouteDocs,
];
