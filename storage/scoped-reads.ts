import { AsyncLocalStorage } from 'node:async_hooks';
import type { GroupResource, ListPage, ListQuery, ResourceKey, Storage, StoredObject, StorageTx, TypeVersions } from './types';

/** Cached reads kept at most (objects and list pages together); past it the cache starts again empty. */
const MAX_ENTRIES = 20_000;
/** A list page with more items than this is not kept (the users of a large server, say): it would crowd the rest. */
const MAX_CACHED_ITEMS = 500;

interface Scope {
  /** Every type's versions, read once on first use; dropped when the scope writes, so the next read is fresh. */
  versions?: Promise<Map<string, TypeVersions>>;
  /** The request ended: anything still running in its async context (a timer, a poller) reads directly. */
  ended: boolean;
  /**
   * The object the request is known to read (a GET of one object): read in the statement of the scope's versions
   * (allVersionsWith), so from the same snapshot, and handed to the first `get` of its key; dropped by a write.
   */
  prefetch?: { key: ResourceKey; object?: Promise<StoredObject | undefined> };
}

interface Derived {
  /** The versions of its types it was computed at (read before it was). */
  versions: number[];
  value: unknown;
}

interface Entry {
  version: number;
  /** The value as JSON text ('' for undefined): parsed again for every hit, about twice as fast as structuredClone. */
  json: string;
}

type Value = StoredObject | undefined | ListPage;

/** Each versions array storage answered as a map by type (storage answers the same array while nothing moved). */
const maps = new WeakMap<readonly TypeVersions[], Map<string, TypeVersions>>();
/** The label of each versions map read ({@link ScopedReads.stamp}), computed once per map. */
const stamps = new WeakMap<Map<string, TypeVersions>, string>();

const typeKey = (t: GroupResource) => `${t.resource}.${t.group}`;
const sameKey = (a: ResourceKey, b: ResourceKey) => a.name === b.name && a.namespace === b.namespace && a.resource === b.resource && a.group === b.group;

/**
 * Storage with read scopes: within {@link run} (one request), the first version asked for reads every type's
 * version in one query, which answers every later `versions()` of the scope; `get` and `list` of the `cached`
 * types answer from memory when the type's version is the one the entry was read at. A write in the scope drops its
 * versions, so it reads its own writes. Every type's version moves with each write to it in the same transaction
 * (any replica's), so a scope started after a write commits sees it: caches can never be staler than the start of
 * the request that reads them. Outside a scope (watches, pollers, start-up) every call goes to storage.
 *
 * What it costs a request that reads only cached types plus one object: two queries (versions, then the object), or
 * one when the scope was told the object (`run`'s `prefetch`: versions and object in one statement, one snapshot).
 *
 * @example
 *   const storage = new ScopedReads(await openStorage(opts), [{ group: 'iam.svc.app', resource: 'users' }]);
 *   app.use((req, res, next) => storage.run(() => next(), (end) => res.once('close', end)));
 */
export class ScopedReads implements Storage {
  private readonly scopes = new AsyncLocalStorage<Scope>();
  private readonly cached: ReadonlySet<string>;
  private readonly entries = new Map<string, Entry>();
  private readonly derivedValues = new Map<string, Derived>();

  constructor(
    readonly inner: Storage,
    cached: readonly GroupResource[],
  ) {
    this.cached = new Set(cached.map(typeKey));
  }

  get backend() {
    return this.inner.backend;
  }

  /**
   * Runs `fn` in a new read scope; `onEnd` is handed the function that ends it (what runs after reads directly).
   * `prefetch`: the object `fn` is going to read, read with the scope's versions in one round trip.
   */
  run<T>(fn: () => T, onEnd?: (end: () => void) => void, prefetch?: ResourceKey): T {
    const scope: Scope = { ended: false, ...(prefetch ? { prefetch: { key: prefetch } } : {}) };
    onEnd?.(() => (scope.ended = true));
    return this.scopes.run(scope, fn);
  }

  private scope(): Scope | undefined {
    const s = this.scopes.getStore();
    return s && !s.ended ? s : undefined;
  }

  /** The scope's versions, read once (with the object it prefetches, when it does and storage can). */
  private versionsOf(scope: Scope): Promise<Map<string, TypeVersions>> {
    if (scope.versions) return scope.versions;
    const byType = (all: readonly TypeVersions[]) => {
      let map = maps.get(all);
      if (!map) maps.set(all, (map = new Map(all.map((v) => [typeKey(v), v]))));
      return map;
    };
    const p = scope.prefetch;
    let read: Promise<Map<string, TypeVersions>>;
    if (p && !p.object && this.inner.allVersionsWith) {
      const both = this.inner.allVersionsWith(p.key);
      p.object = both.then((b) => b.object);
      p.object.catch(() => undefined); // its failure is the versions' too, seen there
      read = both.then((b) => byType(b.versions));
    } else {
      read = this.inner.allVersions().then(byType);
    }
    scope.versions = read;
    read.catch(() => scope.versions === read && (scope.versions = undefined));
    return read;
  }

  private async versionIn(scope: Scope, t: GroupResource): Promise<TypeVersions> {
    const read = this.versionsOf(scope);
    return (await read).get(typeKey(t)) ?? { group: t.group, resource: t.resource, current: 0, oldestResumable: 0 };
  }

  async versions(t: GroupResource): Promise<{ current: number; oldestResumable: number }> {
    const scope = this.scope();
    if (!scope) return this.inner.versions(t);
    const { current, oldestResumable } = await this.versionIn(scope, t);
    return { current, oldestResumable };
  }

  /**
   * A label of everything stored, as of this scope's versions (read now if not yet): two scopes with the same label
   * read the same data, since every write moves its type's version in its own transaction and versions only grow.
   * Undefined outside a scope. What is read after it is at least as new as it: an answer computed after asking for
   * the label may be kept under it (pkg/server/answer-cache.ts).
   *
   * @example const label = await storage.stamp(); // '4711:52:130' (sum, types, highest)
   */
  async stamp(): Promise<string | undefined> {
    const scope = this.scope();
    if (!scope) return undefined;
    const versions = await this.versionsOf(scope);
    let label = stamps.get(versions);
    if (label === undefined) {
      let sum = 0;
      let highest = 0;
      for (const v of versions.values()) {
        sum += v.current;
        highest = Math.max(highest, v.current);
      }
      label = `${sum}:${versions.size}:${highest}`;
      stamps.set(versions, label);
    }
    return label;
  }

  /**
   * A value computed from reads of the cached `types` alone, kept under `id` and handed out again (the same object:
   * read-only) while none of their versions moved: what a request derives from its caller's records (the identity a
   * token authenticates, an organization) then costs no parse of those records. The versions are read before
   * `compute`, so a value is never older than the versions it is kept under. Outside a scope, or with a type that is
   * not cached, `compute` runs every time.
   *
   * @example const org = await storage.derive(`org\u0000${id}`, [orgType], () => readOrg(id));
   */
  async derive<T>(id: string, types: readonly GroupResource[], compute: () => Promise<T>): Promise<T> {
    const scope = this.scope();
    if (!scope || !types.every((t) => this.cached.has(typeKey(t)))) return compute();
    const all = await this.versionsOf(scope);
    const versions = types.map((t) => all.get(typeKey(t))?.current ?? 0);
    const kept = this.derivedValues.get(id);
    if (kept && kept.versions.every((v, i) => v === versions[i])) return kept.value as T;
    const value = await compute();
    if (this.derivedValues.size >= MAX_ENTRIES) this.derivedValues.clear();
    this.derivedValues.set(id, { versions, value });
    return value;
  }

  allVersions(): Promise<readonly TypeVersions[]> {
    return this.inner.allVersions();
  }

  allVersionsWith(key: ResourceKey): Promise<{ versions: readonly TypeVersions[]; object: StoredObject | undefined }> {
    return this.inner.allVersionsWith ? this.inner.allVersionsWith(key) : Promise.all([this.inner.allVersions(), this.inner.get(key)]).then(([versions, object]) => ({ versions, object }));
  }

  get(key: ResourceKey): Promise<StoredObject | undefined> {
    const scope = this.scope();
    const p = scope?.prefetch;
    if (scope && p && sameKey(p.key, key)) {
      // The prefetched object, once: read with the versions (now, when nothing asked for them yet).
      void this.versionsOf(scope).catch(() => undefined);
      const object = p.object;
      scope.prefetch = undefined;
      if (object) return object.catch(() => this.inner.get(key));
    }
    return this.cachedRead(key, `g\u0000${key.namespace}\u0000${key.name}`, () => this.inner.get(key)) as Promise<StoredObject | undefined>;
  }

  list(query: ListQuery): Promise<ListPage> {
    const cacheable = query.atResourceVersion === undefined;
    return this.cachedRead(query, `l\u0000${JSON.stringify(query)}`, () => this.inner.list(query), cacheable) as Promise<ListPage>;
  }

  private async cachedRead(t: GroupResource, id: string, read: () => Promise<Value>, cacheable = true): Promise<Value> {
    const scope = this.scope();
    if (!scope || !cacheable || !this.cached.has(typeKey(t))) return read();
    // The version first: what is read after it is at least as new, so the entry is never older than its label.
    const { current } = await this.versionIn(scope, t);
    const key = `${typeKey(t)}\u0000${id}`;
    const hit = this.entries.get(key);
    // Each caller gets its own copy (stored values are plain JSON, so the text is all of it).
    if (hit && hit.version === current) return hit.json === '' ? undefined : (JSON.parse(hit.json) as Value);
    const value = await read();
    if (value && 'items' in value && value.items.length > MAX_CACHED_ITEMS) return value;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { version: current, json: value === undefined ? '' : JSON.stringify(value) });
    return value;
  }

  /** A write: the scope's versions are read again afterwards (and during, by reads running beside it). */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    const scope = this.scope();
    if (scope) [scope.versions, scope.prefetch] = [undefined, undefined];
    try {
      return await write();
    } finally {
      if (scope) scope.versions = undefined;
    }
  }

  transact<T>(fn: (tx: StorageTx) => Promise<T>, opts?: { group?: string }): Promise<T> {
    return this.writing(() => this.inner.transact(fn, opts));
  }

  exclusively<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.inner.exclusively(name, fn);
  }

  migrate(opts?: { lockTimeoutSeconds?: number }) {
    return this.writing(() => this.inner.migrate(opts));
  }

  registerTypes(types: readonly GroupResource[]) {
    return this.writing(() => this.inner.registerTypes(types));
  }

  search: Storage['search'] = (query) => this.inner.search(query);
  count: Storage['count'] = (query) => this.inner.count(query);
  page: Storage['page'] = (query) => this.inner.page(query);
  tagCounts: Storage['tagCounts'] = (query) => this.inner.tagCounts(query);

  referrers: Storage['referrers'] = (query) => this.inner.referrers(query);

  syncSearchIndex: Storage['syncSearchIndex'] = (type, fields) => this.writing(() => this.inner.syncSearchIndex(type, fields));

  redactHistory: Storage['redactHistory'] = (type, paths) => this.writing(() => this.inner.redactHistory(type, paths));

  syncUniqueKeys: Storage['syncUniqueKeys'] = (type, fields, keysOf) => this.writing(() => this.inner.syncUniqueKeys(type, fields, keysOf));

  eventsSince: Storage['eventsSince'] = (type, after, limit) => this.inner.eventsSince(type, after, limit);

  objectHistory: Storage['objectHistory'] = (key, opts) => this.inner.objectHistory(key, opts);

  objectVersions: Storage['objectVersions'] = (key, query) => this.inner.objectVersions(key, query);

  compact: Storage['compact'] = (type, before, opts) => this.writing(() => this.inner.compact(type, before, opts));

  poolStats = () => this.inner.poolStats();

  observeQueries: Storage['observeQueries'] = (observer) => this.inner.observeQueries(observer);

  ping = () => this.inner.ping();

  close = () => this.inner.close();
}
