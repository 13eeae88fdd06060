import type { ZodType } from 'zod';

/**
 * What the OpenAPI documents (`/swagger.json`, `/openapi3.json`) say of one legacy route. A route declaration
 * (./declare.ts) carries it beside its method, path, guard and handler, so a served route cannot go undescribed.
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

/** The description of a route, without its method and path (the declaration holds those). */
export interface RouteDescription {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: LegacyParam[];
  body?: LegacyBody;
  responses: Record<number, LegacyResponse>;
  /** A deprecated route names what replaces it. */
  deprecated?: { replacedBy: string };
}

/** A described route, as the document generator reads it. */
export interface LegacyRouteDoc extends RouteDescription {
  method: LegacyMethod;
  /** Express syntax, under `/api`: `/api/dashboards/uid/:uid`. */
  path: string;
  /** Default true: the route needs credentials (401 otherwise). */
  authenticated?: boolean;
}
