import { createHash } from 'node:crypto';
import { serviceAccountKind, serviceAccountTokenKind } from '../../../apis';
import { slugify } from '../../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import type { ServiceAccountSpec } from '../../../apis/iam.svc.app/v0alpha1/serviceaccount';
import { type ServiceAccountTokenSpec, TOKEN_LABELS } from '../../../apis/iam.svc.app/v0alpha1/serviceaccounttoken';
import { derived, type Storage } from '../../../storage';
import { notFoundAsUndefined, StatusError } from '../../errors';
import { Annotations, Labels, randomUid, type Resource, rfc3339, secondsAfter, storedAs } from '../../meta';
import type { Registry, Requester, RequestContext } from '../../registry';
import type { Identity } from './caller';
import { IDENTITY_NAMESPACE, SYSTEM } from './identity-directory';
import type { OrgRole } from '../../../apis/iam.svc.app/v0alpha1/orgmember';
import { generateServiceAccountToken, parseServiceAccountToken } from './tokens';

/** A token's service account (its uid) and organization, and its name: the token lists and the name check. */
const { serviceAccount: SERVICE_ACCOUNT, orgId: ORG_ID } = TOKEN_LABELS;

/** How stale `lastUsedAt` may get before a request writes it again: one write per token per minute at most. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Digests of presented keys kept in memory (see ServiceAccounts.digests). */
const MAX_KEYS = 10_000;

export interface StoredServiceAccount {
  /** The legacy numeric id. */
  id: number;
  uid: string;
  orgId: number;
  name: string;
  login: string;
  role: OrgRole;
  isDisabled: boolean;
  created: string;
  updated: string;
}

export interface StoredToken {
  id: number;
  name: string;
  serviceAccountUid: string;
  created: string;
  /** RFC 3339, or null: never expires. */
  expires: string | null;
  lastUsedAt: string | null;
}

export interface ServiceAccountChange {
  name?: string;
  role?: OrgRole;
  isDisabled?: boolean;
}

export const serviceAccountNotFound = () => new StatusError(404, 'NotFound', 'service account not found');
export const tokenNotFound = () => new StatusError(404, 'NotFound', 'service account token not found');

/**
 * The anchor's login of a service account: `sa-<orgId>-<slug of its name>` (a name with no letter or digit gets a
 * digest instead of an empty slug).
 *
 * @example serviceAccountLogin(1, 'CI Bot') // 'sa-1-ci-bot'
 */
export function serviceAccountLogin(orgId: number, name: string): string {
  const slug = slugify(name) || createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `sa-${orgId}-${slug}`;
}

const internalId = (obj: Resource) => Number(obj.metadata.labels?.[Labels.deprecatedInternalID]);
const byInternalId = (id: number) => `${Labels.deprecatedInternalID}=${id}`;

function toServiceAccount(obj: Resource<ServiceAccountSpec>, orgId: number): StoredServiceAccount {
  const s = obj.spec;
  return {
    id: internalId(obj),
    uid: obj.metadata.name,
    orgId,
    name: s.title,
    login: s.login,
    role: s.role,
    isDisabled: s.isDisabled,
    created: obj.metadata.creationTimestamp!,
    updated: obj.metadata.annotations?.[Annotations.updatedTimestamp] ?? obj.metadata.creationTimestamp!,
  };
}

function toToken(obj: Resource<ServiceAccountTokenSpec>): StoredToken {
  const s = obj.spec;
  return { id: internalId(obj), name: s.title, serviceAccountUid: s.serviceAccountUid, created: obj.metadata.creationTimestamp!, expires: s.expires, lastUsedAt: s.lastUsedAt };
}

/** Whether a token's expiry has passed. @example hasExpired({ expires: null }) // false */
export function hasExpired(token: Pick<StoredToken, 'expires'>, now = Date.now()): boolean {
  return token.expires !== null && Date.parse(token.expires) <= now;
}

/**
 * Service accounts (one org, one role, never a server admin) and their tokens, stored as identity kinds through
 * the identity registry with the caller's identity. A token's key is returned once, by {@link addToken}; only its
 * SHA-256 is stored, as the token object's name (first 40 hex digits) and in its spec, so {@link authenticate}
 * finds a presented key with one read.
 *
 * @example
 *   const accounts = new ServiceAccounts(users.registry, storage);
 *   const sa = await accounts.create(by, 1, { name: 'CI', role: 'Editor' });
 *   const { key } = await accounts.addToken(by, sa, { name: 'deploy' });
 *   await accounts.authenticate(key); // { identity: `service-account:${sa.uid}`, orgId: 1, orgRole: 'Editor', … }
 */
export class ServiceAccounts {
  /**
   * The digests of keys presented lately (a key's checksum and SHA-256 are worked out once, not at each request):
   * a pure function of the key, so nothing here can be stale. Bounded: past MAX_KEYS it starts again empty.
   */
  private readonly digests = new Map<string, string>();

  constructor(
    private readonly registry: Registry,
    private readonly storage: Storage,
  ) {}

  private ctx(by: Requester, namespace: string): RequestContext {
    return { requester: by, namespace, fieldManager: 'svc-identity' };
  }

  // Service accounts

  async byId(orgId: number, id: number): Promise<StoredServiceAccount | undefined> {
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    const list = await this.registry.list(this.ctx(SYSTEM, this.registry.namespaces.of(orgId)), serviceAccountKind, { labelSelector: byInternalId(id), limit: 1 });
    const obj = list.items[0];
    return obj && toServiceAccount(obj, orgId);
  }

  async byUid(orgId: number, uid: string): Promise<StoredServiceAccount | undefined> {
    try {
      return toServiceAccount(await this.registry.get(this.ctx(SYSTEM, this.registry.namespaces.of(orgId)), serviceAccountKind, uid), orgId);
    } catch (err) {
      notFoundAsUndefined(err);
      return undefined;
    }
  }

  /** The org's service accounts, by name. */
  async list(orgId: number): Promise<StoredServiceAccount[]> {
    const list = await this.registry.list(this.ctx(SYSTEM, this.registry.namespaces.of(orgId)), serviceAccountKind, {});
    return list.items.map((o) => toServiceAccount(o, orgId)).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  }

  /**
   * One page of the org's service accounts whose name or login holds `query` (any case), only disabled ones with
   * `disabled`, only those with an expired token with `expiredTokens`; by name, with how many match in all, paged by
   * the database.
   */
  async search(orgId: number, q: { query: string; disabled: boolean; expiredTokens: boolean; offset: number; limit: number }): Promise<{ accounts: StoredServiceAccount[]; totalCount: number }> {
    const expired = q.expiredTokens ? [...new Set((await this.tokens(orgId)).filter((t) => hasExpired(t)).map((t) => t.serviceAccountUid))] : undefined;
    const page = await this.registry.page(this.ctx(SYSTEM, this.registry.namespaces.of(orgId)), serviceAccountKind, {
      query: { text: q.query, fields: ['name', 'login'] },
      ...(q.disabled ? { where: { isDisabled: true } } : {}),
      ...(expired ? { names: expired } : {}),
      orderBy: ['name', 'id'],
      offset: q.offset,
      limit: q.limit,
    });
    return { accounts: page.items.map((o) => toServiceAccount(o, orgId)), totalCount: page.totalCount };
  }

  /**
   * Creates a service account: 400 "service account already exists" when its login is taken in the org (the kind's
   * unique field, so of concurrent creates of one name exactly one wins).
   */
  async create(by: Requester, orgId: number, sa: { name: string; role?: OrgRole; isDisabled?: boolean }): Promise<StoredServiceAccount> {
    const login = serviceAccountLogin(orgId, sa.name);
    const spec: ServiceAccountSpec = { title: sa.name, login, role: sa.role ?? 'Viewer', isDisabled: sa.isDisabled ?? false };
    const obj = await this.registry.create(this.ctx(by, this.registry.namespaces.of(orgId)), serviceAccountKind, { metadata: { name: randomUid() }, spec });
    return toServiceAccount(obj, orgId);
  }

  /**
   * Renames (a new login: 400 "service account already exists" when taken), changes the role or disables; 404
   * "service account not found" when it is not there.
   */
  async update(by: Requester, sa: StoredServiceAccount, change: ServiceAccountChange): Promise<StoredServiceAccount> {
    const login = change.name === undefined ? sa.login : serviceAccountLogin(sa.orgId, change.name);
    const obj = await this.registry.patch(this.ctx(by, this.registry.namespaces.of(sa.orgId)), serviceAccountKind, sa.uid, (current) => {
      const spec = current.spec;
      const next: ServiceAccountSpec = { ...spec, title: change.name ?? spec.title, login, role: change.role ?? spec.role, isDisabled: change.isDisabled ?? spec.isDisabled };
      return { ...current, spec: next };
    });
    return toServiceAccount(obj, sa.orgId);
  }

  /**
   * Deletes the service account and, in its transaction (the kind's cascades), its tokens, which so stop working
   * with it, and its custom role assignments.
   */
  async delete(by: Requester, sa: StoredServiceAccount): Promise<void> {
    await this.registry.delete(this.ctx(by, this.registry.namespaces.of(sa.orgId)), serviceAccountKind, sa.uid);
  }

  // Tokens

  /** The tokens of the org's service accounts, or of one of them; by id. */
  async tokens(orgId: number, serviceAccountUid?: string): Promise<StoredToken[]> {
    const labelSelector = serviceAccountUid ? `${SERVICE_ACCOUNT}=${serviceAccountUid},${ORG_ID}=${orgId}` : `${ORG_ID}=${orgId}`;
    const list = await this.registry.list(this.ctx(SYSTEM, IDENTITY_NAMESPACE), serviceAccountTokenKind, { labelSelector });
    return list.items.map(toToken).sort((a, b) => a.id - b.id);
  }

  /** The tokens of these service accounts of the org: one read. */
  async tokensOfAccounts(orgId: number, serviceAccountUids: readonly string[]): Promise<StoredToken[]> {
    if (!serviceAccountUids.length) return [];
    const labels = { [SERVICE_ACCOUNT]: serviceAccountUids, [ORG_ID]: String(orgId) };
    const page = await this.registry.page(this.ctx(SYSTEM, IDENTITY_NAMESPACE), serviceAccountTokenKind, { labels });
    return page.items.map(toToken);
  }

  /**
   * Makes a token: its key (returned here, and never again) and a stored record of the key's digest. Names are
   * unique in the org (400 otherwise, the anchor's answer: the token kind's unique field); `secondsToLive` > 0 sets
   * an expiry.
   */
  async addToken(by: Requester, sa: StoredServiceAccount, t: { name: string; secondsToLive?: number }): Promise<{ token: StoredToken; key: string }> {
    const { key, hashedKey } = generateServiceAccountToken();
    // Rounded up to the second: a token lives at least `secondsToLive`.
    const expires = t.secondsToLive ? secondsAfter(Date.now(), t.secondsToLive) : null;
    if (expires === undefined) throw StatusError.badRequest('invalid SecondsToLive value');
    return { token: await this.storeToken(by, sa, t.name, hashedKey, expires), key };
  }

  /**
   * Gives the service account a token of a key made elsewhere (the configured initial token), never expiring; nothing
   * when that key is stored already, so every replica may call it at every start.
   *
   * @example await accounts.ensureToken(SYSTEM, sa, { name: 'initial', key: config.auth.initial_service_account_token });
   */
  async ensureToken(by: Requester, sa: StoredServiceAccount, t: { name: string; key: string }): Promise<void> {
    const parsed = parseServiceAccountToken(t.key);
    if (!parsed.valid) throw new StatusError(400, 'BadRequest', 'not a service account token');
    if (await this.storage.get({ group: serviceAccountTokenKind.group, resource: serviceAccountTokenKind.plural, namespace: IDENTITY_NAMESPACE, name: tokenObjectName(parsed.hashedKey) })) return;
    await this.storeToken(by, sa, t.name, parsed.hashedKey, null).catch((err: unknown) => {
      // Another replica stored it first.
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
    });
  }

  /** Stores a token's digest: 400 when another token of the org has the name (the token kind's unique field). */
  private async storeToken(by: Requester, sa: StoredServiceAccount, name: string, hashedKey: string, expires: string | null): Promise<StoredToken> {
    const spec: ServiceAccountTokenSpec = { title: name, orgId: sa.orgId, serviceAccountUid: sa.uid, hashedKey, expires, lastUsedAt: null };
    const labels = { [SERVICE_ACCOUNT]: sa.uid, [ORG_ID]: String(sa.orgId) };
    const obj = await this.registry.create(this.ctx(by, IDENTITY_NAMESPACE), serviceAccountTokenKind, { metadata: { name: tokenObjectName(hashedKey), labels }, spec });
    return toToken(obj);
  }

  /** Revokes a token of the service account: 404 "service account token not found" for any other id. */
  async deleteToken(by: Requester, sa: StoredServiceAccount, tokenId: number): Promise<void> {
    const list = await this.registry.list(this.ctx(SYSTEM, IDENTITY_NAMESPACE), serviceAccountTokenKind, {
      labelSelector: `${byInternalId(tokenId)},${SERVICE_ACCOUNT}=${sa.uid},${ORG_ID}=${sa.orgId}`,
      limit: 1,
    });
    const obj = list.items[0];
    if (!obj) throw tokenNotFound();
    await this.registry.delete(this.ctx(by, IDENTITY_NAMESPACE), serviceAccountTokenKind, obj.metadata.name);
  }

  // Authentication

  /**
   * The identity a presented key authenticates, or undefined: a malformed key or a bad checksum costs no read; a
   * revoked (deleted) or expired token, or a deleted or disabled service account, is refused on the very next
   * request, as nothing is cached. Records `lastUsedAt` at most once a minute.
   */
  async authenticate(key: string): Promise<Identity | undefined> {
    const hashedKey = this.digestOf(key);
    if (!hashedKey) return undefined;
    // The token and its account, kept while neither kind changed (storage.derive); the clock is read every time.
    const types = [serviceAccountTokenKind, serviceAccountKind].map((k) => ({ group: k.group, resource: k.plural }));
    const found = await derived(this.storage, `service-account-key\u0000${hashedKey}`, types, () => this.lookUp(hashedKey));
    if (!found || hasExpired(found.token.spec)) return undefined;
    await this.touch(found.token);
    return { ...found.identity };
  }

  /** The token of a digest and the identity of its account, if both exist and the account is enabled (read-only). */
  private async lookUp(hashedKey: string): Promise<Readonly<{ token: Resource<ServiceAccountTokenSpec>; identity: Identity }> | undefined> {
    const stored = await this.storage.get({ group: serviceAccountTokenKind.group, resource: serviceAccountTokenKind.plural, namespace: IDENTITY_NAMESPACE, name: tokenObjectName(hashedKey) });
    const token = stored && storedAs(serviceAccountTokenKind, stored.value);
    if (!token || token.spec.hashedKey !== hashedKey) return undefined;
    const sa = await this.byUid(token.spec.orgId, token.spec.serviceAccountUid);
    if (!sa || sa.isDisabled) return undefined;
    return Object.freeze({ token, identity: serviceAccountIdentity(sa) });
  }

  /** The digest to look a well-formed key up by; undefined for a malformed key or a bad checksum. */
  private digestOf(key: string): string | undefined {
    let digest = this.digests.get(key);
    if (digest === undefined) {
      const parsed = parseServiceAccountToken(key);
      if (!parsed.valid) return undefined;
      if (this.digests.size >= MAX_KEYS) this.digests.clear();
      this.digests.set(key, (digest = parsed.hashedKey));
    }
    return digest;
  }

  private async touch(token: Resource<ServiceAccountTokenSpec>): Promise<void> {
    const last = token.spec.lastUsedAt === null ? 0 : Date.parse(token.spec.lastUsedAt);
    if (Date.now() - last < LAST_USED_RESOLUTION_MS) return;
    const lastUsedAt = rfc3339(Date.now());
    // A token revoked meanwhile is not brought back: the patch of a missing object is a 404, ignored.
    await this.registry
      .patch(this.ctx(SYSTEM, IDENTITY_NAMESPACE), serviceAccountTokenKind, token.metadata.name, (current) => ({ ...current, spec: { ...current.spec, lastUsedAt } }))
      .catch(notFoundAsUndefined);
  }
}

/** The token object's name: the first 40 hex digits of the key's SHA-256 (the longest name the registry takes). */
function tokenObjectName(hashedKey: string): string {
  return hashedKey.slice(0, 40);
}

/**
 * The caller a service account is: `service-account:<uid>`, in its one org with its role, never a server admin.
 *
 * @example serviceAccountIdentity(sa).identity // 'service-account:k3j9…'
 */
export function serviceAccountIdentity(sa: StoredServiceAccount): Identity {
  return { identity: `service-account:${sa.uid}`, login: sa.login, userId: sa.id, orgId: sa.orgId, orgRole: sa.role, isServerAdmin: false };
}
