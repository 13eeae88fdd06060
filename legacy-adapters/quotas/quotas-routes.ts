import type { Request, Response } from 'express';
import { z } from 'zod';
import { StatusError } from '../../pkg/errors';
import { QUOTA_TARGETS, type QuotaScope } from '../../pkg/quotas';
import { type AdapterDeps, bind, idParam } from '../shared';

/**
 * The anchor's UpdateQuotaCmd: `limit` (-1: none); `target` is the path's (a body's own is accepted and ignored, as
 * the anchor overwrites it).
 */
export const updateQuotaSchema = z.object({
  target: z.string().optional(),
  limit: z.number().int().min(-1).max(Number.MAX_SAFE_INTEGER),
});

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
  const stored = await deps.quotas.limits('org', orgId, deps.registry.namespaces.of(orgId));
  for (const t of QUOTA_TARGETS.filter((q) => q.scope === 'org')) {
    const registry = t.identity ? deps.users.registry : deps.registry;
    const used = t.kind ? await registry.count(t.kind, t.where?.(orgId) ?? { namespace: registry.namespaces.of(orgId) }) : 0;
    out.push({ org_id: orgId, target: t.target, limit: stored[t.target] ?? t.limit(deps.config.quota), used });
  }
  return out;
}

/** A user's quotas: the organizations it belongs to, against `quota.user_org`. */
async function userQuotas(deps: AdapterDeps, userId: number): Promise<UserQuotaDTO[]> {
  const orgs = await deps.users.orgsOf(userId);
  const stored = await deps.quotas.limits('user', userId);
  return QUOTA_TARGETS.filter((q) => q.scope === 'user').map((t) => ({ user_id: userId, target: t.target, limit: stored[t.target] ?? t.limit(deps.config.quota), used: orgs.length }));
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

/**
 * The body and target of a quota change, in the anchor's order: the body (400 "bad request data"), then 404 "Quotas
 * not enabled" while `quota.enabled` is false (a limit set then would be enforced by nothing). A target the scope
 * does not have is a 400 here (the anchor answers 500).
 */
function quotaChange(req: Request, deps: AdapterDeps, scope: QuotaScope): { target: string; limit: number } {
  const { limit } = bind(req, updateQuotaSchema);
  if (!deps.config.quota.enabled) throw new StatusError(404, 'NotFound', 'Quotas not enabled');
  const target = String(req.params.target);
  if (!QUOTA_TARGETS.some((t) => t.scope === scope && t.target === target)) throw new StatusError(400, 'BadRequest', 'Invalid quota target');
  return { target, limit };
}

/** PUT /api/orgs/:orgId/quotas/:target: sets an organization's limit of one target (server admins). */
export async function updateOrgQuota(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { target, limit } = quotaChange(req, deps, 'org');
  const orgId = idParam(req, 'orgId');
  if (!(await deps.users.orgById(orgId))) throw new StatusError(404, 'NotFound', 'Organization not found');
  await deps.quotas.set('org', orgId, deps.registry.namespaces.of(orgId), target, limit);
  res.json({ message: 'Organization quota updated' });
}

/** PUT /api/admin/users/:id/quotas/:target: sets a user's limit of one target (server admins). */
export async function adminUpdateUserQuota(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { target, limit } = quotaChange(req, deps, 'user');
  const id = idParam(req, 'id');
  if (!(await deps.users.userById(id))) throw new StatusError(404, 'NotFound', 'user not found');
  await deps.quotas.set('user', id, undefined, target, limit);
  res.json({ message: 'User quota updated' });
}
