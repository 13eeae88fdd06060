import type { RequestHandler } from 'express';

/** A handler whose routes are given once their dependencies exist (see {@link lateRoutes}). */
export type LateRoutes = RequestHandler & {
  /** The layers of the routes given (none yet: empty), where express keeps a mounted router's. */
  readonly stack: readonly unknown[];
  /** Gives the routes; until then every request passes by. */
  fill(routes: RequestHandler): void;
};

/**
 * A place in the middleware order for routes made later, without an express Router: a router that matches nothing
 * hands the request on in a later turn of the event loop (`setImmediate`), and every `/apis` request went through two
 * such places (issue 16). This one calls the routes, or else the next handler, at once.
 *
 * @example
 *   const publicApi = lateRoutes();
 *   app.use(publicApi);
 *   // ... once the adapters' deps exist:
 *   publicApi.fill(legacyRouter(legacyAreas, deps, { only: isPublicApiRoute }));
 */
export function lateRoutes(): LateRoutes {
  let routes: RequestHandler | undefined;
  const handler: RequestHandler = (req, res, next) => (routes ? routes(req, res, next) : next());
  return Object.defineProperties(handler, {
    stack: { get: () => (routes as { stack?: readonly unknown[] } | undefined)?.stack ?? [] },
    fill: { value: (given: RequestHandler) => void (routes = given) },
  }) as LateRoutes;
}
