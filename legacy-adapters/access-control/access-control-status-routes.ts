import type { Request, Response } from 'express';
import { requireAccess } from '../../pkg/auth/authorization/require-access';
import type { RoleDirectory } from '../../pkg/auth/authorization/role-directory';
import { StatusError } from '../../pkg/errors';
import type { AdapterDeps } from '../shared';

/** `GET /api/access-control/status` and the role-assignment debug search of the enterprise edition. */

/** `status:accesscontrol` on `services:accesscontrol`: fine-grained access control is always on here. */
export function getAccessControlStatus(_req: Request, res: Response): void {
  res.json({ enabled: true });
}

/** One row of the anchor's SearchResult: a permission a role gives, and to whom (or a member's basic role). */
export interface SearchResultItem {
  orgId: number;
  userId?: number;
  teamId?: number;
  roleName?: string;
  version?: number;
  action?: string;
  scope?: string;
  basicRole?: string;
}

/** The optional filters of the search body: who (`userId`, `teamId`) and what (`action`, `scope`, `roleName`). */
interface SearchFilters {
  userId?: number;
  teamId?: number;
  action?: string;
  scope?: string;
  roleName?: string;
}

function parseFilters(body: unknown): SearchFilters {
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw StatusError.badRequest('bad request data');
  const b = body as Record<string, unknown>;
  const out: SearchFilters = {};
  for (const k of ['userId', 'teamId'] as const) {
    if (b[k] === undefined) continue;
    if (!Number.isSafeInteger(b[k]) || (b[k] as number) < 1) throw StatusError.badRequest('bad request data');
    out[k] = b[k] as number;
  }
  for (const k of ['action', 'scope', 'roleName'] as const) {
    if (b[k] === undefined) continue;
    if (typeof b[k] !== 'string') throw StatusError.badRequest('bad request data');
    out[k] = b[k] as string;
  }
  return out;
}

const matches = (item: SearchResultItem, f: SearchFilters) =>
  (f.userId === undefined || item.userId === f.userId) &&
  (f.teamId === undefined || item.teamId === f.teamId) &&
  (f.action === undefined || item.action === f.action) &&
  (f.scope === undefined || item.scope === f.scope) &&
  (f.roleName === undefined || item.roleName === f.roleName);

/**
 * `POST /api/access-control/assignments/search`: who holds what in the caller's org, one row per permission of each
 * custom role assigned to a user or team, and one per member's basic role; narrowed by the body's filters.
 */
export async function searchRoleAssignments(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  if (!deps.roles) throw new StatusError(404, 'NotFound', 'Not found');
  await requireAccess(req, 'teams.roles:read', 'teams:*');
  await requireAccess(req, 'users.roles:read', 'users:*');
  const filters = parseFilters(req.body);
  const orgId = req.user!.orgId;
  const rows = [...(await customRoleRows(deps.roles, orgId)), ...(await deps.users.membersOf(orgId)).map((m) => ({ orgId, userId: m.userId, basicRole: m.role }))];
  res.json({ result: rows.filter((r) => matches(r, filters)) });
}

async function customRoleRows(roles: RoleDirectory, orgId: number): Promise<SearchResultItem[]> {
  const out: SearchResultItem[] = [];
  for (const role of await roles.listRoles(orgId)) {
    for (const subject of await roles.assignmentsOf(role)) {
      if (subject.kind === 'service-account') continue;
      const who = subject.kind === 'user' ? { userId: subject.id } : { teamId: subject.id };
      for (const p of role.permissions) out.push({ orgId, ...who, roleName: role.name, version: role.version, action: p.action, scope: p.scope });
    }
  }
  return out;
}
