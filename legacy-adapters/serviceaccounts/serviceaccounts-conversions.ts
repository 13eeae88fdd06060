import type { OrgRole } from '../../pkg/auth/authorization/permissions';
import { hasExpired, type StoredServiceAccount, type StoredToken } from '../../pkg/auth/identity/service-accounts';
import { avatarUrl } from '../users/users-conversions';

/** `GET /api/serviceaccounts/:id`, `POST /api/serviceaccounts` and the search items: the anchor's ServiceAccountDTO. */
export interface ServiceAccountDTO {
  id: number;
  uid: string;
  name: string;
  login: string;
  orgId: number;
  isDisabled: boolean;
  role: OrgRole;
  tokens: number;
  avatarUrl: string;
}

/** `PATCH /api/serviceaccounts/:id` answers its `serviceaccount` as ServiceAccountProfileDTO. */
export interface ServiceAccountProfileDTO {
  id: number;
  uid: string;
  name: string;
  login: string;
  orgId: number;
  isDisabled: boolean;
  createdAt: string;
  updatedAt: string;
  avatarUrl: string;
  role: OrgRole;
  teams: string[];
}

/** `GET /api/serviceaccounts/search`: SearchOrgServiceAccountsResult. */
export interface SearchOrgServiceAccountsResult {
  totalCount: number;
  serviceAccounts: ServiceAccountDTO[];
  page: number;
  perPage: number;
}

/** `GET /api/serviceaccounts/:id/tokens` items: TokenDTO. The key is never part of it. */
export interface TokenDTO {
  id: number;
  name: string;
  created: string;
  lastUsedAt: string | null;
  expiration: string | null;
  secondsUntilExpiration: number;
  hasExpired: boolean;
  isRevoked: boolean;
}

/** `POST /api/serviceaccounts/:id/tokens`: NewApiKeyResult, the only answer that holds the key. */
export interface NewApiKeyResult {
  id: number;
  name: string;
  key: string;
}

/** The anchor counts down only the last week before an expiry; further away it says 0. */
const COUNTDOWN_MS = 7 * 24 * 3600 * 1000;

/**
 * @example toServiceAccountDTO(sa, 2) // { id: 3, uid: 'k3…', name: 'CI', login: 'sa-1-ci', role: 'Editor', tokens: 2, … }
 */
export function toServiceAccountDTO(sa: StoredServiceAccount, tokens: number): ServiceAccountDTO {
  return { id: sa.id, uid: sa.uid, name: sa.name, login: sa.login, orgId: sa.orgId, isDisabled: sa.isDisabled, role: sa.role, tokens, avatarUrl: avatarUrl(sa.name) };
}

/** The stored service account a DTO shows (its timestamps are not in the DTO: `created` and `updated` are given). */
export function fromServiceAccountDTO(dto: ServiceAccountDTO, created: string, updated: string): StoredServiceAccount {
  return { id: dto.id, uid: dto.uid, orgId: dto.orgId, name: dto.name, login: dto.login, role: dto.role, isDisabled: dto.isDisabled, created, updated };
}

export function toServiceAccountProfileDTO(sa: StoredServiceAccount): ServiceAccountProfileDTO {
  return {
    id: sa.id,
    uid: sa.uid,
    name: sa.name,
    login: sa.login,
    orgId: sa.orgId,
    isDisabled: sa.isDisabled,
    createdAt: sa.created,
    updatedAt: sa.updated,
    avatarUrl: avatarUrl(sa.name),
    role: sa.role,
    teams: [],
  };
}

export function fromServiceAccountProfileDTO(dto: ServiceAccountProfileDTO): StoredServiceAccount {
  return { id: dto.id, uid: dto.uid, orgId: dto.orgId, name: dto.name, login: dto.login, role: dto.role, isDisabled: dto.isDisabled, created: dto.createdAt, updated: dto.updatedAt };
}

/**
 * @example toTokenDTO(token, Date.now()) // { id: 1, name: 'deploy', expiration: null, hasExpired: false, secondsUntilExpiration: 0, … }
 */
export function toTokenDTO(token: StoredToken, now = Date.now()): TokenDTO {
  const expired = hasExpired(token, now);
  const left = token.expires === null ? 0 : Date.parse(token.expires) - now;
  return {
    id: token.id,
    name: token.name,
    created: token.created,
    lastUsedAt: token.lastUsedAt,
    expiration: token.expires,
    secondsUntilExpiration: !expired && left < COUNTDOWN_MS ? left / 1000 : 0,
    hasExpired: expired,
    isRevoked: false,
  };
}

/** The stored token a DTO shows, for the service account `serviceAccountUid`. */
export function fromTokenDTO(dto: TokenDTO, serviceAccountUid: string): StoredToken {
  return { id: dto.id, name: dto.name, serviceAccountUid, created: dto.created, expires: dto.expiration, lastUsedAt: dto.lastUsedAt };
}
