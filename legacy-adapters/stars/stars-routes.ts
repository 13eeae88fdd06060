import type { Request, Response } from 'express';
import { dashboardKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { anyKind, Labels, type Resource } from '../../pkg/meta';
import type { Registry } from '../../pkg/registry';
import { requestContext } from '../shared/request-context';
import { starsOf } from '../../pkg/stars/stars';
import { type AdapterDeps, byKind, type LegacyErrors } from '../shared';

/**
 * The signed-in user's stars (pkg/stars): `POST/DELETE /api/user/stars/dashboard/uid/:uid`, the deprecated
 * numeric-id forms, and `GET /api/user/stars` (the uids of the starred dashboards that still exist).
 */

const dashboards = anyKind(dashboardKind);
const dashboardNotFound = () => new StatusError(404, 'NotFound', 'Dashboard not found');

/**
 * The registry's answers for the dashboard of the path, for every star route: the anchor answers 404 "Dashboard not
 * found" for a dashboard it cannot find for the caller, whatever the reason (gone or hidden).
 */
export const starErrors: LegacyErrors = {
  notFound: byKind({ dashboards: dashboardNotFound }),
  forbidden: byKind({ dashboards: dashboardNotFound }),
};

/** The dashboard a star request names, as the caller may read it (the registry checks). */
const readableDashboard = (registry: Registry, req: Request, uid: string): Promise<Resource> => registry.get(requestContext(req, registry), dashboards, uid);

/** The dashboard with a legacy numeric id (the deprecated routes), found by its `svc.app/deprecatedInternalID` label. */
async function dashboardById(registry: Registry, req: Request): Promise<Resource> {
  const id = String(req.params.id);
  if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new StatusError(400, 'BadRequest', 'Invalid dashboard ID');
  const list = await registry.list(requestContext(req, registry), dashboards, { labelSelector: `${Labels.deprecatedInternalID}=${id}`, limit: 1 });
  const found = list.items[0];
  if (!found) throw dashboardNotFound();
  return readableDashboard(registry, req, found.metadata.name);
}

export async function listStars(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await starsOf(deps.registry).starredNames(req.user!, dashboards));
}

async function star(req: Request, res: Response, deps: AdapterDeps, dashboard: Resource): Promise<void> {
  await starsOf(deps.registry).star(req.user!, dashboards, dashboard);
  res.json({ message: 'Dashboard starred!' });
}

async function unstar(req: Request, res: Response, deps: AdapterDeps, dashboard: Resource): Promise<void> {
  await starsOf(deps.registry).unstar(req.user!, dashboards, dashboard.metadata.name);
  res.json({ message: 'Dashboard unstarred' });
}

export const starByUid = async (req: Request, res: Response, deps: AdapterDeps) => star(req, res, deps, await readableDashboard(deps.registry, req, String(req.params.uid)));
export const unstarByUid = async (req: Request, res: Response, deps: AdapterDeps) => unstar(req, res, deps, await readableDashboard(deps.registry, req, String(req.params.uid)));
export const starById = async (req: Request, res: Response, deps: AdapterDeps) => star(req, res, deps, await dashboardById(deps.registry, req));
export const unstarById = async (req: Request, res: Response, deps: AdapterDeps) => unstar(req, res, deps, await dashboardById(deps.registry, req));
