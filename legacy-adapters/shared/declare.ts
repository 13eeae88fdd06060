import type { Request, Response } from 'express';
import type { Config } from '../../pkg/config';
import type { Namespaces } from '../../pkg/registry';
import type { KindRegistration } from '../../pkg/meta';
import type { AdapterDeps } from './deps';
import type { LegacyErrors } from './errors';
import type { Guard } from './guards';
import type { LegacyMethod, RouteDescription } from './route-doc';

export type RouteHandler = (req: Request, res: Response, deps: AdapterDeps) => Promise<void> | void;

/** The JSON a GET answers with status 200 (an error is thrown). */
export type RouteAnswer = (req: Request, deps: AdapterDeps) => Promise<unknown>;

/**
 * One route of a legacy area: served, described in the OpenAPI documents and listed in the authorization matrix
 * from this alone (its description's fields beside method, path, guard and handler).
 */
export interface LegacyRoute extends RouteDescription {
  method: LegacyMethod;
  /** Express syntax: `/api/teams/:teamId`. */
  path: string;
  guard: Guard;
  handler: RouteHandler;
  /**
   * The handler reads the request body as a stream (the data source proxy forwards it unread): the route is mounted
   * before the body parsers, which would otherwise consume it, and no body limit applies.
   */
  rawBody?: boolean;
  /** Whether a server with this configuration serves the route (default: every one), e.g. the enterprise edition's. */
  servedIn?: (config: Config) => boolean;
  /**
   * A GET that reads one object of `kind` named by the path parameter `param`: the request's read scope reads it
   * ahead, in the statement of the versions (one round trip for both), in the organization the request most likely
   * acts in (see {@link readAheadRoutes}); used only when the handler reads that very key.
   */
  reads?: { kind: KindRegistration; param: string };
  /**
   * A GET whose 200 answer is this JSON, computed from what is stored, the URL and the caller alone (no clock, no
   * other header): the server may send it again while nothing stored changes (pkg/server/answer-cache.ts); `handler`
   * sends it computed. Declared with {@link answering}.
   */
  answer?: RouteAnswer;
}

/**
 * The handler and answer of a route that answers with JSON computed from what is stored, the URL and the caller
 * alone (see `LegacyRoute.answer`).
 *
 * @example { method: 'get', path: '/api/dashboards/uid/:uid', guard: guard.signedIn, ...answering(dashboardByUID), ... }
 */
export function answering(answer: RouteAnswer): { handler: RouteHandler; answer: RouteAnswer } {
  return {
    answer,
    handler: async (req, res, deps) => {
      res.json(await answer(req, deps));
    },
  };
}

/**
 * A legacy area (`legacy-adapters/<area>/index.ts`): its routes, in the order express must try them (a literal
 * segment before a parameter in the same place: `/api/teams/search` before `/api/teams/:teamId`).
 *
 * @example
 *   export const starsArea = defineArea({
 *     name: 'stars',
 *     routes: [{
 *       method: 'get', path: '/api/user/stars', guard: guard.notAnonymous, handler: listStars,
 *       operationId: 'getStars', summary: 'The uids of the starred dashboards.', tags: ['signed_in_user'],
 *       responses: { 200: { description: 'Dashboard uids.', schema: z.array(z.string()) } },
 *     }],
 *   });
 */
export interface LegacyArea {
  name: string;
  routes: readonly LegacyRoute[];
  /** The area's wordings of the registry's errors, applied to every route (see `legacyError`), e.g. its 404 as the anchor's. */
  errors?: LegacyErrors;
}

/** Type-checks an area. */
export const defineArea = (area: LegacyArea): LegacyArea => area;

/** `GET /api/teams/:teamId`, as the authorization matrix names a route. */
export const routeName = (r: Pick<LegacyRoute, 'method' | 'path'>): string => `${r.method.toUpperCase()} ${r.path}`;

/** The routes a server with `config` serves, in mounting order. */
export function servedRoutes(areas: readonly LegacyArea[], config: Config): LegacyRoute[] {
  return areas.flatMap((a) => a.routes).filter((r) => r.servedIn?.(config) ?? true);
}

/** A path the read scope reads ahead for, and the key of the object it reads (see `LegacyRoute.reads`). */
export interface ReadAheadRoute {
  path: string;
  keyOf(params: Record<string, string>, header: (name: string) => string | undefined): { group: string; resource: string; namespace: string; name: string } | undefined;
}

/**
 * The GET routes of `areas` that declare the object they read, with its key: in the organization `X-Svc-Org-Id`
 * names, else the main one (a guess: a user whose current organization is another reads nothing ahead, and the
 * handler reads the object as before, in a second statement).
 *
 * @example app.use(readScope(storage, readAheadRoutes(legacyAreas, registry.namespaces)));
 */
export function readAheadRoutes(areas: readonly LegacyArea[], namespaces: Namespaces): ReadAheadRoute[] {
  return areas.flatMap((a) => a.routes).flatMap((r) => {
    const reads = r.reads;
    if (!reads || r.method !== 'get') return [];
    return [{
      path: r.path,
      keyOf: (params, header) => {
        const org = header('x-svc-org-id')?.trim() || '1';
        const name = params[reads.param];
        if (!/^[1-9][0-9]{0,9}$/.test(org) || !name) return undefined;
        return { group: reads.kind.group, resource: reads.kind.plural, namespace: namespaces.of(Number(org)), name };
      },
    }];
  });
}
