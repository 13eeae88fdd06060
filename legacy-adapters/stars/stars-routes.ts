import { type Request, Router } from 'express';
import { dashboardKind } from '../../apis';
import { isAnonymous } from '../../pkg/auth/org-access';
import { StatusError } from '../../pkg/errors';
import { anyKind, Labels, type Resource } from '../../pkg/meta';
import type { Registry } from '../../pkg/registry';
import { requestContext } from '../../pkg/server/request-context';
import { starsOf } from '../../pkg/stars/stars';

const dashboards = anyKind(dashboardKind);
const dashboardNotFound = () => new StatusError(404, 'NotFound', 'Dashboard not found');

/**
 * The dashboard a star request names, as the caller may read it (the registry checks): the anchor answers 404
 * "Dashboard not found" for a dashboard it cannot find for the caller, whatever the reason.
 */
async function readableDashboard(registry: Registry, req: Request, uid: string): Promise<Resource> {
  return registry.get(requestContext(req), dashboards, uid).catch((err: unknown) => {
    if (err instanceof StatusError && (err.code === 404 || err.code === 403)) throw dashboardNotFound();
    throw err;
  });
}

/** The dashboard with a legacy numeric id (the deprecated routes), found by its `svc.app/deprecatedInternalID` label. */
async function dashboardById(registry: Registry, req: Request): Promise<Resource> {
  const id = String(req.params.id);
  if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new StatusError(400, 'BadRequest', 'Invalid dashboard ID');
  const list = await registry.list(requestContext(req), dashboards, { labelSelector: `${Labels.deprecatedInternalID}=${id}`, limit: 1 });
  const found = list.items[0];
  if (!found) throw dashboardNotFound();
  return readableDashboard(registry, req, found.metadata.name);
}

/**
 * The signed-in user's stars (pkg/stars): `POST/DELETE /api/user/stars/dashboard/uid/:uid`, the deprecated
 * numeric-id forms, and `GET /api/user/stars` (the uids of the starred dashboards that still exist).
 */
export function legacyStarsRouter(registry: Registry): Router {
  const router = Router();
  const stars = starsOf(registry.storage);
  // Anonymous visitors share one identity: stars are for signed-in callers (the anchor's reqSignedInNoAnonymous).
  router.use('/api/user/stars', (req, _res, next) => next(isAnonymous(req.user!) ? StatusError.unauthorized() : undefined));

  router.get('/api/user/stars', async (req, res) => {
    res.json(await stars.starredNames(req.user!, dashboards));
  });

  const star = async (req: Request, dashboard: Resource) => {
    await stars.star(req.user!, dashboards, dashboard);
    return { message: 'Dashboard starred!' };
  };
  const unstar = async (req: Request, dashboard: Resource) => {
    await stars.unstar(req.user!, dashboards, dashboard.metadata.name);
    return { message: 'Dashboard unstarred' };
  };

  router.post('/api/user/stars/dashboard/uid/:uid', async (req, res) => {
    res.json(await star(req, await readableDashboard(registry, req, String(req.params.uid))));
  });
  router.delete('/api/user/stars/dashboard/uid/:uid', async (req, res) => {
    res.json(await unstar(req, await readableDashboard(registry, req, String(req.params.uid))));
  });
  router.post('/api/user/stars/dashboard/:id', async (req, res) => {
    res.json(await star(req, await dashboardById(registry, req)));
  });
  router.delete('/api/user/stars/dashboard/:id', async (req, res) => {
    res.json(await unstar(req, await dashboardById(registry, req)));
  });
  return router;
}
