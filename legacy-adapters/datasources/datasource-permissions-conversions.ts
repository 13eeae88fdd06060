import { createHash } from 'node:crypto';
import type { Grantee, OrgRole, PermissionLevel } from '../../pkg/auth/authorization/permissions';
import { granteeKey } from '../../pkg/auth/authorization/grants';
import { StatusError } from '../../pkg/errors';
import { avatarUrl } from '../users/users-conversions';
import type { GranteeInfo } from '../shared/lookup-by-uid';

/** The anchor's numbers for data source permission levels. */
const NUMBER = { Query: 1, Edit: 2, Admin: 4 } as const;
const LEVEL: Record<number, 'Query' | 'Edit' | 'Admin'> = { 1: 'Query', 2: 'Edit', 4: 'Admin' };
const ROLES: readonly OrgRole[] = ['Viewer', 'Editor', 'Admin'];

/**
 * The id of a data source permission: one item per grantee, so a number derived from who it is for, stable across
 * reads and replicas (items are stored per data source, without ids of their own).
 *
 * @example permissionIdOf({ kind: 'role', role: 'Viewer' }); // the same number every time
 */
export function permissionIdOf(grantee: Grantee): number {
  return Number.parseInt(createHash('sha256').update(granteeKey(grantee)).digest('hex').slice(0, 7), 16) + 1;
}

/** Who an item is for, for display: a user's id, login and email; a team's id, name and email. */
export type Who = GranteeInfo;

/** One item of `GET /api/datasources/:id/permissions` (the anchor's DataSourcePermissionRuleDTO). */
export interface DataSourcePermissionDTO {
  id: number;
  datasourceId: number;
  userId: number;
  userLogin: string;
  userEmail: string;
  userAvatarUrl: string;
  teamId: number;
  team: string;
  teamEmail: string;
  teamAvatarUrl: string;
  builtInRole: string;
  permission: 1 | 2 | 4;
  permissionName: string;
  isManaged: boolean;
  created: string;
  updated: string;
}

export function toPermissionDTO(datasourceId: number, grantee: Grantee, level: PermissionLevel, who: Who, times: { created: string; updated: string }): DataSourcePermissionDTO {
  const user = who && 'userId' in who ? who : undefined;
  const team = who && 'teamId' in who ? who : undefined;
  const known = level === 'Query' || level === 'Edit' || level === 'Admin' ? level : 'Query';
  return {
    id: permissionIdOf(grantee),
    datasourceId,
    userId: user?.userId ?? 0,
    userLogin: user?.login ?? '',
    userEmail: user?.email ?? '',
    userAvatarUrl: user ? avatarUrl(user.email) : '',
    teamId: team?.teamId ?? 0,
    team: team?.name ?? '',
    teamEmail: team?.email ?? '',
    teamAvatarUrl: team ? avatarUrl(team.email || team.name) : '',
    builtInRole: grantee.kind === 'role' ? grantee.role : '',
    permission: NUMBER[known],
    permissionName: known,
    isManaged: true,
    ...times,
  };
}

/** What `POST /api/datasources/:id/permissions` adds: one grantee and a level. */
export type AddPermission = ({ userId: number } | { teamId: number } | { builtinRole: OrgRole }) & { permission: 'Query' | 'Edit' | 'Admin' };

const bad = (message: string) => StatusError.badRequest(message);
const int = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : undefined);

/**
 * The anchor's add-permission command, from the JSON body or (as its OpenAPI document says) the query string:
 * exactly one of `userId`, `teamId`, `builtinRole`, and `permission` 1 (Query), 2 (Edit) or 4 (Admin).
 *
 * @example parseAddPermission({ userId: 3, permission: 1 }); // { userId: 3, permission: 'Query' }
 */
export function parseAddPermission(fields: Record<string, unknown>): AddPermission {
  const level = LEVEL[int(fields.permission) ?? 0];
  if (!level) throw bad('permission must be 1 (Query), 2 (Edit) or 4 (Admin)');
  const userId = int(fields.userId) ?? 0;
  const teamId = int(fields.teamId) ?? 0;
  const role = fields.builtinRole ?? fields.builtInRole;
  const given = [userId > 0, teamId > 0, typeof role === 'string' && role !== ''].filter(Boolean).length;
  if (given !== 1) throw bad('exactly one of userId, teamId and builtinRole is required');
  if (userId > 0) return { userId, permission: level };
  if (teamId > 0) return { teamId, permission: level };
  if (!ROLES.includes(role as OrgRole)) throw bad('builtinRole must be Viewer, Editor or Admin');
  return { builtinRole: role as OrgRole, permission: level };
}
