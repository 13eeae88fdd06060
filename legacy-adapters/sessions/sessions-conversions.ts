import type { AuthTokenRecord } from '../../pkg/auth/authentication/sessions';
import { parseUserAgent } from '../../pkg/auth/authentication/user-agent';

/**
 * `GET /api/user/auth-tokens`, `GET /api/admin/users/:id/auth-tokens`: the anchor's UserToken DTO (spec §2.14),
 * the device read from the User-Agent the session was created with. `isActive` marks the session of the request.
 */
export interface UserTokenDTO {
  id: number;
  isActive: boolean;
  clientIp: string;
  browser: string;
  browserVersion: string;
  os: string;
  osVersion: string;
  device: string;
  createdAt: string;
  seenAt: string;
}

/** RFC 3339 with second precision, as the anchor writes these times (from Unix seconds). */
const seconds = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}Z`;

/**
 * A stored session as the anchor shows it.
 *
 * @example
 *   toUserTokenDTO(record, req.user.authTokenId);
 *   // { id: 3, isActive: true, clientIp: '192.0.2.1', browser: 'Chrome', browserVersion: '120.0', os: 'Mac OS X', ... }
 */
export function toUserTokenDTO(record: AuthTokenRecord, activeId: number | undefined): UserTokenDTO {
  const ua = parseUserAgent(record.userAgent);
  return {
    id: record.id,
    isActive: record.id === activeId,
    clientIp: record.clientIp,
    browser: ua.browser,
    browserVersion: ua.browserVersion,
    os: ua.os,
    osVersion: ua.osVersion,
    device: ua.device,
    createdAt: seconds(record.createdAt),
    seenAt: seconds(record.seenAt),
  };
}

/** `POST /api/user/revoke-auth-token`, `POST /api/admin/users/:id/revoke-auth-token`: RevokeAuthTokenCmd. */
export interface RevokeAuthTokenCmd {
  authTokenId: number;
}

/**
 * Binds a revoke body: undefined when it is not an object or its `authTokenId` is not an integer (400 "bad request
 * data"); a missing `authTokenId` binds as 0, which names no session (404), as the anchor's binding does.
 *
 * @example
 *   fromRevokeAuthTokenBody({ authTokenId: 3 }); // { authTokenId: 3 }
 *   fromRevokeAuthTokenBody({ authTokenId: '3' }); // undefined
 */
export function fromRevokeAuthTokenBody(body: unknown): RevokeAuthTokenCmd | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const id = (body as Record<string, unknown>).authTokenId ?? 0;
  return typeof id === 'number' && Number.isSafeInteger(id) ? { authTokenId: id } : undefined;
}

/** `POST /login`: the anchor's LoginCommand (`user` is a login or an email). */
export interface LoginCommand {
  user: string;
  password: string;
}

/**
 * Binds a login body: undefined when it is not an object or a field is not a string (400 "bad login data");
 * missing fields bind as '' (a failed login, 401).
 *
 * @example
 *   fromLoginBody({ user: 'ana', password: 's3cret' }); // { user: 'ana', password: 's3cret' }
 */
export function fromLoginBody(body: unknown): LoginCommand | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { user = '', password = '' } = body as Record<string, unknown>;
  return typeof user === 'string' && typeof password === 'string' ? { user, password } : undefined;
}
