import type { Request, Response } from 'express';
import { internalKinds } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { countServer } from '../../pkg/stats';
import { type AdapterDeps, bodyObject } from '../shared';
import { customPermissions } from './custom-permissions';
import { toCsv } from './licensing-conversions';

/** The anchor's ActiveUserStats: users seen in the last 30 days, split by their highest role. */
async function activeUserStats(deps: AdapterDeps) {
  const { stats } = await countServer({ objects: deps.registry, identity: deps.users.registry, internal: deps.registry.companion(internalKinds) });
  return { active_users: stats.activeUsers, active_viewers: stats.activeViewers, active_admins_and_editors: stats.activeAdmins + stats.activeEditors };
}

/** GET /api/licensing/check: `true` when a license is installed that verifies now, else `false`. */
export async function checkLicense(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await deps.licensing.hasValidLicense());
}

/** GET /api/licensing/token: the installed license's claims (the anchor's Token); 404 when none is installed. */
export async function getLicenseToken(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const token = await deps.licensing.token();
  if (!token) throw new StatusError(404, 'NotFound', 'No license token is installed');
  res.json(token);
}

/** POST /api/licensing/token `{token}`: verifies and installs a license (400 naming why it does not verify). */
export async function postLicenseToken(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const token = bodyObject(req).token;
  if (typeof token !== 'string' || token.trim() === '') throw StatusError.badRequest('token is required: {"token": "<the license JWT>"}');
  res.json(await deps.licensing.install(token));
}

/** DELETE /api/licensing/token `{instance}`: removes the license of this instance (422 for another instance's name). */
export async function deleteLicenseToken(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const instance = bodyObject(req).instance;
  if (typeof instance !== 'string' || instance.trim() === '') throw StatusError.badRequest('instance is required: the root URL of the instance whose license to remove');
  await deps.licensing.remove(instance.trim());
  res.status(202).json({ message: 'License removed' });
}

/** POST /api/licensing/token/renew: asks the license server for a new token and installs it. */
export async function renewLicenseToken(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await deps.licensing.renew(await activeUserStats(deps)));
}

/** GET /api/licensing/refresh-stats: the active users counted now, as the license counts them. */
export async function refreshLicenseStats(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await activeUserStats(deps));
}

/** GET /api/licensing/custom-permissions: the custom permissions report, as JSON. */
export async function getCustomPermissions(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await customPermissions(deps));
}

/** GET /api/licensing/custom-permissions-csv: the same report as a CSV download. */
export async function getCustomPermissionsCsv(_req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const csv = toCsv(await customPermissions(deps));
  res.type('text/csv; charset=utf-8').set('Content-Disposition', 'attachment; filename="custom-permissions.csv"').send(csv);
}
