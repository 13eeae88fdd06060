import { createHash } from 'node:crypto';
import type { NewUser, StoredUser } from '../../pkg/auth/identity-directory';
import type { OrgRole } from '../../pkg/auth/permissions';

/** `GET /api/user`: the anchor's UserProfileDTO, with its server-admin flag named `isSvcAdmin`. */
export interface UserProfileDTO {
  id: number;
  uid: string;
  email: string;
  name: string;
  login: string;
  theme: string;
  orgId: number;
  isSvcAdmin: boolean;
  isDisabled: boolean;
  isExternal: boolean;
  authLabels: string[];
  updatedAt: string;
  createdAt: string;
  avatarUrl: string;
}

/** `GET /api/user/orgs`: UserOrgDTO. */
export interface UserOrgDTO {
  orgId: number;
  name: string;
  role: OrgRole;
}

/** `POST /api/admin/users`: AdminCreateUserForm. */
export interface AdminCreateUserForm {
  login?: string;
  email?: string;
  name?: string;
  password: string;
  orgId?: number;
}

/** The anchor's avatar path: gravatar's hash of the lower-cased email, served by the server itself. */
export function avatarUrl(email: string): string {
  return `/avatar/${createHash('md5').update(email.trim().toLowerCase()).digest('hex')}`;
}

export function toUserProfileDTO(user: StoredUser, orgId: number): UserProfileDTO {
  return {
    id: user.id,
    uid: user.uid,
    email: user.email,
    name: user.name,
    login: user.login,
    theme: '',
    orgId,
    isSvcAdmin: user.isSvcAdmin,
    isDisabled: user.isDisabled,
    isExternal: false,
    authLabels: [],
    updatedAt: user.updated,
    createdAt: user.created,
    avatarUrl: avatarUrl(user.email),
  };
}

/** The stored user a profile describes (its current org is the profile's `orgId`). */
export function fromUserProfileDTO(dto: UserProfileDTO): StoredUser {
  return {
    id: dto.id,
    uid: dto.uid,
    login: dto.login,
    email: dto.email,
    name: dto.name,
    isSvcAdmin: dto.isSvcAdmin,
    isDisabled: dto.isDisabled,
    orgId: dto.orgId,
    created: dto.createdAt,
    updated: dto.updatedAt,
  };
}

export function toUserOrgDTO(m: { org: { id: number; name: string }; role: OrgRole }): UserOrgDTO {
  return { orgId: m.org.id, name: m.org.name, role: m.role };
}

export function fromUserOrgDTO(dto: UserOrgDTO): { org: { id: number; name: string }; role: OrgRole } {
  return { org: { id: dto.orgId, name: dto.name }, role: dto.role };
}

/** The new user an admin form asks for; `orgId` defaults to 1, where new users join as Viewer. */
export function fromAdminCreateUserForm(form: AdminCreateUserForm): NewUser {
  return { login: form.login ?? '', email: form.email ?? '', name: form.name ?? '', password: form.password, orgId: form.orgId ?? 1 };
}

export function toAdminCreateUserForm(u: NewUser): AdminCreateUserForm {
  return { login: u.login, email: u.email, name: u.name, password: u.password, orgId: u.orgId };
}

/** `GET /api/user` of an anonymous visitor: no stored user, so the anchor's profile of the identity alone. */
export function toAnonymousProfileDTO(identity: { identity: string; orgId: number }): UserProfileDTO {
  const zero = '0001-01-01T00:00:00Z';
  return {
    id: 0, uid: identity.identity, email: '', name: 'Anonymous', login: '', theme: '', orgId: identity.orgId, isSvcAdmin: false,
    isDisabled: false, isExternal: false, authLabels: [], updatedAt: zero, createdAt: zero, avatarUrl: '',
  };
}
