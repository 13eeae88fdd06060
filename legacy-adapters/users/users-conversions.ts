import { createHash } from 'node:crypto';
import type { NewUser, StoredUser } from '../../pkg/auth/identity/identity-directory';
import { StatusError } from '../../pkg/errors';
import { positiveQueryInt } from '../shared/params';
import type { OrgRole } from '../../pkg/auth/authorization/permissions';

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

/** `GET /api/users/search` and `GET /api/users`: UserSearchHitDTO. */
export interface UserSearchHitDTO {
  id: number;
  uid: string;
  name: string;
  login: string;
  email: string;
  avatarUrl: string;
  isAdmin: boolean;
  isDisabled: boolean;
  lastSeenAt: string;
  lastSeenAtAge: string;
  authLabels: string[];
}

/** `GET /api/users/search`: SearchUserQueryResult. */
export interface SearchUserQueryResult {
  totalCount: number;
  users: UserSearchHitDTO[];
  page: number;
  perPage: number;
}

const MINUTE = 60_000;
const AGE_UNITS: [minutes: number, one: string, many: string][] = [
  [525_600, 'year', 'years'],
  [43_800, 'month', 'months'],
  [1_440, 'day', 'days'],
  [60, 'hour', 'hours'],
  [1, 'minute', 'minutes'],
];

/**
 * How long ago `at` was, in the anchor's words (its GetAgeString): the largest whole unit.
 *
 * @example
 *   ageString('2016-01-01T00:00:00Z', Date.parse('2026-06-01T00:00:00Z')); // '10 years'
 *   ageString(new Date().toISOString()); // '< 1 minute'
 */
export function ageString(at: string, now = Date.now()): string {
  const minutes = (now - Date.parse(at)) / MINUTE;
  for (const [size, one, many] of AGE_UNITS) {
    const n = Math.floor(minutes / size);
    if (n > 0) return `${n} ${n === 1 ? one : many}`;
  }
  return '< 1 minute';
}

/**
 * The anchor's "never seen" for a user that has not signed in: ten years before it was created, as the anchor
 * stores it for new users.
 */
export function neverSeen(created: string): string {
  const d = new Date(created);
  d.setUTCFullYear(d.getUTCFullYear() - 10);
  return `${d.toISOString().slice(0, 19)}Z`;
}

/**
 * A user's `lastSeenAt` and `lastSeenAtAge` as the anchor shows them (seconds, and {@link neverSeen} for a user never
 * active), from its recorded activity.
 *
 * @example lastSeenOf(user, undefined, now) // { lastSeenAt: '2016-01-02T03:04:05Z', lastSeenAtAge: '10 years' }
 */
export function lastSeenOf(user: StoredUser, lastSeenAt: string | undefined, now = Date.now()): { lastSeenAt: string; lastSeenAtAge: string } {
  const seen = lastSeenAt ? `${new Date(lastSeenAt).toISOString().slice(0, 19)}Z` : neverSeen(user.created);
  return { lastSeenAt: seen, lastSeenAtAge: ageString(seen, now) };
}

/** A user as a search hit; `lastSeenAt` is its latest activity, when it has been active. */
export function toUserSearchHitDTO(user: StoredUser, lastSeenAt: string | undefined, now = Date.now()): UserSearchHitDTO {
  return {
    id: user.id,
    uid: user.uid,
    name: user.name,
    login: user.login,
    email: user.email,
    avatarUrl: avatarUrl(user.email),
    isAdmin: user.isSvcAdmin,
    isDisabled: user.isDisabled,
    ...lastSeenOf(user, lastSeenAt, now),
    authLabels: [],
  };
}

/** Paging of `GET /api/users/search` and `GET /api/users`: `perpage` (default 1000) and 1-based `page`. */
export interface UserSearchQuery {
  query: string;
  page: number;
  perPage: number;
}

/**
 * Binds the search query string; unusable numbers fall back to the defaults, as the anchor's binding does.
 *
 * @example
 *   fromUserSearchQuery({ perpage: '10', page: '2', query: 'an' }); // { query: 'an', page: 2, perPage: 10 }
 */
export function fromUserSearchQuery(q: Record<string, unknown>): UserSearchQuery {
  return { query: typeof q.query === 'string' ? q.query.trim() : '', page: positiveQueryInt(q.page, 1), perPage: positiveQueryInt(q.perpage, 1000) };
}

/** `PUT /api/users/:id` and `PUT /api/user`: the anchor's UpdateUserCommand (`theme` is accepted and not stored, as there). */
export interface UpdateUserCommand {
  login?: string;
  email?: string;
  name?: string;
  theme?: string;
}

/**
 * The fields an UpdateUserCommand changes, trimmed: a blank login takes the email; blank fields keep their value, as
 * the anchor's update writes only the fields given. 400 when the body is no such command or names neither.
 *
 * @example parseUpdateUserCommand({ email: 'a@x.org' }) // { login: 'a@x.org', email: 'a@x.org' }
 */
export function parseUpdateUserCommand(body: unknown): { login: string; email?: string; name?: string } {
  const b = body as Record<string, unknown> | null;
  const fields = ['login', 'email', 'name', 'theme'] as const;
  if (!b || typeof b !== 'object' || Array.isArray(b) || fields.some((f) => b[f] !== undefined && typeof b[f] !== 'string')) {
    throw new StatusError(400, 'BadRequest', 'bad request data');
  }
  const [login, email, name] = [b.login, b.email, b.name].map((v) => ((v as string | undefined) ?? '').trim());
  if (!login && !email) throw new StatusError(400, 'BadRequest', 'Validation error, need to specify either username or email');
  return { login: login || email, ...(email ? { email } : {}), ...(name ? { name } : {}) };
}
