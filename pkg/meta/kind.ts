import type { ZodType } from 'zod';
import type { StatusCause, StatusError } from '../errors';
import type { JsonObject, Resource } from './types';

/**
 * The hooks a kind may plug into the generic registry. All are optional; most kinds write none.
 * They run in this fixed order on every write:
 *   prepareForCreate / prepareForUpdate -> (schema check) -> validate -> canonicalize
 * and `decorate` runs on every object the API returns.
 */
export interface KindStrategy<Spec = unknown> {
  /** Normalises a new object before validation: clears what a client may not set. May mutate `obj`. */
  prepareForCreate?(obj: Resource<Spec>): void;
  /** Normalises an update before validation; `old` is the stored object. May mutate `obj`, never `old`. */
  prepareForUpdate?(obj: Resource<Spec>, old: Resource<Spec>): void;
  /** Pure: returns one cause per invalid field (empty when valid). Runs after the spec schema passed. */
  validate?(obj: Resource<Spec>, old?: Resource<Spec>): StatusCause[];
  /**
   * Brings a valid object to its stored form. May mutate `obj`. `settings` are the kind's settings from the
   * server's configuration (a dashboard's shortest refresh), given by the registry serving it, so that every API
   * writing through that registry keeps the same rule; empty when the registry was given none.
   */
  canonicalize?(obj: Resource<Spec>, settings: KindSettings): void;
  /**
   * Adds derived, never-stored fields to an object on its way out (for example `spec.uid`), or hides stored ones. May
   * set `obj`'s own fields (a new `spec`), never change the objects they hold: the spec may be shared with the
   * object a write was made from, which the write may need again.
   */
  decorate?(obj: Resource<Spec>): void;
  /**
   * Refuses a change of a stored object for what it is (a provisioned, read-only data source): called with the
   * stored object in the write's transaction, after the caller's access was checked and before anything is
   * written, for every update (either API, patches and applies included) and delete; the error returned is the
   * answer. Pure. Cascades and the registry's own upkeep (see `exclusive`) are not refused.
   *
   * @example refuseChange: (ds, verb) => (ds.spec.readOnly ? new StatusError(403, 'Forbidden', `Cannot ${verb} read-only data source`) : undefined)
   */
  refuseChange?(current: Resource<Spec>, verb: 'update' | 'delete'): StatusError | undefined;
}

/**
 * A kind's settings from configuration, by name: `{ minRefreshInterval: '5s' }`. The registry is given them per kind
 * (RegistryOptions.kindSettings) and hands them to the strategy, so one process could serve two configurations.
 */
export type KindSettings = Readonly<Record<string, string | number | boolean>>;

/** A printer column, as CRD `additionalPrinterColumns` declare them. */
export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

/**
 * Everything the registry and the HTTP layer need to serve a kind.
 *
 * @example
 *   export const playlistKind = {
 *     group: 'playlist.svc.app', version: 'v1', kind: 'Playlist', plural: 'playlists', singular: 'playlist',
 *     specSchema: playlistSpecSchema, deleteResponse: 'status',
 *   } satisfies KindRegistration<PlaylistSpec>;
 */
export interface KindRegistration<Spec = unknown> {
  group: string;
  version: string;
  kind: string;
  /** The resource name in paths: `dashboards`. */
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  /** Validates `spec`; unknown keys a kind keeps must be allowed by the schema itself (z.looseObject). */
  specSchema: ZodType<Spec>;
  /**
   * The whole spec is free-form, like a CRD's `x-kubernetes-preserve-unknown-fields: true` on spec: members the
   * schema does not name are kept and never reported. Otherwise they are unknown fields: fieldValidation=Strict
   * refuses them, Warn (the default) and Ignore drop them, and server-side apply refuses them.
   */
  preserveUnknownFields?: boolean;
  strategy?: KindStrategy<Spec>;
  /**
   * The object lives in a folder named by its `svc.app/folder` annotation: the folder must exist, and deleting
   * the folder deletes the object too.
   */
  inFolder?: boolean;
  /** This kind is the folder kind the `svc.app/folder` annotation of every `inFolder` kind points to. */
  isFolder?: boolean;
  /**
   * Read by requests about other kinds' objects (the folders of every dashboard read, the public dashboard of a
   * dashboard's meta): the server keeps what it reads of this kind in memory, checked by each request's one read of
   * every type's version (storage/scoped-reads.ts), so such a read costs no statement while the kind is unchanged.
   * For kinds with few writes; folder kinds are kept so anyway.
   */
  readOften?: boolean;
  /** What DELETE answers: a `Status` (with details) or the object as deleted. */
  deleteResponse: 'status' | 'object';
  /** The error a stale update gets; default the Kubernetes 409 Conflict. */
  conflictError?: (name: string) => StatusError;
  /** Compaction keeps every version (the kind shows its history to users). */
  keepsHistory?: boolean;
  printerColumns?: PrinterColumn[];
  /**
   * How callers are authorized on this kind, in the anchor's RBAC terms: `<resource>:read|write|create|delete` on
   * `<resource>:uid:<name>`; creating an `inFolder` object needs `<resource>:create` on its folder's scope. Without
   * it, the org role alone decides (Viewer reads, Editor writes).
   */
  access?: KindAccess<Spec>;
  /**
   * Objects get a numeric id, the legacy API's deprecated `id`: label `svc.app/deprecatedInternalID`, set by the
   * registry on create (1, 2, 3... per type, never reused) and kept by every update. With `'name'` the id is also
   * the object's name: a create without a name is named by the next id, and one that names an id itself (a
   * well-known object such as organization 1) moves the sequence past it.
   */
  internalIds?: boolean | 'name';
  /**
   * Values no two objects may hold (a team's name in its organization, a user's login), checked by storage in the
   * write's transaction: of two concurrent writes of one value exactly one succeeds, the other gets the field's
   * `error`. Updates are checked too; a delete frees the object's values.
   */
  unique?: readonly KindUnique<Spec>[];
  /**
   * The kind is searchable (`/api/search`): storage keeps each object's title and tags in its search index, written
   * in the same transaction as the object, so a search never sees a stale title or a deleted object.
   */
  search?: KindSearch<Spec>;
  /**
   * Paths of fields holding secrets (`spec.passwordHash`, a data source's `spec.secureJsonData`): the current object
   * keeps them, history never records them, so watch events, later list pages and object histories never carry
   * them and a changed secret leaves no old value behind. A digest of a high-entropy token is no such secret.
   */
  secretFields?: readonly string[];
  /**
   * Write-only secrets encrypted at rest (a data source's `spec.secureJsonData`): each names a field holding a map of
   * string values. On every write through the registry (either API), a non-empty value is encrypted with the
   * envelope encryption of `pkg/secrets` and never stored, logged or recorded in history in clear; a value sent as
   * `""` removes that key; on an update, keys the body omits keep their stored value. No answer carries a value:
   * objects go out with the field removed and `reportAs` set to `{key: true}` for each key that holds a value
   * (`spec.secureJsonFields`). Server code that needs the clear values (a proxy, a query) reads them with
   * `Registry.secureValues(kind, namespace, name)`.
   */
  secureValues?: readonly KindSecureValues[];
  /**
   * Objects of other kinds that go with an object of this one (a user's memberships, a team's bindings, a service
   * account's tokens): deleted by the registry in the same transaction as it, each as its own delete would be (its
   * own cascades and access hooks included), so a reader sees both or neither and a failure leaves both.
   */
  cascades?: readonly KindCascade<Spec>[];
  /**
   * For a kind kept outside organizations' namespaces whose objects still belong to one organization (a service
   * account's token, in the identity namespace so that a key finds it alone): the label holding that organization's
   * id. Deleting the organization's namespace (`Registry.deleteNamespace`) deletes them in the same transaction.
   *
   * @example orgLabel: 'svc.app/org-id'
   */
  orgLabel?: string;
  /** Read-only subresources (`GET .../dashboards/<name>/dto`), served, listed by discovery and documented for the kind. */
  subresources?: readonly KindSubresource[];
  /**
   * Boolean spec fields that at most one object of a namespace holds true (a data source's `isDefault`): a write
   * setting one clears it on the object that held it, in the same transaction (that object's update is in history
   * and watches as any other); with `firstHolds`, the first object created in a namespace holds it whatever it was
   * sent with. Kept by the registry for every write, so both APIs keep the rule.
   */
  exclusive?: readonly KindExclusive[];
  /**
   * Spec fields naming objects of another kind in the same namespace (a correlation's source and target data
   * sources, a dashboard's library panels): a write naming one that does not exist is refused (400 with a cause on
   * the field, or the reference's `missing`), and the named object is locked until the write commits, so a
   * concurrent delete cannot leave the reference dangling. Then either pair it with a cascade on the named kind (the
   * referrers go with it), or declare `inUse`: storage keeps the references in the write's own transaction (as the
   * search index and unique keys), they go with the referrer's delete, and a named object still referenced cannot
   * be deleted, itself or with its folder; `Registry.referrers` reads them (a library panel's connections).
   */
  references?: readonly KindReference<Spec>[];
  /**
   * Fields that legacy lists select, match and sort by in the database (`Registry.page`), by name: a path into the
   * object and how it sorts (`text`, case-folded; `exact`; `number`).
   *
   * @example { login: { path: ['spec', 'login'] }, id: { path: ['metadata', 'name'], as: 'number' } }
   */
  fields?: Readonly<Record<string, KindField>>;
}

/** See {@link KindRegistration.fields}. */
export interface KindField {
  path: readonly string[];
  /** How it sorts: `text` case-folded (the default), `exact` as it is (byte order), `number` numerically. */
  as?: 'text' | 'exact' | 'number';
}

/** See {@link KindRegistration.exclusive}. */
export interface KindExclusive {
  /** The boolean spec field: `isDefault`. */
  field: string;
  /** The first object of a namespace holds it. */
  firstHolds?: boolean;
}

/**
 * See {@link KindRegistration.references}.
 *
 * @example
 *   { field: 'targetUID', group: 'datasource.svc.app', resource: 'datasources', name: (spec) => spec.targetUID }
 *   { field: 'panels', group: 'dashboard.svc.app', resource: 'librarypanels', name: (d) => libraryPanelUids(d), requireRead: true,
 *     missing: (uid) => StatusError.badRequest(`library panel "${uid}" could not be found`), inUse: () => new StatusError(403, 'Forbidden', '...') }
 */
export interface KindReference<Spec = unknown> {
  /** The spec field, as errors name it (`targetUID`). */
  field: string;
  /** The group and resource of the objects it names (served by the same registry): a kind may name a kind that names it. */
  group: string;
  resource: string;
  /** The name(s) it holds; '' or undefined names none; duplicates count once. */
  name(spec: Spec): string | readonly string[] | undefined;
  /** The caller must be allowed to read each named object (checked as it writes); else the same refusal as a missing one. */
  requireRead?: boolean;
  /** The refusal of a write naming a missing (or unreadable) object; default 400 `<resource>.<group> "x" not found`. */
  missing?(name: string): StatusError;
  /**
   * Storage keeps these references, and this refuses a delete that would leave `name` referenced: deleted itself, or
   * with the folder `folder` (references from objects deleted with it do not count).
   */
  inUse?(name: string, folder?: string): StatusError;
}


/**
 * One kind of dependents (see {@link KindRegistration.cascades}).
 *
 * @example
 *   { kind: orgMemberKind, dependents: (user) => ({ namespace: '*', names: [user.metadata.name] }) }
 */
export interface KindCascade<Spec = unknown> {
  /** The dependents' kind (served by the same registry). */
  kind: KindRegistration;
  /**
   * Which of its objects depend on `owner` (already deleted); a selection naming neither labels nor names, nor
   * `all`, selects none. `read` reads in the deleting transaction what the owner only points at (a member's user).
   */
  dependents(owner: Resource<Spec>, read: CascadeRead): CascadeSelection | Promise<CascadeSelection>;
}

/**
 * Reads one object in a cascading delete's transaction by type and name, in `namespace` (default: every one, for
 * kinds whose objects live in one namespace the kind does not name).
 */
export type CascadeRead = (type: { group: string; plural: string }, name: string, namespace?: string) => Promise<Resource | undefined>;

/** Where a cascade's dependents are: in one namespace (default the owner's) or every one (`'*'`), by labels or names. */
export interface CascadeSelection {
  namespace?: string;
  /** Equality requirements (`svc.app/user-id=7`), all of which hold. */
  labels?: Readonly<Record<string, string>>;
  names?: readonly string[];
  /**
   * Objects whose field at `path` contains `value` (JSON containment: `{ path: ['spec', 'permissions'], value: [{ kind:
   * 'User', name: uid }] }`, the permission lists with an item naming a user), found by an index where storage keeps
   * one for the path (storage/postgres/migrations.ts), never by reading every object.
   */
  contains?: { path: readonly string[]; value: unknown };
  /** Every object of the namespace: for a `prune` that must look at each (items that name the owner inside a spec). */
  all?: boolean;
  /**
   * Rewrites each dependent instead of deleting it (a deleted team's items in permission lists): answers its spec
   * without what named the owner (an unchanged spec leaves it as it is), or undefined to delete it.
   *
   * @example prune: (p) => ({ ...p.spec, permissions: p.spec.permissions.filter((i) => i.name !== teamUid) })
   */
  prune?(dependent: Resource): unknown;
}

/**
 * What a subresource is given of its request: the object read as the caller (404 and 403 as a GET answers them)
 * and the caller's rights, so that kinds need not know the authorizer.
 */
export interface SubresourceRequest {
  /** The object of the path, read as the caller. */
  object(): Promise<Resource>;
  /** Whether the caller may do `action` on `scope` (`dashboards:write` on `dashboards:uid:<name>`). */
  can(action: string, scope: string): Promise<boolean>;
  /** The caller is signed in (not an anonymous visitor). */
  signedIn: boolean;
  /**
   * The objects of another kind in the object's namespace carrying `labels`, read as the caller: none when it may
   * not read them (the dashboard's public dashboard, for its `dto`).
   */
  related<Spec>(kind: KindRegistration<Spec>, labels: Readonly<Record<string, string>>): Promise<Resource<SpecOf<Spec>>[]>;
}

/** A read-only subresource of a kind: `GET .../<resource>/<name>/<name of the subresource>` answers `get`. */
export interface KindSubresource {
  name: string;
  get(req: SubresourceRequest): Promise<unknown>;
}

/** See {@link KindRegistration.secureValues}. */
export interface KindSecureValues {
  /** The path of the map of secrets: `spec.secureJsonData`. */
  path: string;
  /** The path of the `{key: true}` map answers show instead: `spec.secureJsonFields`; never stored, ignored on input. */
  reportAs: string;
}

/** See {@link KindRegistration.search}. */
export interface KindSearch<Spec = unknown> {
  /** The title hits show, sort by and `query` matches (case-insensitive substring). */
  title(obj: Resource<Spec>): string;
  /** The tags a `tag` filter matches (exactly); none when omitted. */
  tags?(obj: Resource<Spec>): string[];
}

/**
 * One unique field of a kind (see {@link KindRegistration.unique}).
 *
 * @example
 *   { field: 'name', value: (spec) => spec.name.trim().toLowerCase(), error: () => new StatusError(409, 'Conflict', 'Team name taken') }
 */
export interface KindUnique<Spec = unknown> {
  /** The spec field (`name`, `login`), as errors name it. Values of different fields never collide. */
  field: string;
  /**
   * The value(s) the object holds, normalized as they compare (case-folded...); '' holds nothing. `obj` is the whole
   * object, for values that include its metadata (a library panel's name is unique in its folder).
   */
  value(spec: Spec, obj: Resource<Spec>): string | readonly string[];
  /** `namespace` (default): unique within the object's namespace; `cluster`: across every namespace. */
  scope?: 'namespace' | 'cluster';
  /** The refusal of a value another object holds; default a 409 Conflict naming the field and value. */
  error?: (value: string) => StatusError;
}

/** See {@link KindRegistration.access}. */
export interface KindAccess<Spec = unknown> {
  /** The action and scope prefix: `dashboards` gives `dashboards:read` on `dashboards:uid:<name>`. */
  resource: string;
  /**
   * The action a verb checks when it is not `<resource>:<verb>`: for kinds guarded by another kind's actions (a
   * public dashboard is read with `dashboards:read` and written with `dashboards.public:write` on its dashboard).
   * The roles' grants of that verb grant this action.
   *
   * @example actions: { read: 'dashboards:read', create: 'dashboards.public:write', write: 'dashboards.public:write', delete: 'dashboards.public:write' }
   */
  actions?: Readonly<Partial<Record<'read' | 'write' | 'create' | 'delete', string>>>;
  /**
   * The scope an object is checked on, create included, instead of `<resource>:uid:<name>`: for objects governed by
   * what they belong to (an annotation of a dashboard by `dashboards:uid:<uid>`, whose managed levels and folders then
   * grant the kind's actions; an organization annotation by `annotations:type:organization`). Also called with a
   * create's spec before it is validated: it must not assume the spec's shape.
   *
   * @example scope: (spec) => (spec.dashboardUID ? `dashboards:uid:${spec.dashboardUID}` : 'annotations:type:organization')
   */
  scope?(spec: Spec): string;
  /**
   * What each basic org role holds on the kind (Editor also holds Viewer's, Admin Editor's): the authorizer's basic
   * roles are built from these declarations, so a new kind's roles need no code elsewhere.
   */
  roles?: Partial<Record<BasicRole, readonly KindRoleGrant[]>>;
  /**
   * Objects carry managed permissions (per object items granting a level to a user, team, service account or
   * role), stored, listed and checked by the permission store and the authorizer from this declaration.
   */
  managed?: KindManagedAccess;
}

/** An org's basic roles that hold grants (`None` holds none). */
export type BasicRole = 'Viewer' | 'Editor' | 'Admin';

/** What an access verb becomes: `read` is `<resource>:read`, `permissions:read` is `<resource>.permissions:read`. */
export type AccessVerb = 'read' | 'write' | 'create' | 'delete' | 'permissions:read' | 'permissions:write';

/**
 * Verbs a basic role holds on every object of the kind (`all`: scope `<resource>:*`, and `folders:*` for objects
 * in folders), only at the root (`root`: `folders:uid:general`, as Editors create dashboards at the root only), or on
 * one scope (`{ scope }`).
 * `create` of a kind without folders has no scope ('').
 *
 * @example { verbs: ['read'], on: 'all' } // Viewers read every playlist: playlists:read on playlists:*
 */
export interface KindRoleGrant {
  verbs: readonly AccessVerb[];
  /** Or a scope of its own (`annotations:*`, `folders:*`), for kinds whose objects declare their `scope`. */
  on: 'all' | 'root' | { scope: string };
}

/**
 * Levels of managed permissions, as the anchor's permission UIs offer them (View 1 or Query 1, Edit 2, Admin 4); a
 * kind declares the levels it offers (folders and dashboards View, data sources Query).
 */
export type PermissionLevel = 'View' | 'Query' | 'Edit' | 'Admin';

/** See {@link KindAccess.managed}. */
export interface KindManagedAccess {
  /**
   * The actions each level grants on the object, each level listing all it grants (Edit includes View's). A folder
   * level also grants, on every object below, the level's actions of each kind that lives in folders.
   */
  levels: Readonly<Partial<Record<PermissionLevel, readonly string[]>>>;
  /** The items a new object starts with, as the anchor sets them. */
  defaults: readonly KindDefaultGrant[];
}

/**
 * One item a new object gets: for its creator (the user or service account creating it) or a basic role; with
 * `rootOnly`, only when the object is at the root (objects in a folder inherit the folder's instead).
 */
export interface KindDefaultGrant {
  grantee: 'creator' | BasicRole;
  permission: PermissionLevel;
  rootOnly?: boolean;
}

/**
 * The spec the registry's operations answer for a kind: its own (`Resource<DashboardSpec>` for the dashboard kind),
 * so callers need no casts; plain JSON for a kind whose spec type was forgotten ({@link anyKind}).
 *
 * @example const invite = await registry.get(ctx, orgInviteKind, code); invite.spec.status // typed: 'InvitePending' | ...
 */
export type SpecOf<Spec> = unknown extends Spec ? JsonObject : Spec;

/**
 * The registry treats every spec as JSON; a kind's typed hooks were checked against its own schema by
 * `satisfies KindRegistration<Spec>`, so its spec type can be forgotten here, in one place.
 */
export function anyKind<Spec>(kind: KindRegistration<Spec>): KindRegistration {
  return kind as unknown as KindRegistration;
}

/**
 * An object of `kind` as storage holds it, read without the registry (a stored secret such as a password hash, a
 * read inside a write's transaction), as the kind's own type: what the registry stored was checked against the
 * kind's schema, so the cast is made here, once.
 *
 * @example const user = storedAs(userKind, stored.value); user.spec.passwordHash // string | undefined
 */
export function storedAs<Spec>(_kind: KindRegistration<Spec>, value: JsonObject): Resource<SpecOf<Spec>> {
  return value as unknown as Resource<SpecOf<Spec>>;
}

/**
 * The anchor's defaults for a new folder or dashboard: its creator is Admin; at the root Editors also get Edit and
 * Viewers View (in a folder they inherit the folder's).
 */
export const CREATOR_ADMIN_ROLES_AT_ROOT: readonly KindDefaultGrant[] = Object.freeze([
  { grantee: 'creator', permission: 'Admin' },
  { grantee: 'Editor', permission: 'Edit', rootOnly: true },
  { grantee: 'Viewer', permission: 'View', rootOnly: true },
]);
