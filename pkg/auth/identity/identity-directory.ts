import { orgKind, orgMemberKind, userKind, identityKinds } from '../../../apis';
import type { OrgSpec } from '../../../apis/iam.svc.app/v0alpha1/org';
import type { OrgAddress } from '../../../apis/iam.svc.app/v0alpha1/org/org-schema';
import type { UserSpec } from '../../../apis/iam.svc.app/v0alpha1/user';
import { userSpecSchema } from '../../../apis/iam.svc.app/v0alpha1/user/user-schema';
import { StatusError } from '../../errors';
import { type KindRegistration, labelKey, randomUid, type Resource, type SpecOf, storedAs } from '../../meta';
import { type Namespaces, type QuotaLimit, Registry, type Requester, type RequestContext } from '../../registry';
import { derived, type Storage, type StorageTx } from '../../../storage';
import { hashPassword } from './password';
import type { OrgMemberSpec, OrgRole } from '../../../apis/iam.svc.app/v0alpha1/orgmember';

/**
 * Users and organizations have no organization: they are stored in this one namespace, which no organization's
 * namespace (`default`, `org-<id>`) can ever be.
 */
export const IDENTITY_NAMESPACE = 'svc-identity';

/** Writes the server makes on its own (start-up), as written to createdBy/updatedBy. */
export const SYSTEM: Requester = { identity: 'service:identity' };

/** Labels that find a user by login or email without listing them all: a digest, as label values are restricted. */
const LOGIN_KEY = 'svc.app/login-key';
const EMAIL_KEY = 'svc.app/email-key';
/** Finds a user by its uid (the `user:<uid>` of identities, as createdBy/updatedBy hold them): `labelKey(uid)`. */
const UID_KEY = 'svc.app/uid-key';
/** A label-safe digest of a login, email or name, compared case-insensitively. @example keyOf('Ana') === keyOf(' ana') */
export const keyOf = (s: string) => labelKey(s.trim().toLowerCase());

export interface StoredUser {
  id: number;
  /** The stable identifier: `user:<uid>` is the caller's identity. */
  uid: string;
  login: string;
  email: string;
  name: string;
  isSvcAdmin: boolean;
  isDisabled: boolean;
  orgId: number;
  /** Dismissed help hints, one bit each (0 when none or never set). */
  helpFlags1?: number;
  created: string;
  updated: string;
}

export interface StoredOrg {
  id: number;
  name: string;
  /** Its postal address; absent when none was ever set. */
  address?: OrgAddress;
}

function toOrg(obj: Resource<OrgSpec>): StoredOrg {
  const s = obj.spec;
  return { id: Number(obj.metadata.name), name: s.name, ...(s.address ? { address: s.address } : {}) };
}

export interface NewUser {
  /** Default: 14 random characters, as the anchor's generated uids. */
  uid?: string;
  login: string;
  email?: string;
  name?: string;
  password: string;
  isSvcAdmin?: boolean;
  orgId?: number;
}

function toUser(obj: Resource<UserSpec>): StoredUser {
  const s = obj.spec;
  return {
    id: Number(obj.metadata.name),
    uid: s.uid,
    login: s.login,
    email: s.email,
    name: s.name,
    isSvcAdmin: s.isSvcAdmin,
    isDisabled: s.isDisabled,
    orgId: s.orgId,
    ...(s.helpFlags1 ? { helpFlags1: s.helpFlags1 } : {}),
    created: obj.metadata.creationTimestamp!,
    updated: obj.metadata.annotations?.['svc.app/updatedTimestamp'] ?? obj.metadata.creationTimestamp!,
  };
}

/**
 * Users, organizations and memberships, stored as kinds (`iam.svc.app/v0alpha1`) by a registry of their own so
 * they are stored whatever alpha versions the server serves. Every write goes through the registry with the
 * caller's identity; only the password check reads a stored user directly, since the registry never returns the
 * hash.
 *
 * @example
 *   const users = new IdentityDirectory(storage, registry.namespaces);
 *   await users.init();
 *   const { id } = await users.createUser(SYSTEM, { login: 'ana', password: 's3cret' });
 *   await users.setRole(SYSTEM, 1, id, 'Editor');
 */
export class IdentityDirectory {
  readonly registry: Registry;

  /** `quotas`: limits on users, organizations, memberships and tokens (pkg/quotas identityQuotas), none by default. */
  constructor(
    private readonly storage: Storage,
    namespaces: Namespaces,
    quotas: Readonly<Record<string, QuotaLimit>> = {},
  ) {
    this.registry = new Registry(storage, identityKinds, { nestedFolders: false, namespaces, quotas });
  }

  async init(): Promise<void> {
    await this.registry.init();
  }

  private ctx(by: Requester, namespace = IDENTITY_NAMESPACE): RequestContext {
    return { requester: by, namespace, fieldManager: 'svc-identity' };
  }

  /** The context of an identity service acting in an organization's namespace (teams, roles, memberships). */
  inOrg(by: Requester, orgId: number): RequestContext {
    return this.ctx(by, this.registry.namespaces.of(orgId));
  }

  /** Every object of an identity kind in an organization, read by the server itself. */
  async listInOrg<S>(orgId: number, kind: KindRegistration<S>, labelSelector?: string): Promise<Resource<SpecOf<S>>[]> {
    return (await this.registry.list(this.inOrg(SYSTEM, orgId), kind, { labelSelector })).items;
  }

  /**
   * Users and orgs are named by the registry's id sequence (never reused); `fixedId` for a well-known one (org 1).
   * `member`: a membership written in the same transaction (of the new user, or in the new org), so a membership
   * refused (a quota) leaves nothing of the create behind.
   */
  private createNumbered<S>(by: Requester, kind: KindRegistration<S>, spec: object, labels: Record<string, string> = {}, fixedId?: number, member?: (created: Resource) => { orgId: number; userId: number; role: OrgRole }): Promise<Resource<SpecOf<S>>> {
    const alongside = member && {
      kinds: [orgMemberKind],
      write: (tx: StorageTx, created: Resource) => {
        const { orgId, userId, role } = member(created);
        return this.registry.putWithin(tx, this.ctx(by, this.registry.namespaces.of(orgId)), orgMemberKind, String(userId), { userId, role });
      },
    };
    return this.registry.create(this.ctx(by), kind, { metadata: { ...(fixedId === undefined ? {} : { name: String(fixedId) }), labels }, spec }, { alongside });
  }

  private async getOrUndefined<S>(kind: KindRegistration<S>, name: string, namespace = IDENTITY_NAMESPACE): Promise<Resource<SpecOf<S>> | undefined> {
    try {
      return await this.registry.get(this.ctx(SYSTEM, namespace), kind, name);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) return undefined;
      throw err;
    }
  }

  // Users

  async userById(id: number): Promise<StoredUser | undefined> {
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    const obj = await this.getOrUndefined(userKind, String(id));
    return obj && toUser(obj);
  }

  /** A user whose login or email is `loginOrEmail`, compared case-insensitively as the anchor does. */
  async userByLoginOrEmail(loginOrEmail: string): Promise<StoredUser | undefined> {
    const key = keyOf(loginOrEmail);
    for (const label of [LOGIN_KEY, EMAIL_KEY]) {
      const list = await this.registry.list(this.ctx(SYSTEM), userKind, { labelSelector: `${label}=${key}`, limit: 1 });
      if (list.items[0]) return toUser(list.items[0]);
    }
    return undefined;
  }

  /**
   * The user whose uid is `uid` (the `<uid>` of its identity `user:<uid>`): one label lookup (which a request's read
   * scope answers from memory while no user changed). When it finds none (a deleted writer, or a user stored before
   * that label existed), the database selects the user by the kind's `uid` field: that user only, never every user.
   * A uid no user can have reads nothing.
   *
   * @example
   *   (await users.userByUid('admin'))?.login; // 'admin'
   */
  async userByUid(uid: string): Promise<StoredUser | undefined> {
    if (!userSpecSchema.shape.uid.safeParse(uid).success) return undefined;
    const list = await this.registry.list(this.ctx(SYSTEM), userKind, { labelSelector: `${UID_KEY}=${labelKey(uid)}` });
    const found = list.items.map(toUser).find((u) => u.uid === uid);
    if (found) return found;
    const { items } = await this.registry.page(this.ctx(SYSTEM), userKind, { where: { uid }, limit: 1 });
    return items[0] && toUser(items[0]);
  }

  async listUsers(): Promise<StoredUser[]> {
    const list = await this.registry.list(this.ctx(SYSTEM), userKind, {});
    return list.items.map(toUser);
  }

  /**
   * One page of the users whose login, email or name holds `query` (any case), with how many match in all: of every
   * user, or of the members of organization `orgId`; by login (by id with `orderBy: 'id'`), paged by the database.
   *
   * @example await users.searchUsers({ query: 'an', offset: 0, limit: 10 }); // { users: [ana, dana], totalCount: 2 }
   */
  async searchUsers(q: { query: string; orgId?: number; orderBy?: 'login' | 'id'; offset: number; limit?: number }): Promise<{ users: StoredUser[]; totalCount: number }> {
    const page = await this.registry.page(this.ctx(SYSTEM), userKind, {
      query: { text: q.query, fields: ['login', 'email', 'name'] },
      ...(q.orgId === undefined ? {} : { namedAs: { kind: orgMemberKind, namespace: this.registry.namespaces.of(q.orgId) } }),
      orderBy: q.orderBy === 'id' ? ['id'] : ['login', 'id'],
      offset: q.offset,
      limit: q.limit,
    });
    return { users: page.items.map(toUser), totalCount: page.totalCount };
  }

  /** The stored password hash: read from storage, as the registry never returns it. */
  async passwordHashOf(id: number): Promise<string | undefined> {
    return (await this.userWithPasswordHash(id))?.hash;
  }

  /** A user and its stored password hash in one read: the hot path of every authenticated request. */
  async userWithPasswordHash(id: number): Promise<{ user: StoredUser; hash: string | undefined } | undefined> {
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    const stored = await this.storage.get({ group: userKind.group, resource: userKind.plural, namespace: IDENTITY_NAMESPACE, name: String(id) });
    if (!stored) return undefined;
    const obj = storedAs(userKind, stored.value);
    // toUser copies no secret, so the raw stored object serves both.
    return { user: toUser(obj), hash: obj.spec.passwordHash };
  }

  /**
   * Creates a user with the next id (412 "User with same email or login already exists" when another user holds
   * the login or email as either: the user kind's unique field, so of concurrent creates exactly one wins). With
   * `role`, the user is a member of its org (`u.orgId`) with that role, written in the same transaction.
   */
  async createUser(by: Requester, u: NewUser, role?: OrgRole): Promise<StoredUser> {
    const login = u.login.trim() || (u.email ?? '').trim();
    const email = (u.email ?? '').trim() || login;
    const spec: UserSpec = {
      uid: u.uid ?? randomUid(),
      login,
      email,
      name: u.name ?? '',
      isSvcAdmin: u.isSvcAdmin ?? false,
      isDisabled: false,
      helpFlags1: 0,
      orgId: u.orgId ?? 1,
      passwordHash: await hashPassword(u.password),
    };
    const member = role && ((user: Resource) => ({ orgId: spec.orgId, userId: Number(user.metadata.name), role }));
    const obj = await this.createNumbered(by, userKind, spec, { [LOGIN_KEY]: keyOf(login), [EMAIL_KEY]: keyOf(email), [UID_KEY]: labelKey(spec.uid) }, undefined, member);
    return toUser(obj);
  }

  /** Read-modify-write of a user's spec; the stored password hash is kept unless `change` sets a new one. */
  async updateUser(by: Requester, id: number, change: (spec: UserSpec) => UserSpec): Promise<StoredUser> {
    const obj = await this.registry.patch(
      this.ctx(by),
      userKind,
      String(id),
      (current) => {
        const spec = change({ ...current.spec });
        return { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, [LOGIN_KEY]: keyOf(spec.login), [EMAIL_KEY]: keyOf(spec.email) } }, spec };
      },
      { check: keepServerAdmin },
    );
    return toUser(obj);
  }

  async setPassword(by: Requester, id: number, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.updateUser(by, id, (spec) => ({ ...spec, passwordHash }));
  }

  /**
   * Deletes the user, and with it (the user kind's cascades, in its transaction) its memberships and what goes with
   * them, its preferences and its managed permission items, in every organization.
   */
  async deleteUser(by: Requester, id: number): Promise<void> {
    // The delete's own check decides a race with another admin's removal.
    await this.registry.delete(this.ctx(by), userKind, String(id), { check: keepServerAdmin });
  }

  // Organizations

  async orgById(id: number): Promise<StoredOrg | undefined> {
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    // Every request of a namespace reads its org: kept while no org changed (storage.derive); each caller a copy.
    const org = await derived(this.storage, `org\u0000${id}`, [{ group: orgKind.group, resource: orgKind.plural }], async () => {
      const obj = await this.getOrUndefined(orgKind, String(id));
      return obj && toOrg(obj);
    });
    return org && { ...org, ...(org.address ? { address: { ...org.address } } : {}) };
  }

  async listOrgs(): Promise<StoredOrg[]> {
    const list = await this.registry.list(this.ctx(SYSTEM), orgKind, {});
    return list.items.map(toOrg).sort((a, b) => a.id - b.id);
  }

  /** The organization named `name`, compared case-insensitively as its unique name is. */
  async orgByName(name: string): Promise<StoredOrg | undefined> {
    const wanted = name.trim().toLowerCase();
    return (await this.listOrgs()).find((o) => o.name.trim().toLowerCase() === wanted);
  }

  /** Read-modify-write of an organization's name or address (409 "Organization name taken" for a taken name). */
  async updateOrg(by: Requester, id: number, change: { name?: string; address?: Partial<OrgAddress> }): Promise<StoredOrg> {
    const obj = await this.registry.patch(this.ctx(by), orgKind, String(id), (current) => {
      const spec = current.spec;
      return { ...current, spec: { ...spec, ...(change.name === undefined ? {} : { name: change.name }), ...(change.address ? { address: { ...spec.address, ...change.address } } : {}) } };
    });
    return toOrg(obj);
  }

  /**
   * Creates an organization with the next id, `fixedId` for org 1 (409 "Organization name taken", the anchor's
   * answer, when another has the name in any case: the org kind's unique field). `adminId`: that user is made the
   * organization's Admin in the same transaction.
   */
  async createOrg(by: Requester, name: string, fixedId?: number, adminId?: number): Promise<StoredOrg> {
    const member = adminId === undefined ? undefined : (org: Resource) => ({ orgId: Number(org.metadata.name), userId: adminId, role: 'Admin' as const });
    const obj = await this.createNumbered(by, orgKind, { name }, {}, fixedId, member);
    return { id: Number(obj.metadata.name), name };
  }

  /**
   * Deletes an organization with everything of it, in one transaction: its record, every object of its namespace in
   * this registry (memberships, teams, service accounts, invites, permissions, preferences, stars...) and in
   * `alongside` (registries over the same storage: its dashboards, folders, data sources, quota limits...), and its
   * objects kept in the identity namespace (its service accounts' tokens: KindRegistration.orgLabel). Users remain;
   * one whose current organization it was moves to the first organization it still belongs to (a user left in none
   * keeps the id, and acts in no organization). 404 when there is no such organization, and nothing changes.
   *
   * @example await users.deleteOrg(by, 7, [resourceRegistry]);
   */
  async deleteOrg(by: Requester, id: number, alongside: readonly Registry[]): Promise<void> {
    const namespace = this.registry.namespaces.of(id);
    await this.registry.deleteNamespace(namespace, {
      alongside,
      within: async (tx) => {
        if (!(await tx.get(storedKey(orgKind, IDENTITY_NAMESPACE, String(id))))) throw StatusError.notFound({ group: orgKind.group, resource: orgKind.plural }, String(id));
        await this.registry.deleteWithin(tx, this.ctx(by), orgKind, String(id));
        await this.moveUsersOff(tx, by, id);
      },
    });
  }

  /** Users whose current organization is `orgId` move to the first other one they belong to (the anchor's rule when a member leaves). */
  private async moveUsersOff(tx: StorageTx, by: Requester, orgId: number): Promise<void> {
    const users = await tx.list({ ...storedType(userKind), namespace: IDENTITY_NAMESPACE });
    for (const stored of users.items) {
      const spec = storedAs(userKind, stored.value).spec;
      if (spec.orgId !== orgId) continue;
      const memberships = await tx.list({ ...storedType(orgMemberKind), namespace: '', everyNamespace: true, names: [stored.key.name] });
      const ids = memberships.items.map((m) => this.registry.namespaces.orgIdOf(m.key.namespace)).filter((o): o is number => o !== undefined && o !== orgId);
      for (const other of ids.sort((a, b) => a - b)) {
        if (!(await tx.get(storedKey(orgKind, IDENTITY_NAMESPACE, String(other))))) continue;
        await this.registry.putWithin(tx, this.ctx(by), userKind, stored.key.name, { ...spec, orgId: other });
        break;
      }
    }
  }

  // Memberships

  async roleOf(orgId: number, userId: number): Promise<OrgRole | undefined> {
    const obj = await this.getOrUndefined(orgMemberKind, String(userId), this.registry.namespaces.of(orgId));
    return obj?.spec.role;
  }

  /** Adds the user to the org with `role`, or changes its role there. */
  async setRole(by: Requester, orgId: number, userId: number, role: OrgRole): Promise<void> {
    const ctx = this.ctx(by, this.registry.namespaces.of(orgId));
    const spec = { userId, role };
    await this.registry.upsert(ctx, orgMemberKind, String(userId), (current) => ({ ...(current ?? { metadata: { name: String(userId) } }), spec }));
  }

  /**
   * Removes a membership, and with it (the kind's cascades, in its transaction) the user's teams, custom roles,
   * preferences and managed permission items in the org.
   */
  async removeMember(by: Requester, orgId: number, userId: number): Promise<void> {
    await this.registry.delete(this.ctx(by, this.registry.namespaces.of(orgId)), orgMemberKind, String(userId));
  }

  async membersOf(orgId: number): Promise<{ userId: number; role: OrgRole }[]> {
    const list = await this.registry.list(this.ctx(SYSTEM, this.registry.namespaces.of(orgId)), orgMemberKind, {});
    return list.items.map((o): OrgMemberSpec => o.spec).sort((a, b) => a.userId - b.userId);
  }

  /** The roles of these users in the org, by user id: one read; users who are no members are absent. */
  async rolesOf(orgId: number, userIds: readonly number[]): Promise<Map<number, OrgRole>> {
    const page = await this.registry.page(this.ctx(SYSTEM, this.registry.namespaces.of(orgId)), orgMemberKind, { names: userIds.map(String) });
    return new Map(page.items.map((o) => [o.spec.userId, o.spec.role]));
  }

  /** The orgs the user is a member of, with its role in each. */
  async orgsOf(userId: number): Promise<{ org: StoredOrg; role: OrgRole }[]> {
    const out: { org: StoredOrg; role: OrgRole }[] = [];
    for (const org of await this.listOrgs()) {
      const role = await this.roleOf(org.id, userId);
      if (role) out.push({ org, role });
    }
    return out;
  }
}

const storedType = (kind: KindRegistration) => ({ group: kind.group, resource: kind.plural });
const storedKey = (kind: KindRegistration, namespace: string, name: string) => ({ ...storedType(kind), namespace, name });

/** The anchor's refusal to leave the server without an administrator (its wording, for our server admins). */
export const lastServerAdmin = () => new StatusError(400, 'BadRequest', 'cannot remove last server admin');

/**
 * Refuses an update or delete of a user that leaves no server admin. It runs in the write's transaction with the
 * user type locked, so two admins removing each other at once cannot both succeed.
 */
async function keepServerAdmin(tx: StorageTx, current: Resource, next: Resource | undefined): Promise<void> {
  const admin = (obj: Resource | undefined) => obj?.spec.isSvcAdmin === true;
  if (!admin(current) || admin(next)) return;
  const users = await tx.list({ group: userKind.group, resource: userKind.plural, namespace: IDENTITY_NAMESPACE });
  if (!users.items.some((s) => s.key.name !== current.metadata.name && admin(storedAs(userKind, s.value)))) throw lastServerAdmin();
}
