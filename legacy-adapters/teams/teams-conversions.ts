import type { StoredUser } from '../../pkg/auth/identity/identity-directory';
import type { StoredTeam, StoredTeamMember, TeamFields, TeamPermission } from '../../pkg/auth/identity/team-directory';
import { avatarUrl } from '../users/users-conversions';

/** The anchor's team permission numbers: 0 Member, 4 Admin (1 and 2, Viewer and Editor, are never stored). */
const PERMISSION_NUMBER: Record<TeamPermission, number> = { Member: 0, Admin: 4 };

/** `GET /api/teams/:id`, the items of `GET /api/teams/search`: TeamDTO. */
export interface TeamDTO {
  id: number;
  uid: string;
  orgId: number;
  name: string;
  email: string;
  avatarUrl: string;
  memberCount: number;
  /** The caller's own permission in the team (0 when it is no member). */
  permission: number;
  /** With `?accesscontrol=true`: the team actions the caller holds on it. */
  accessControl?: Record<string, boolean>;
}

/** `GET /api/teams/search`: SearchTeamQueryResult. */
export interface SearchTeamQueryResult {
  totalCount: number;
  teams: TeamDTO[];
  page: number;
  perPage: number;
}

/** `GET /api/teams/:id/members`: TeamMemberDTO. */
export interface TeamMemberDTO {
  orgId: number;
  teamId: number;
  teamUID: string;
  userId: number;
  auth_module: string;
  email: string;
  name: string;
  login: string;
  avatarUrl: string;
  labels: string[];
  permission: number;
}

/**
 * The number of a team permission.
 *
 * @example
 *   teamPermissionNumber('Admin'); // 4
 */
export function teamPermissionNumber(p: TeamPermission | undefined): number {
  return p ? PERMISSION_NUMBER[p] : 0;
}

/**
 * The team permission of a legacy number (`UpdateTeamMemberCommand.permission`): 0 Member, 4 Admin, else undefined.
 *
 * @example
 *   parseTeamPermission(4); // 'Admin'
 *   parseTeamPermission(2); // undefined
 */
export function parseTeamPermission(n: unknown): TeamPermission | undefined {
  return (Object.keys(PERMISSION_NUMBER) as TeamPermission[]).find((p) => PERMISSION_NUMBER[p] === n);
}

/** The anchor's team avatar: of its email, or of its name when it has none. */
export function teamAvatarUrl(team: Pick<StoredTeam, 'email' | 'name'>): string {
  return avatarUrl(team.email || team.name);
}

export function toTeamDTO(team: StoredTeam, memberCount: number, permission?: TeamPermission): TeamDTO {
  return {
    id: team.id,
    uid: team.uid,
    orgId: team.orgId,
    name: team.name,
    email: team.email,
    avatarUrl: teamAvatarUrl(team),
    memberCount,
    permission: teamPermissionNumber(permission),
  };
}

/** The stored fields a TeamDTO carries (timestamps are not part of it). */
export function fromTeamDTO(dto: TeamDTO): Omit<StoredTeam, 'created' | 'updated'> {
  return { id: dto.id, uid: dto.uid, orgId: dto.orgId, name: dto.name, email: dto.email };
}

/**
 * The fields of `CreateTeamCommand` {name, email} and `UpdateTeamCommand` (the anchor binds `Name`/`Email` too),
 * or undefined when a field has the wrong type.
 */
export function fromTeamCommand(body: Record<string, unknown>): Partial<TeamFields> | undefined {
  const name = body.name ?? body.Name;
  const email = body.email ?? body.Email;
  if ((name !== undefined && typeof name !== 'string') || (email !== undefined && typeof email !== 'string')) return undefined;
  return { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
}

export function toTeamMemberDTO(member: StoredTeamMember, user: StoredUser): TeamMemberDTO {
  return {
    orgId: member.orgId,
    teamId: member.teamId,
    teamUID: member.teamUid,
    userId: user.id,
    auth_module: '',
    email: user.email,
    name: user.name,
    login: user.login,
    avatarUrl: avatarUrl(user.email),
    labels: [],
    permission: teamPermissionNumber(member.permission),
  };
}

/** The membership a listed member stands for. */
export function fromTeamMemberDTO(dto: TeamMemberDTO, userUid: string): StoredTeamMember {
  return { orgId: dto.orgId, teamId: dto.teamId, teamUid: dto.teamUID, userId: dto.userId, userUid, permission: parseTeamPermission(dto.permission) ?? 'Member' };
}

/**
 * `SetTeamMembershipsCommand` {members, admins} (lists of emails) as the permission each email is to have, admins
 * winning over members; undefined when a list is not a list of strings.
 *
 * @example
 *   fromSetTeamMembershipsCommand({ members: ['a@x', 'b@x'], admins: ['b@x'] }); // Map { 'a@x' => 'Member', 'b@x' => 'Admin' }
 */
export function fromSetTeamMembershipsCommand(body: Record<string, unknown>): Map<string, TeamPermission> | undefined {
  const list = (v: unknown) => (v === undefined || v === null ? [] : Array.isArray(v) && v.every((e) => typeof e === 'string') ? (v as string[]) : undefined);
  const [members, admins] = [list(body.members), list(body.admins)];
  if (!members || !admins) return undefined;
  const out = new Map<string, TeamPermission>();
  for (const email of members) out.set(email.trim(), 'Member');
  for (const email of admins) out.set(email.trim(), 'Admin');
  return out;
}

/** The command that gives a team these members. */
export function toSetTeamMembershipsCommand(wanted: ReadonlyMap<string, TeamPermission>): { members: string[]; admins: string[] } {
  const of = (p: TeamPermission) => [...wanted].filter(([, q]) => q === p).map(([email]) => email);
  return { members: of('Member'), admins: of('Admin') };
}
