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
 * The express router of the areas a server serves: each route checks its guard, then runs its handler with the
 * one dependencies object; errors go to the server's error handler in the area's wording.
 *
 * @example app.use(legacyRouter(legacyAreas, deps));
 */
export function legacyRouter(areas: readonly LegacyArea[], deps: AdapterDeps, opts: LegacyRouterOptions = {}): Router {
  const router = Router();
  for (const area of areas) {
    for (const route of area.routes) {
      if ((route.servedIn?.(deps.config) ?? true) && (opts.only?.(route) ?? true)) router[route.method](route.path, ...(opts.before ?? []), handle(area, route, deps, opts.keep));
    }
  }
  return router;
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
