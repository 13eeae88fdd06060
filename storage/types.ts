/**
 * The storage contract: envelopes keyed by (group, resource, namespace, name), versioned by a resourceVersion
 * that grows in commit order per (group, resource). Storage knows nothing of HTTP, kinds or zod; it throws
 * `StorageError`s that `pkg/registry` turns into API errors.
 */
import type { JsonObject } from '../pkg/meta';

export interface GroupResource {
  group: string;
  resource: string;
}

export interface ResourceKey extends GroupResource {
  namespace: string;
  name: string;
}

/** A stored envelope. `value` is the object without `metadata.resourceVersion`; `resourceVersion` is authoritative. */
export interface StoredObject {
  key: ResourceKey;
  resourceVersion: number;
  value: JsonObject;
}

export type WatchAction = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One row of history: the object as written (for DELETED, as it was when deleted) at `resourceVersion`. */
export interface HistoryEvent extends StoredObject {
  action: WatchAction;
  /** The version this write replaced (0 for ADDED). */
  previousResourceVersion: number;
}

/** Label requirement, structurally the same as `pkg/registry/selectors` LabelRequirement. */
export interface LabelFilter {
  key: string;
  operator: 'Equals' | 'NotEquals' | 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'GreaterThan' | 'LessThan';
  values: string[];
}

export interface ListQuery extends GroupResource {
  namespace: string;
  /**
   * Every namespace instead of `namespace`, in (namespace, name) order: for cascades across namespaces. Only for
   * the current state (no `atResourceVersion` or `after`).
   */
  everyNamespace?: boolean;
  /** Return names strictly greater than this (keyset pagination, byte order). */
  after?: string;
  /** Page size; undefined = everything. The result says whether more remain. */
  limit?: number;
  /** Read the collection as it was at this resourceVersion (later pages); unset = now. */
  atResourceVersion?: number;
  labels?: readonly LabelFilter[];
  /** Only these names (field selector metadata.name=...). */
  names?: readonly string[];
  /** Exclude these names (field selector metadata.name!=...). */
  excludeNames?: readonly string[];
  /** Only objects whose folder is one of these (the `svc.app/folder` annotation, '' = root). */
  folders?: readonly string[];
  /** Only objects whose field at `path` contains `value` (JSON containment), for the current state only. */
  contains?: { path: FieldPath; value: unknown };
}

/** Which objects to count: those of one type now, in one namespace or every one, matching every label filter (and names). */
export type CountQuery = Pick<ListQuery, 'group' | 'resource' | 'namespace' | 'everyNamespace' | 'labels' | 'folders' | 'names'>;

export interface ListPage {
  items: StoredObject[];
  /** The resourceVersion the page shows the collection at. */
  resourceVersion: number;
  /** True when more items follow the last one returned. */
  more: boolean;
}

export interface WriteOptions {
  /** The `svc.app/folder` annotation, kept in an indexed column for folder queries and cascades. */
  folder: string;
  /**
   * The object's row in the search index, written in the same transaction (so search is never stale); only for
   * kinds that declare searchable fields. Deleting the object deletes its row.
   */
  search?: SearchFields;
  /**
   * What history records in place of the value (the value without its kind's secret fields): watch events, later
   * list pages and object histories show it, while the current row keeps the value. Default: the value itself.
   */
  historyValue?: JsonObject;
  /**
   * The object's unique keys, written in the same transaction and replacing those it held (unset: left as they
   * are). A key another object of the type holds throws StorageError 'UniqueViolation' naming it, so of two writers
   * of one value exactly one succeeds. Deleting the object frees its keys.
   */
  unique?: readonly UniqueKey[];
  /**
   * The objects this one references (same namespace), written in the same transaction and replacing those it
   * referenced (unset: left as they are). Deleting the object deletes its references; those pointing at it are left
   * for the caller to judge (see StorageTx.referrers).
   */
  references?: readonly ReferenceTarget[];
}

/** What an object references: another object of its namespace. */
export interface ReferenceTarget extends GroupResource {
  name: string;
}

/** One reference: `from` names `to` (both in `from.namespace`). */
export interface Reference {
  from: ResourceKey;
  to: ResourceKey;
}

/** Which references to read: those pointing at these objects of one type, in one namespace. */
export interface ReferrersQuery extends GroupResource {
  namespace: string;
  names: readonly string[];
}

/**
 * A value that one object of a type alone may hold within a scope.
 *
 * @example { scope: 'default', field: 'name', value: 'ops' } // no other team of namespace `default` is named ops
 */
export interface UniqueKey {
  /** A namespace, or '' for every namespace of the type. */
  scope: string;
  /** What the value is of (`name`, `login`): values of different fields never collide. */
  field: string;
  value: string;
}

/** What the search index holds of an object besides its key and folder. */
export interface SearchFields {
  title: string;
  tags: readonly string[];
  /** The legacy numeric id (label `svc.app/deprecatedInternalID`), 0 when the kind has none. */
  internalId: number;
}

/**
 * A search over the index: every condition given must hold. Hits come sorted by case-folded title (then name,
 * then type), ascending or descending, the types merged into one order.
 */
export interface SearchQuery {
  namespace: string;
  /** The types searched together; none matches nothing. */
  types: readonly GroupResource[];
  /** Case-insensitive substring of the title. */
  title?: string;
  /** Hits carry every one of these tags. */
  tags?: readonly string[];
  /** Hits are in one of these folders ('' = root). */
  folders?: readonly string[];
  /** Hits have one of these names. */
  names?: readonly string[];
  order: 'asc' | 'desc';
  /** Keyset position: hits strictly after this one in the order. */
  after?: SearchPosition;
  /** Hits to skip first (after `after`), counted by the database: a later page reads only its own rows. */
  offset?: number;
  limit: number;
}

/** Where a hit stands in the search order. */
export interface SearchPosition {
  sortTitle: string;
  name: string;
  group: string;
  resource: string;
}

export interface SearchHit extends SearchFields {
  key: ResourceKey;
  folder: string;
  position: SearchPosition;
}

/**
 * The versions of an object: its generations (`metadata.generation`), each as the oldest history row of that generation
 * (the write that made it), newest first. Only its current life counts: the rows of `uid` written after the name's
 * last deletion or an earlier object's row.
 */
export interface VersionsQuery {
  /** The object's current `metadata.uid`. */
  uid: string;
  /** Only the newest `keep` versions exist (a kind's retention); undefined = all. */
  keep?: number;
  /** Only versions made by a write older than this resourceVersion (resuming after a page). */
  before?: number;
  /** Only this generation. */
  generation?: number;
  /** Versions to skip (earlier pages). */
  offset?: number;
  /** At most this many; undefined = all. */
  limit?: number;
}

/** A field of a stored object, as the path of keys leading to it: `['spec', 'login']`. */
export type FieldPath = readonly string[];

/**
 * One page of a type's objects in one namespace, selected, sorted and counted by the database (the legacy API's
 * paged searches): every condition given must hold.
 */
export interface PageQuery extends GroupResource {
  namespace: string;
  labels?: readonly LabelFilter[];
  /** Only these names. */
  names?: readonly string[];
  /** Not these names. */
  excludeNames?: readonly string[];
  /** Only objects in one of these folders ('' = the root). */
  folders?: readonly string[];
  /**
   * Only objects named as an object of this type in its namespace is named: the users (named by their id) who are
   * members of an organization (its memberships are named by the user's id).
   */
  namedAs?: GroupResource & { namespace: string };
  /** Fields holding exactly one of these values (string, number or boolean JSON values). */
  equal?: readonly { path: FieldPath; values: readonly (string | number | boolean)[] }[];
  /** Objects one of whose `paths` holds `text`, ignoring case; an empty text matches every object. */
  contains?: { paths: readonly FieldPath[]; text: string };
  /**
   * The order, first key first, then the name: `text` compares case-folded strings byte by byte, `exact` the strings
   * as they are byte by byte, (a missing field first), `number` numerically (one that is no integer first).
   */
  order: readonly { path: FieldPath; as: 'text' | 'exact' | 'number' }[];
  /** The whole order reversed, the name included (a missing field last). */
  descending?: boolean;
  /** Matches to skip (earlier pages). */
  offset: number;
  /** At most this many; undefined = every match from `offset` on. */
  limit?: number;
}

/** A page of {@link PageQuery}, and how many objects match in all. */
export interface Page {
  items: StoredObject[];
  total: number;
}

/** How many objects of some types in one namespace carry each tag of the search index, by tag (byte order). */
export interface TagCountQuery {
  namespace: string;
  types: readonly GroupResource[];
}

/** Reads and writes inside one database transaction; every write takes the next resourceVersion. */
export interface StorageTx {
  /**
   * Lock the resourceVersion counters of these resource types (sorted, to keep a global lock order). Writes
   * lock their own type implicitly; a write that touches several types locks them all first.
   */
  lockTypes(types: readonly GroupResource[]): Promise<void>;
  /** Read one object; `lock: 'share'` keeps it from being deleted or changed until the transaction ends. */
  get(key: ResourceKey, opts?: { lock?: 'share' | 'update' }): Promise<StoredObject | undefined>;
  list(query: ListQuery): Promise<ListPage>;
  /** How many objects match, as this transaction sees them (a quota checked under the type's lock). */
  count(query: CountQuery): Promise<number>;
  /**
   * The next numeric id of a type (1, 2, 3...; never reused), for the legacy API's deprecated `id`s. Takes the
   * type's lock.
   */
  nextInternalId(type: GroupResource): Promise<number>;
  /**
   * Makes {@link nextInternalId} never hand out `id` or a smaller one: for an object numbered by its creator (a
   * well-known one, such as organization 1). Takes the type's lock.
   */
  reserveInternalId(type: GroupResource, id: number): Promise<void>;
  /** Throws StorageError 'KeyExists'. */
  create(key: ResourceKey, value: JsonObject, opts: WriteOptions): Promise<StoredObject>;
  /** Throws 'NotFound', or 'Conflict' when the stored version is not `expectedResourceVersion`. */
  update(key: ResourceKey, value: JsonObject, expectedResourceVersion: number, opts: WriteOptions): Promise<StoredObject>;
  /** The references pointing at these objects, as this transaction sees them, in (to, from) name order. */
  referrers(query: ReferrersQuery): Promise<Reference[]>;
  /** Deletes and records `finalValue` (default: the stored value) in history. Throws 'NotFound' or 'Conflict'. */
  delete(key: ResourceKey, expectedResourceVersion?: number, finalValue?: JsonObject): Promise<StoredObject>;
  /**
   * Deletes every object of one type in a namespace that matches every label filter, each as {@link delete} would
   * (a resourceVersion of its own, in (namespace, name) order, and its DELETED history row; its search row, unique keys and
   * references go with it), in a bounded number of statements whatever their number: a namespace's deletion.
   * `historyValue` turns a stored value into what its DELETED row records (default: the value). Takes the type's
   * lock; answers how many objects were deleted.
   *
   * @example await tx.deleteAll({ group: 'dashboard.svc.app', resource: 'dashboards', namespace: 'org-7' })
   */
  deleteAll(query: DeleteAllQuery, opts?: { historyValue?: (value: JsonObject) => JsonObject }): Promise<number>;
}

/**
 * Which objects {@link StorageTx.deleteAll} deletes: those of one type in one namespace (or, with `everyNamespace`,
 * in all), matching every label filter.
 */
export type DeleteAllQuery = Pick<ListQuery, 'group' | 'resource' | 'namespace' | 'everyNamespace' | 'labels'>;

/** A connection pool's state: connections open, the idle ones among them, and callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Told of every query when it ends: how long it took, whether it failed, and its text (tests count statements). */
export type QueryObserver = (seconds: number, failed: boolean, sql: string) => void;

/** A type's newest resourceVersion, and the oldest one a list or watch may still resume from. */
export interface TypeVersions extends GroupResource {
  current: number;
  oldestResumable: number;
}

export interface Storage {
  readonly backend: 'postgres' | 'embedded';
  /** The connection pool now (PostgreSQL); undefined for the embedded database, which has one connection and no pool. */
  poolStats(): PoolStats | undefined;
  /**
   * Calls `observer` after every query (for metrics); the returned function stops it.
   * @example const stop = storage.observeQueries((seconds) => histogram.observe(seconds));
   */
  observeQueries(observer: QueryObserver): () => void;
  /**
   * Creates or upgrades the schema; safe to call from several processes at once: they wait for each other up to
   * `lockTimeoutSeconds` (default 60), then fail with StorageError 'Unavailable'.
   */
  migrate(opts?: { lockTimeoutSeconds?: number }): Promise<void>;
  /** Makes sure each type has a counter, so that an empty collection still has a resourceVersion. */
  registerTypes(types: readonly GroupResource[]): Promise<void>;
  /**
   * Runs `fn` in a transaction, again when it meets a deadlock. Transactions of one `group` (the writes of one
   * type) that arrive while one runs share its transaction and commit, each in a savepoint: each is still atomic on
   * its own and answers after the commit.
   */
  transact<T>(fn: (tx: StorageTx) => Promise<T>, opts?: { group?: string }): Promise<T>;
  /**
   * Runs `fn` while holding the lock named `name`, which one caller at a time holds across every process on this
   * database (a PostgreSQL session advisory lock; the embedded database has one process, so one queue per storage):
   * for work of many transactions that replicas must not do side by side (applying provisioning files).
   *
   * @example await storage.exclusively('provisioning', () => applyFiles())
   */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T>;
  get(key: ResourceKey): Promise<StoredObject | undefined>;
  list(query: ListQuery): Promise<ListPage>;
  /** How many objects match now (statistics): one counting query, no rows read. */
  count(query: CountQuery): Promise<number>;
  /** The references pointing at these objects now, in (to, from) name order (see WriteOptions.references). */
  referrers(query: ReferrersQuery): Promise<Reference[]>;
  /** One page of the search index (see {@link SearchQuery}); `more` when hits follow. */
  search(query: SearchQuery): Promise<{ hits: SearchHit[]; more: boolean }>;
  /** One page of a type's objects with the number of matches (see {@link PageQuery}): one statement. */
  page(query: PageQuery): Promise<Page>;
  /** Each tag of the search index with how many objects of the types carry it, by tag: one statement. */
  tagCounts(query: TagCountQuery): Promise<{ tag: string; count: number }[]>;
  /**
   * Brings a type's search rows in line with its stored objects when they differ (objects stored before the
   * kind was searchable, or before the index existed): `fields` computes a row from a stored value. Runs under the
   * type's lock; returns how many rows it wrote (0 when the index was already complete).
   */
  syncSearchIndex(type: GroupResource, fields: (value: JsonObject) => SearchFields): Promise<number>;
  /**
   * Removes these fields (each a path of object keys, e.g. ['spec', 'passwordHash']) from every history row of a
   * type: history written before a field was declared secret. Returns how many rows changed.
   */
  redactHistory(type: GroupResource, paths: readonly (readonly string[])[]): Promise<number>;
  /**
   * Brings a type's unique keys in line with the fields it declares unique: keys of fields no longer declared are
   * dropped, and a field declared since the last call gets the keys of every stored object (`keysOf` computes them
   * from a stored value; its keys of other fields are ignored). A value several objects already share goes to the
   * first in (namespace, name) order; `shared` counts the keys so left out. Runs under the type's lock.
   */
  syncUniqueKeys(type: GroupResource, fields: readonly string[], keysOf: (value: JsonObject) => readonly UniqueKey[]): Promise<{ written: number; shared: number }>;
  /** The newest resourceVersion of a type, and the oldest one a list or watch may still resume from. */
  versions(type: GroupResource): Promise<{ current: number; oldestResumable: number }>;
  /**
   * The versions of every type, in one query (what a read scope validates its caches with: storage/scoped-reads.ts).
   * While no type's version moved, the same (frozen) array is answered again.
   */
  allVersions(): Promise<readonly TypeVersions[]>;
  /**
   * A value computed by `compute` from reads of `types` alone, kept under `id` and answered again, the same object,
   * while none of their versions moved (storage/scoped-reads.ts, in a request's read scope, when they are cached
   * types); computed at each call otherwise. Callers treat it as read-only. See {@link derived}.
   */
  derive?<T>(id: string, types: readonly GroupResource[], compute: () => Promise<T>): Promise<T>;
  /**
   * {@link allVersions} and the object at `key`, in one statement (one snapshot): a read scope that knows the object
   * its request reads (a GET of one object) validates its caches and reads the object in one round trip.
   *
   * @example const { versions, object } = await storage.allVersionsWith({ group: 'dashboard.svc.app', resource: 'dashboards', namespace: 'default', name: 'd1' });
   */
  allVersionsWith?(key: ResourceKey): Promise<{ versions: readonly TypeVersions[]; object: StoredObject | undefined }>;
  /** History events of a type with resourceVersion > `after`, oldest first (feeds watch). */
  eventsSince(type: GroupResource, after: number, limit: number): Promise<HistoryEvent[]>;
  /** History of one object, newest first, optionally only versions older than `before`. */
  objectHistory(key: ResourceKey, opts: { limit: number; before?: number }): Promise<HistoryEvent[]>;
  /** The versions of one object's current life, newest first, one page of them (see {@link VersionsQuery}). */
  objectVersions(key: ResourceKey, query: VersionsQuery): Promise<HistoryEvent[]>;
  /**
   * Forget history older than `before`: lists and watches may no longer resume from there. Superseded versions
   * are dropped unless `keepSuperseded` (kinds whose history is a feature, like dashboard versions); with
   * `{ generations: n }` only the rows of each object's newest n generations (`metadata.generation` of one
   * `metadata.uid`) are kept. The newest row of a name below `before` is always kept: a list at `before` shows it.
   */
  compact(type: GroupResource, before: number, opts: { keepSuperseded: boolean | { generations: number } }): Promise<{ deleted: number }>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type StorageErrorCode = 'KeyExists' | 'NotFound' | 'Conflict' | 'UniqueViolation' | 'Unavailable';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: ResourceKey | undefined,
    message: string,
    /** For 'UniqueViolation': the key another object holds. */
    readonly unique?: UniqueKey,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

/**
 * `storage.derive(id, types, compute)` where storage keeps derived values, else `compute()`.
 *
 * @example const found = await derived(storage, `key\u0000${digest}`, [tokenType, accountType], () => lookUp(digest));
 */
export function derived<T>(storage: Storage, id: string, types: readonly GroupResource[], compute: () => Promise<T>): Promise<T> {
  return storage.derive ? storage.derive(id, types, compute) : compute();
}
