import type { Request, Response } from 'express';
import { StatusError } from '../../pkg/errors';
import { QUOTA_TARGETS } from '../../pkg/quotas';
import { type AdapterDeps, idParam } from '../shared';

/** The anchor's QuotaDTO of an organization. */
export interface OrgQuotaDTO {
  org_id: number;
  target: string;
  limit: number;
  used: number;
}

/** The anchor's QuotaDTO of a user. */
export interface UserQuotaDTO {
  user_id: number;
  target: string;
  limit: number;
  used: number;
}

/** An organization's quotas: each target's `[quota]` limit and what the organization holds of it now. */
async function orgQuotas(deps: AdapterDeps, orgId: number): Promise<OrgQuotaDTO[]> {
  const out: OrgQuotaDTO[] = [];
  for (const t of QUOTA_TARGETS.filter((q) => q.scope === 'org')) {
    const registry = t.identity ? deps.users.registry : deps.registry;
    const used = t.kind ? await registry.count(t.kind, { namespace: registry.namespaces.of(orgId) }) : 0;
    out.push({ org_id: orgId, target: t.target, limit: t.limit(deps.config.quota), used });
  }
  return out;
}

/** A user's quotas: the organizations it belongs to, against `quota.user_org`. */
async function userQuotas(deps: AdapterDeps, userId: number): Promise<UserQuotaDTO[]> {
  const orgs = await deps.users.orgsOf(userId);
  return QUOTA_TARGETS.filter((q) => q.scope === 'user').map((t) => ({ user_id: userId, target: t.target, limit: t.limit(deps.config.quota), used: orgs.length }));
}

/** GET /api/org/quotas: the caller's organization's quotas (orgs.quotas:read). */
export async function getCurrentOrgQuotas(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await orgQuotas(deps, req.user!.orgId));
}

/** GET /api/orgs/:orgId/quotas: an organization's quotas (server admins). */
export async function getOrgQuotas(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const orgId = idParam(req, 'orgId');
  if (!(await deps.users.orgById(orgId))) throw new StatusError(404, 'NotFound', 'Organization not found');
  res.json(await orgQuotas(deps, orgId));
}

/** GET /api/user/quotas: the signed-in user's quotas. */
export async function getUserQuotas(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(await userQuotas(deps, req.user!.userId));
}

/** GET /api/admin/users/:id/quotas: a user's quotas (server admins). */
export async function adminGetUserQuotas(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = idParam(req, 'id');
  if (!(await deps.users.userById(id))) throw new StatusError(404, 'NotFound', 'user not found');
  res.json(await userQuotas(deps, id));
}
