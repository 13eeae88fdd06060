import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { LegacyArea, LegacyRoute } from './declare';
import type { AdapterDeps } from './deps';
import { legacyError } from './errors';
import { enforce } from './guards';

/** Which routes a router mounts, and what runs before each of them. */
export interface LegacyRouterOptions {
  only?: (route: LegacyRoute) => boolean;
  before?: readonly RequestHandler[];
  /**
   * Sends a route's declared answer (`LegacyRoute.answer`): kept and sent again while nothing stored changes
   * (pkg/server/answer-cache.ts). Without it the answer is computed at every request.
   */
  keep?: (req: Request, res: Response, compute: () => Promise<unknown>) => Promise<void>;
}

/**
 * A public route under /api (a snapshot read by its key, deleted by its delete key): served before authentication,
 * so that a request without credentials reaches it. The login form is public too but outside /api.
 */
export const isPublicApiRoute = (route: LegacyRoute): boolean => route.guard.kind === 'public' && route.path.startsWith('/api/');

/**
 * The express handler of the areas a server serves: each route checks its guard, then runs its handler with the
 * one dependencies object; errors go to the server's error handler in the area's wording.
 *
 * Routes are grouped by the first two segments of their path (`/api/dashboards`, `/login`), each group an express
 * router of its own, and a request goes to its group's router alone: express tries a router's routes one after
 * another, and going through the ~280 routes of every area cost a request more than its answer (issue 16). A route
 * whose first two segments are not literal would run after its group's routes, for every path; none is.
 *
 * @example app.use(legacyRouter(legacyAreas, deps));
 */
export function legacyRouter(areas: readonly LegacyArea[], deps: AdapterDeps, opts: LegacyRouterOptions = {}): RequestHandler {
  const groups = new Map<string, Router>();
  const anyPath = Router();
  for (const area of areas) {
    for (const route of area.routes) {
      if (!((route.servedIn?.(deps.config) ?? true) && (opts.only?.(route) ?? true))) continue;
      const group = groupOf(route.path);
      let router = /[:*?{}()\\]/.test(group) ? anyPath : groups.get(group);
      if (!router) groups.set(group, (router = Router()));
      router[route.method](route.path, ...(opts.before ?? []), handle(area, route, deps, opts.keep));
    }
  }
  // A router that matches nothing hands the request on in a later turn of the event loop: an empty one is not entered.
  const rest: RequestHandler = anyPath.stack.length ? anyPath : (_req, _res, next) => next();
  const dispatch: RequestHandler = (req, res, next) => {
    const router = groups.get(groupOf(req.path));
    if (!router) return rest(req, res, next);
    router(req, res, (err?: unknown) => (err ? next(err) : rest(req, res, next)));
  };
  // Its routes stay where express keeps a router's: a `stack` of layers, here one per group router (the route table
  // of an app is read from there, e.g. to compare it with the legacy API's description).
  return Object.assign(dispatch, { stack: [...groups.values(), anyPath].map((handle) => ({ handle })) });
}

/**
 * The group of a route's path or of a request's: its first two segments, lower-cased as express matches them (a
 * trailing or doubled slash does not count).
 *
 * @example groupOf('/API/Dashboards/uid/a') // 'api/dashboards'
 */
export function groupOf(path: string): string {
  return path.split('/').filter(Boolean).slice(0, 2).join('/').toLowerCase();
}

function handle(area: LegacyArea, route: LegacyRoute, deps: AdapterDeps, keep: LegacyRouterOptions['keep']) {
  const { answer } = route;
  return async (req: Request, res: Response) => {
    try {
      await enforce(route.guard, req);
      if (answer && keep) await keep(req, res, () => answer(req, deps));
      else await route.handler(req, res, deps);
    } catch (err) {
      throw area.errors ? legacyError(area.errors, err) : err;
    }
  };
}
