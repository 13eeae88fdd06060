import { type Request, type Response, Router } from 'express';
import type { LegacyArea, LegacyRoute } from './declare';
import type { AdapterDeps } from './deps';
import { legacyError } from './errors';
import { enforce } from './guards';

/**
 * The express router of the areas a server serves: each route checks its guard, then runs its handler with the
 * one dependencies object; errors go to the server's error handler in the area's wording.
 *
 * @example app.use(legacyRouter(legacyAreas, deps));
 */
export function legacyRouter(areas: readonly LegacyArea[], deps: AdapterDeps): Router {
  const router = Router();
  for (const area of areas) {
    for (const route of area.routes) {
      if (route.servedIn?.(deps.config) ?? true) router[route.method](route.path, handle(area, route, deps));
    }
  }
  return router;
}

function handle(area: LegacyArea, route: LegacyRoute, deps: AdapterDeps) {
  return async (req: Request, res: Response) => {
    try {
      await enforce(route.guard, req);
      await route.handler(req, res, deps);
    } catch (err) {
      throw area.errors ? legacyError(area.errors, err) : err;
    }
  };
}
