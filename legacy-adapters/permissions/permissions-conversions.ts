import { dashboardUrl, slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import type { Grantee, OrgRole, PermissionLevel } from '../../pkg/auth/authorization/permissions';
import { StatusError } from '../../pkg/errors';
import { avatarUrl } from '../users/users-conversions';
import type { GranteeInfo } from '../shared/lookup-by-uid';

/** The anchor's numbers for permission levels (`PermissionType`). */
export const PERMISSION_NUMBER: Record<PermissionLevel, 1 | 2 | 4> = { View: 1, Query: 1, Edit: 2, Admin: 4 };
const LEVEL_OF: Record<number, PermissionLevel> = { 1: 'View', 2: 'Edit', 4: 'Admin' };
const ROLES: readonly OrgRole[] = ['None', 'Viewer', 'Editor', 'Admin'];

/** One item of `POST .../permissions`, checked: exactly one grantee. */
export type AclUpdateItem =
  | { role: OrgRole; permission: PermissionLevel }
  | { userId: number; permission: PermissionLevel }
  | { teamId: number; permission: PermissionLevel };

const bad = (message: string) => StatusError.badRequest(message);
const positiveInt = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/**
 * The body of `POST /api/folders/:uid/permissions` and `/api/dashboards/uid/:uid/permissions` (the anchor's
 * UpdateDashboardACLCommand): `{items: [{role | userId | teamId, permission: 1 | 2 | 4}]}`, which replaces every item.
 * @throws StatusError 400 with the anchor's messages for a body it cannot read or an item naming two grantees.
 *
 * @example
 *   parseAclUpdate({ items: [{ role: 'Viewer', permission: 1 }, { userId: 2, permission: 4 }] });
 *   // [{ role: 'Viewer', permission: 'View' }, { userId: 2, permission: 'Admin' }]
 */
export function parseAclUpdate(body: unknown): AclUpdateItem[] {
  const items = (body as { items?: unknown } | null)?.items;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || (items !== undefined && items !== null && !Array.isArray(items))) throw bad('bad request data');
  return ((items ?? []) as unknown[]).map((raw): AclUpdateItem => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('bad request data');
    const { role, userId, teamId, permission } = raw as Record<string, unknown>;
    const level = typeof permission === 'number' ? LEVEL_OF[permission] : undefined;
    if (!level) throw bad('permission must be 1 (View), 2 (Edit) or 4 (Admin)');
    const hasUser = userId !== undefined && userId !== null && userId !== 0;
    const hasTeam = teamId !== undefined && teamId !== null && teamId !== 0;
    const hasRole = role !== undefined && role !== null && role !== '';
    if (hasUser && hasTeam) throw bad('permission setting for user and team together is not allowed');
    if ((hasUser || hasTeam) && hasRole) throw bad('permission setting for role and (user or team) together is not allowed');
    if (hasRole) {
      if (typeof role !== 'string' || !ROLES.includes(role as OrgRole)) throw bad('bad request data');
      return { role: role as OrgRole, permission: level };
    }
    if (hasUser) {
      if (!positiveInt(userId)) throw bad('bad request data');
      return { userId: userId as number, permission: level };
    }
    if (hasTeam) {
      if (!positiveInt(teamId)) throw bad('bad request data');
      return { teamId: teamId as number, permission: level };
    }
    throw bad('user id and team id cannot both be empty for a dashboard permission');
  });
}

/** The folder or dashboard a permission list is about. */
export interface AclTarget {
  isFolder: boolean;
  uid: string;
  title: string;
  /** Its deprecated numeric id. */
  id: number;
  created: string;
  updated: string;
}

/** Who a stored grantee is, for display: a user's id, login and email; a team's id, name and email. */
export type { GranteeInfo };

/** One row of `GET .../permissions` (the anchor's DashboardACLInfoDTO). */
export interface AclInfoDTO {
  dashboardId: number;
  folderId: number;
  created: string;
  updated: string;
  userId: number;
  userUid: string;
  userLogin: string;
  userEmail: string;
  userAvatarUrl: string;
  teamId: number;
  teamUid: string;
  team: string;
  teamEmail: string;
  teamAvatarUrl: string;
  role?: OrgRole;
  permission: 1 | 2 | 4;
  permissionName: PermissionLevel;
  uid: string;
  title: string;
  slug: string;
  isFolder: boolean;
  url: string;
  inherited: boolean;
}

/**
 * One stored item as the anchor lists it. `on` is the object the item is stored on (a parent folder for inherited
 * items), `target` the object whose list it is.
 *
 * @example
 *   toAclInfoDTO({ kind: 'role', role: 'Viewer' }, 'View', undefined, target, target).permissionName; // 'View'
 */
export function toAclInfoDTO(grantee: Grantee, level: PermissionLevel, who: GranteeInfo, on: AclTarget, target: AclTarget): AclInfoDTO {
  const user = who && 'userId' in who ? who : undefined;
  const team = who && 'teamId' in who ? who : undefined;
  return {
    dashboardId: target.isFolder ? 0 : target.id,
    folderId: on.isFolder ? on.id : 0,
    created: on.created,
    updated: on.updated,
    userId: user?.userId ?? 0,
    userUid: grantee.kind === 'user' ? grantee.uid : '',
    userLogin: user?.login ?? '',
    userEmail: user?.email ?? '',
    userAvatarUrl: user ? avatarUrl(user.email) : '',
    teamId: team?.teamId ?? 0,
    teamUid: grantee.kind === 'team' ? grantee.uid : '',
    team: team?.name ?? '',
    teamEmail: team?.email ?? '',
    teamAvatarUrl: team ? avatarUrl(team.email || team.name) : '',
    ...(grantee.kind === 'role' ? { role: grantee.role } : {}),
    permission: PERMISSION_NUMBER[level],
    permissionName: level,
    uid: on.uid,
    title: on.title,
    slug: slugify(on.title),
    isFolder: on.isFolder,
    url: on.isFolder ? `/dashboards/f/${on.uid}/${slugify(on.title)}` : dashboardUrl(on.uid, on.title),
    inherited: on.uid !== target.uid || on.isFolder !== target.isFolder,
  };
}
