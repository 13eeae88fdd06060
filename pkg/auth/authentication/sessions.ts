import { authTokenKind } from '../../../apis';
import type { AuthTokenSpec } from '../../../apis/iam.svc.app/v0alpha1/authtoken';
import { StatusError } from '../../errors';
import { Labels, type Resource } from '../../meta';
import type { Registry, Requester, RequestContext } from '../../registry';
import { IDENTITY_NAMESPACE, SYSTEM } from '../identity/identity-directory';
import { generateSessionToken, hashToken } from '../identity/tokens';

const USER_LABEL = 'svc.app/user-id';
/** Finds the sessions an identity provider's single logout names: a digest of the module and NameID. */
const EXTERNAL_LABEL = 'svc.app/external-session';
const externalKey = (authModule: string, nameID: string) => hashToken(`${authModule}\n${nameID}`).slice(0, 40);
/** A session secret as generateSessionToken writes it: anything else is refused before any lookup. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The object name of a session: its secret's SHA-256, cut to the 40 characters object names may have (160 bits:
 * no secret can be found from it, and no two sessions share one).
 */
export const sessionName = (token: string) => hashToken(token).slice(0, 40);

/** One login session as the API shows it (spec §2.14), before its User-Agent is parsed. */
export interface AuthTokenRecord {
  /** The numeric `authTokenId`. */
  id: number;
  userId: number;
  clientIp: string;
  userAgent: string;
  createdAt: string;
  seenAt: string;
  /** The identity provider's session a SAML login started this one from (single logout ends both). */
  external?: ExternalSession;
}

/**
 * The session of an external identity provider behind a login session (the anchor's user_external_session): what a
 * SAML LogoutRequest names it by.
 */
export interface ExternalSession {
  authModule: 'saml';
  nameID: string;
  nameIDFormat?: string;
  sessionIndex?: string;
}

export interface SessionOptions {
  /** A session ends this long after it was created, however active. The anchor's default: 30 days. */
  maxLifetimeMs: number;
  /** A session ends when unused this long. The anchor's default: 7 days. */
  maxInactiveMs: number;
  /** `seenAt` is written at most this often. Default one minute, or half the inactive lifetime when that is shorter. */
  seenIntervalMs?: number;
  now?: () => number;
}

function toRecord(obj: Resource<AuthTokenSpec>): AuthTokenRecord {
  const s = obj.spec;
  return {
    id: Number(obj.metadata.labels?.[Labels.deprecatedInternalID]),
    userId: s.userId,
    clientIp: s.clientIp,
    userAgent: s.userAgent,
    createdAt: s.createdAt,
    seenAt: s.seenAt,
    ...(s.external ? { external: s.external as ExternalSession } : {}),
  };
}

/**
 * Login sessions, stored as AuthToken objects named by a digest of their secret ({@link sessionName}): the secret lives only in the
 * client's cookie. Every request reads its session (no cache), so a revoked session is refused at once on every
 * replica. An expired session (past its maximum lifetime, or inactive too long) is deleted when next presented.
 *
 * @example
 *   const sessions = new SessionStore(users.registry, { maxLifetimeMs: 30 * DAY, maxInactiveMs: 7 * DAY });
 *   const { token } = await sessions.create(user.id, req.ip, req.get('user-agent'));
 *   const record = await sessions.lookup(token); // undefined once revoked or expired
 */
export class SessionStore {
  private readonly now: () => number;
  private readonly seenIntervalMs: number;

  constructor(
    private readonly registry: Registry,
    private readonly options: SessionOptions,
  ) {
    this.now = options.now ?? Date.now;
    // A session in use must be seen again before it counts as inactive.
    this.seenIntervalMs = options.seenIntervalMs ?? Math.min(60_000, options.maxInactiveMs / 2);
  }

  private ctx(by: Requester = SYSTEM): RequestContext {
    return { requester: by, namespace: IDENTITY_NAMESPACE, fieldManager: 'svc-sessions' };
  }

  /**
   * Starts a session for the user; `token` goes into the cookie and is not kept. `external`: the identity provider's
   * session it comes from (a SAML login), so that the provider's single logout can end it.
   */
  async create(userId: number, clientIp: string, userAgent: string | undefined, by: Requester = SYSTEM, external?: ExternalSession): Promise<{ token: string; record: AuthTokenRecord }> {
    const { token } = generateSessionToken();
    const at = new Date(this.now()).toISOString();
    const spec: AuthTokenSpec = { userId, clientIp, userAgent: userAgent ?? '', createdAt: at, seenAt: at, ...(external ? { external } : {}) };
    const labels: Record<string, string> = { [USER_LABEL]: String(userId), ...(external ? { [EXTERNAL_LABEL]: externalKey(external.authModule, external.nameID) } : {}) };
    const obj = await this.registry.create(this.ctx(by), authTokenKind, { metadata: { name: sessionName(token), labels }, spec });
    return { token, record: toRecord(obj) };
  }

  /**
   * Ends the sessions an identity provider's logout names: those of its NameID, only the one of `sessionIndex` when
   * given. Returns how many ended.
   */
  async endExternal(authModule: ExternalSession['authModule'], nameID: string, sessionIndex?: string): Promise<number> {
    const list = await this.registry.list(this.ctx(), authTokenKind, { labelSelector: `${EXTERNAL_LABEL}=${externalKey(authModule, nameID)}` });
    let ended = 0;
    for (const obj of list.items) {
      const external = toRecord(obj).external;
      if (external?.nameID !== nameID || (sessionIndex !== undefined && external.sessionIndex !== sessionIndex)) continue;
      if (await this.remove(obj.metadata.name)) ended++;
    }
    return ended;
  }

  /** The session of a cookie value as stored, whether or not expired (logout reads its external session); else undefined. */
  async peek(token: string): Promise<AuthTokenRecord | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const obj = await this.getOrUndefined(sessionName(token));
    return obj && toRecord(obj);
  }

  /** The live session of a cookie value, its `seenAt` refreshed when older than a minute; else undefined. */
  async lookup(token: string): Promise<AuthTokenRecord | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    const name = sessionName(token);
    const obj = await this.getOrUndefined(name);
    if (!obj) return undefined;
    const record = toRecord(obj);
    const now = this.now();
    if (this.expired(record, now)) {
      await this.remove(name);
      return undefined;
    }
    if (now - Date.parse(record.seenAt) < this.seenIntervalMs) return record;
    const seenAt = new Date(now).toISOString();
    // A session revoked meanwhile stays revoked: the write fails with 404 and the request is refused.
    try {
      await this.registry.patch(this.ctx(), authTokenKind, name, (cur) => ({ ...cur, spec: { ...cur.spec, seenAt } }));
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
    return { ...record, seenAt };
  }

  private expired(record: AuthTokenRecord, now: number): boolean {
    return now - Date.parse(record.createdAt) >= this.options.maxLifetimeMs || now - Date.parse(record.seenAt) >= this.options.maxInactiveMs;
  }

  /** The user's live sessions, oldest first; expired ones are not shown (they end when next presented). */
  async listOf(userId: number): Promise<AuthTokenRecord[]> {
    const now = this.now();
    return (await this.objectsOf(userId)).map(toRecord).filter((r) => !this.expired(r, now)).sort((a, b) => a.id - b.id);
  }

  /** Ends one of the user's sessions by its id; false when the user has no such session. */
  async revoke(by: Requester, userId: number, id: number): Promise<boolean> {
    const obj = (await this.objectsOf(userId)).find((o) => toRecord(o).id === id);
    if (!obj) return false;
    return this.remove(obj.metadata.name, by);
  }

  /** Ends every session of the user (admin logout, and a deleted user's sessions). */
  async revokeAll(by: Requester, userId: number): Promise<void> {
    await this.registry.deleteCollection(this.ctx(by), authTokenKind, { labelSelector: `${USER_LABEL}=${userId}` });
  }

  /** Ends the session of a cookie value (logout); nothing when it is unknown. */
  async end(token: string, by: Requester = SYSTEM): Promise<void> {
    if (TOKEN_SHAPE.test(token)) await this.remove(sessionName(token), by);
  }

  private async objectsOf(userId: number): Promise<Resource<AuthTokenSpec>[]> {
    return (await this.registry.list(this.ctx(), authTokenKind, { labelSelector: `${USER_LABEL}=${userId}` })).items;
  }

  private async getOrUndefined(name: string): Promise<Resource<AuthTokenSpec> | undefined> {
    try {
      return await this.registry.get(this.ctx(), authTokenKind, name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }

  /** Deletes a session; false when it was already gone (revoked by another request or replica). */
  private async remove(name: string, by: Requester = SYSTEM): Promise<boolean> {
    try {
      await this.registry.delete(this.ctx(by), authTokenKind, name);
      return true;
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return false;
      throw err;
    }
  }
}
