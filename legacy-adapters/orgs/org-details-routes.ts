import type { Request, Response } from 'express';
import { allKinds, internalKinds } from '../../apis';
import type { StoredOrg } from '../../pkg/auth/identity/identity-directory';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, idParam } from '../shared';
import { parseOrgAddressForm, toOrgDetailsDTO } from './orgs-conversions';
import { orgNotFound } from './orgs-routes';

/**
 * An organization's name and address: the current one (`/api/org`, the anchor's orgs:read / orgs:write) and any one
 * by id or name (`/api/orgs/...`, server admins).
 */

const by = (req: Request) => ({ identity: req.user!.identity });

/** The org a route names: the path's `:orgId` (400 "orgId is invalid", 404), else the request's. */
async function orgOfRequest(req: Request, { users }: AdapterDeps): Promise<StoredOrg> {
  const id = req.params.orgId === undefined ? req.user!.orgId : idParam(req, 'orgId');
  const org = await users.orgById(id);
  if (!org) throw orgNotFound();
  return org;
}

/** UpdateOrgForm: a name that is not blank (the anchor's binding requires it). */
function orgName(body: unknown): string {
  const name = (body as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || name.trim() === '') throw StatusError.badRequest('bad request data');
  return name.trim();
}

export async function getOrg(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(toOrgDetailsDTO(await orgOfRequest(req, deps)));
}

export async function getOrgByName(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const org = await users.orgByName(String(req.params.name ?? ''));
  if (!org) throw orgNotFound();
  res.json(toOrgDetailsDTO(org));
}

/** `PUT /api/org`, `PUT /api/orgs/:orgId`: a new name (409 "Organization name taken" when another has it, in any case). */
export async function updateOrg(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const name = orgName(req.body);
  const org = await orgOfRequest(req, deps);
  await deps.users.updateOrg(by(req), org.id, { name });
  res.json({ message: 'Organization updated' });
}

export async function updateOrgAddress(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const address = parseOrgAddressForm(req.body);
  if (!address) throw StatusError.badRequest('bad request data');
  const org = await orgOfRequest(req, deps);
  await deps.users.updateOrg(by(req), org.id, { address });
  res.json({ message: 'Address updated' });
}

/** The anchor's refusal to delete the organization the request acts in. */
export const ACTIVE_ORG = 'Cannot delete your active organization. Please switch to a different organization first.';

/**
 * `DELETE /api/orgs/:orgId`: the organization with everything of it, in one transaction (IdentityDirectory.deleteOrg):
 * the objects of every kind the server stores in its namespace, whether or not this configuration serves them, and
 * its quota limits. As the anchor: 400 for the organization the request acts in, 404 "Failed to delete organization.
 * ID not found". Its data sources' pools are released once it is gone.
 */
export async function deleteOrg(req: Request, res: Response, { users, registry, dataSources }: AdapterDeps): Promise<void> {
  const id = idParam(req, 'orgId');
  if (id === req.user!.orgId) throw StatusError.badRequest(ACTIVE_ORG);
  await users.deleteOrg(by(req), id, [registry.companion([...allKinds, ...internalKinds])]).catch((err: unknown) => {
    if (err instanceof StatusError && err.code === 404) throw new StatusError(404, 'NotFound', 'Failed to delete organization. ID not found');
    throw err;
  });
  await dataSources.forgetNamespace(registry.namespaces.of(id));
  res.json({ message: 'Organization deleted' });
}
