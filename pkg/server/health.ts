import { Router } from 'express';
import type { Storage } from '../../storage';
import type { BuildInfo } from './build-info';
import { within } from './deadline';

/** How long a health check waits for the database to answer its ping before it reports it failing. */
export const PING_DEADLINE_MS = 5_000;

/**
 * `GET /api/health` (the anchor's shape: {database, version, commit}, 503 while the database does not answer),
 * `/livez` (the process serves) and `/readyz` (it can do useful work), for load balancers and Kubernetes probes.
 */
export function healthRouter(storage: Storage, build: BuildInfo, draining: () => boolean): Router {
  const router = Router();
  // A database that hangs instead of refusing (stopped, or packets dropped) fails the check at the deadline, so
  // probes and load balancers learn it while the ping still waits.
  const databaseOk = () => within(storage.ping().then(() => true, () => false), PING_DEADLINE_MS, false);
  router.get('/api/health', async (_req, res) => {
    const ok = await databaseOk();
    res.status(ok ? 200 : 503).json({ database: ok ? 'ok' : 'failing', version: build.version, commit: build.commit });
  });
  router.get('/livez', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  router.get('/readyz', async (_req, res) => {
    if (draining()) return void res.status(503).type('text/plain').send('shutting down');
    const ok = await databaseOk();
    res.status(ok ? 200 : 503).type('text/plain').send(ok ? 'ok' : 'database unavailable');
  });
  return router;
}
