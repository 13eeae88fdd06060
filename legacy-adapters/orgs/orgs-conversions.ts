import type { OrgAddress } from '../../apis/iam.svc.app/v0alpha1/org/org-schema';
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

/** `GET /api/org`, `GET /api/orgs/:orgId`, `GET /api/orgs/name/:name`: the anchor's OrgDetailsDTO. */
export interface OrgDetailsDTO {
  id: number;
  name: string;
  address: OrgAddress;
}

const NO_ADDRESS: OrgAddress = { address1: '', address2: '', city: '', zipCode: '', state: '', country: '' };

export function toOrgDetailsDTO(org: StoredOrg): OrgDetailsDTO {
  return { id: org.id, name: org.name, address: { ...NO_ADDRESS, ...org.address } };
}

export function fromOrgDetailsDTO(dto: OrgDetailsDTO): StoredOrg {
  return { id: dto.id, name: dto.name, address: dto.address };
}

/** The anchor's UpdateOrgAddressForm: its zip code is `zipcode`, where the DTO says `zipCode`. */
const ADDRESS_FORM: readonly [form: string, field: keyof OrgAddress][] = [
  ['address1', 'address1'], ['address2', 'address2'], ['city', 'city'], ['zipcode', 'zipCode'], ['state', 'state'], ['country', 'country'],
];

/**
 * The address an UpdateOrgAddressForm sets (each line given, the others emptied, as the anchor writes the whole
 * address); undefined when the body is no such form (a line that is no string).
 *
 * @example parseOrgAddressForm({ city: 'Oslo', zipcode: '0150' }) // { address1: '', …, city: 'Oslo', zipCode: '0150' }
 */
export function parseOrgAddressForm(body: unknown): OrgAddress | undefined {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return undefined;
  const out: OrgAddress = { ...NO_ADDRESS };
  for (const [form, field] of ADDRESS_FORM) {
    const v = b[form];
    if (v !== undefined && typeof v !== 'string') return undefined;
    out[field] = v ?? '';
  }
  return out;
}

export function toOrgAddressForm(a: OrgAddress): Record<string, string> {
  return Object.fromEntries(ADDRESS_FORM.map(([form, field]) => [form, a[field]]));
}

/** `GET /api/org/users/lookup`: the anchor's UserLookupDTO. */
export interface UserLookupDTO {
  userId: number;
  login: string;
  avatarUrl: string;
}

export function toUserLookupDTO(user: StoredUser): UserLookupDTO {
  return { userId: user.id, login: user.login, avatarUrl: avatarUrl(user.email) };
}
