import type { StoredOrg, StoredUser } from '../../pkg/auth/identity/identity-directory';
import type { OrgRole } from '../../pkg/auth/authorization/permissions';
import { avatarUrl, lastSeenOf } from '../users/users-conversions';

/** `GET /api/orgs`: OrgDTO. */
export interface OrgDTO {
  id: number;
  name: string;
}

/** `GET /api/org/users`: OrgUserDTO. */
export interface OrgUserDTO {
  orgId: number;
  userId: number;
  uid: string;
  email: string;
  name: string;
  login: string;
  role: OrgRole;
  avatarUrl: string;
  isDisabled: boolean;
  lastSeenAt: string;
  lastSeenAtAge: string;
  authLabels: string[];
}

export const ORG_ROLES: readonly OrgRole[] = ['Viewer', 'Editor', 'Admin', 'None'];

export function toOrgDTO(org: StoredOrg): OrgDTO {
  return { id: org.id, name: org.name };
}

export function fromOrgDTO(dto: OrgDTO): StoredOrg {
  return { id: dto.id, name: dto.name };
}

/** The member as the anchor lists it; `lastSeenAt` is the user's latest activity, when it has been active. */
export function toOrgUserDTO(orgId: number, user: StoredUser, role: OrgRole, lastSeenAt?: string, now = Date.now()): OrgUserDTO {
  return {
    orgId,
    userId: user.id,
    uid: user.uid,
    email: user.email,
    name: user.name,
    login: user.login,
    role,
    avatarUrl: avatarUrl(user.email),
    isDisabled: user.isDisabled,
    ...lastSeenOf(user, lastSeenAt, now),
    authLabels: [],
  };
}

/** The membership a listed member stands for. */
export function fromOrgUserDTO(dto: OrgUserDTO): { orgId: number; userId: number; role: OrgRole } {
  return { orgId: dto.orgId, userId: dto.userId, role: dto.role };
}

/** A role of a legacy body (`role` of AddOrgUserCommand, UpdateOrgUserCommand), or undefined when it is none. */
export function parseRole(v: unknown): OrgRole | undefined {
  return typeof v === 'string' && (ORG_ROLES as readonly string[]).includes(v) ? (v as OrgRole) : undefined;
}
