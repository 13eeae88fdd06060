import type express from 'express';

/**
 * A router whose routes all answer GET (probes, metrics, discovery, the API descriptions): requests of other methods
 * pass it by without matching its paths against every route (issue 16: a create went through some twenty such
 * matches). OPTIONS still enters, for the `Allow` header express answers there. Its `stack` stays readable, as
 * express keeps a router's (the route table of an app is read from there).
 *
 * @example app.use(readRoutes(healthRouter(storage, build, () => draining)));
 */
export function readRoutes(router: express.Router): express.RequestHandler {
  const handler: express.RequestHandler = (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' ? router(req, res, next) : next());
  return Object.assign(handler, { stack: router.stack });
}
