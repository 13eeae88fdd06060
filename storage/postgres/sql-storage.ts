import { CompiledQuery, type Kysely, Migrator, type Transaction, sql } from 'kysely';
import type { JsonObject } from '../../pkg/meta';
import {
  type CountQuery,
  type DeleteAllQuery,
  type GroupResource,
  type HistoryEvent,
  type ListPage,
  type ListQuery,
  type Page,
  type PageQuery,
  type PoolStats,
  type QueryObserver,
  type Reference,
  type ReferrersQuery,
  type ResourceKey,
  type SearchFields,
  type SearchHit,
  type TypeVersions,
  type SearchQuery,
  type Storage,
  StorageError,
  type StorageTx,
  type StoredObject,
  type TagCountQuery,
  type UniqueKey,
  type WatchAction,
  type WriteOptions,
  type VersionsQuery,
} from '../types';
import { containsSql, labelFilterSql } from './label-sql';
import { migrationProvider } from './migrations';
import { pageRows, tagCountRows } from './page-sql';
import { referrerRows, writeReferences } from './reference-sql';
import { searchRows, syncSearchRows } from './search-sql';
import { versionRows } from './versions-sql';
import type { Database } from './schema';
import { syncUniqueRows, writeUniqueKeys } from './unique-sql';
import { type CounterState, deleteObject, deleteObjects, insertObject, insertObjects, NOT_ALL_WRITTEN, type ObjectWrite, updateObject } from './write-sql';
import { CommitGroups } from './commit-group';
import { PREPARED } from './prepared';
import { foldedLock } from './folded-statements';
import { KnownCounters } from './known-counters';
import type { SoleWriter } from './sole-writer';

/** resourceVersions are microseconds since the epoch, or the previous one + 1 when the clock has not moved on. */
function nowMicros(): number {
  return Date.now() * 1000;
}

/** Replicas serialise their migrations on this advisory lock ("svc-migrations"). */
const MIGRATION_LOCK_ID = 7_305_742_186_173_449;

const typeKey = (t: GroupResource) => `${t.group}/${t.resource}`;
/** The type a {@link typeKey} names (groups hold no slash). */
const typeOfKey = (key: string): GroupResource => ({ group: key.slice(0, key.indexOf('/')), resource: key.slice(key.indexOf('/') + 1) });

/** Deadlocks and serialization failures are retried: the transaction had no effect. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export type Db = Kysely<Database> | Transaction<Database>;

interface Row {
  namespace: string;
  name: string;
  resource_version: string | number;
  value: unknown;
}

function toStored(t: GroupResource, row: Row): StoredObject {
  return {
    key: { group: t.group, resource: t.resource, namespace: row.namespace, name: row.name },
    resourceVersion: Number(row.resource_version),
    value: row.value as JsonObject,
  };
}

/**
 * Every type's versions as one JSON text: one row, not one per type, and a text equal to the last one read means the
 * versions are the ones already parsed (SqlStorage.versionsFrom). The rows come in the table's physical order, which
 * moves only when a row is written, and then the text changes anyway: sorting them cost a fifth of the statement.
 */
const VERSIONS_JSON = `select coalesce(json_agg(json_build_array("group", "resource", "resource_version", "oldest_resumable")), '[]')::text as "versions" from "resource_version"`;

/**
 * {@link VERSIONS_JSON} and the one object at ($1, $2, $3, $4), if it exists, in one row of one statement, so from
 * one snapshot: the read scope of a GET of one object (storage/scoped-reads.ts).
 */
const VERSIONS_WITH_OBJECT = `${PREPARED}select v."versions", r."namespace", r."name", r."resource_version", r."value" from (${VERSIONS_JSON}) v
left join "resource" r on r."group" = $1 and r."resource" = $2 and r."namespace" = $3 and r."name" = $4`;

interface VersionsWithRow {
  versions: string;
  namespace: string | null;
  name: string | null;
  resource_version: string | number | null;
  value: unknown;
}

/**
 * Storage on PostgreSQL through kysely; the server (pg) and the embedded (PGlite) backends share every query.
 *
 * Ordering: a write locks its type's row in `resource_version`, takes max(now, last + 1) and commits while holding
 * it, so versions of one type are handed out, and become visible, in commit order (see
 * ../shared/reference/storage-notes.md). Every write is also a row of `resource_history`, which serves later list
 * pages at the first page's version and watches.
 */
export class SqlStorage implements Storage {
  /** The callers of {@link exclusively} in this process, by lock name: each waits for the one before it. */
  private readonly exclusive = new Map<string, Promise<void>>();
  /** The connections outside the pool that hold the locks of {@link exclusively} (PostgreSQL), by lock name. */
  private readonly lockSessions = new Map<string, Promise<LockSession>>();
  /** The counters this process's grouped transactions left, which the next batch may assume (known-counters.ts). */
  private readonly known = new KnownCounters();
  /** Writes of one type that arrive together share a transaction and its commit (see commit-group.ts). */
  private readonly commitGroups = new CommitGroups<SqlTx, Db>({
    transaction: (body, { deferred, session }) => {
      if (!this.instruments.fold) {
        return this.db.transaction().execute(async (trx) => {
          const tx = new SqlTx(trx, deferred);
          await body(tx);
          await tx.flush();
        });
      }
      // The transaction begins with its lock statement and ends with its last write (folded-statements.ts).
      const run = async (conn: Db) => {
        const tx = new SqlTx(conn, deferred, true, this.known);
        try {
          await body(tx);
          await tx.commit();
        } catch (err) {
          // What it knew of the counters stays: a batch assuming a counter that moved writes nothing (see confirm).
          await tx.rollback().catch(() => undefined);
          throw err;
        }
        tx.committed();
      };
      return session ? run(session) : this.db.connection().execute(run);
    },
    // Back-to-back batches of a group keep their connection (PostgreSQL; the embedded database has one anyway).
    session: (fn) => (this.instruments.fold ? this.db.connection().execute(fn) : fn(this.db)),
    deferredFailed: (err) => err instanceof DeferredWriteRefused,
    savepoint: (tx) => tx.savepoint(),
    rollbackTo: (tx) => tx.rollbackToSavepoint(),
    retryable: (err) => RETRYABLE.has((err as { code?: string }).code ?? ''),
    maxAttempts: MAX_ATTEMPTS,
  });

  constructor(
    private readonly db: Kysely<Database>,
    readonly backend: 'postgres' | 'embedded',
    private readonly instruments: {
      pool?: { totalCount: number; idleCount: number; waitingCount: number };
      queries?: Set<QueryObserver>;
      lockSession?: () => LockSession;
      soleWriter?: SoleWriter;
      /** A grouped write's transaction may begin with its lock and end with its write (folded-statements.ts: the client folds). */
      fold?: boolean;
    } = {},
  ) {
    this.hot = {
      get: CompiledQuery.raw(PREPARED + selectObject(db, { group: '', resource: '', namespace: '', name: '' }).compile().sql, []),
      allVersions: CompiledQuery.raw(PREPARED + VERSIONS_JSON, []),
    };
  }

  /**
   * The SQL of the reads every authenticated request makes (its read scope's versions, then the object), built and
   * compiled once: kysely would build and compile the same text at every call. Only the parameters change.
   */
  private readonly hot;

  /**
   * The last versions read, as text and parsed (versionsFrom), and the sole writer's mark taken before reading them
   * (the embedded database; see unchangedVersions).
   */
  private lastVersions?: { text: string; versions: readonly TypeVersions[]; mark?: number };

  poolStats(): PoolStats | undefined {
    const p = this.instruments.pool;
    return p && { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount };
  }

  observeQueries(observer: QueryObserver): () => void {
    const observers = this.instruments.queries;
    if (!observers) return () => undefined;
    observers.add(observer);
    return () => observers.delete(observer);
  }

  async migrate(opts: { lockTimeoutSeconds?: number } = {}): Promise<void> {
    const run = async () => {
      const { error } = await new Migrator({ db: this.db, provider: migrationProvider }).migrateToLatest();
      if (error) throw error;
    };
    // The embedded database has one process by construction (its lock file) and one connection.
    if (this.backend === 'embedded') return run();
    // kysely's own migration lock waits up to an hour; replicas first take this one, which gives up in time.
    await this.db.connection().execute(async (conn) => {
      await sql`SELECT set_config('lock_timeout', ${`${opts.lockTimeoutSeconds ?? 60}s`}, false)`.execute(conn);
      try {
        await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(conn);
      } catch (err) {
        if ((err as { code?: string }).code !== '55P03') throw err;
        throw new StorageError(
          'Unavailable',
          undefined,
          `the database migration lock was not free within ${opts.lockTimeoutSeconds ?? 60}s (another replica may be migrating)`,
        );
      } finally {
        await sql`RESET lock_timeout`.execute(conn);
      }
      try {
        await run();
      } finally {
        await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(conn);
      }
    });
  }

  async registerTypes(types: readonly GroupResource[]): Promise<void> {
    for (const t of types) {
      await this.db
        .insertInto('resource_version')
        .values({ group: t.group, resource: t.resource, resource_version: nowMicros(), oldest_resumable: 0 })
        .onConflict((oc) => oc.columns(['group', 'resource']).doNothing())
        .execute();
    }
  }

  async exclusively<T>(name: string, fn: () => Promise<T>): Promise<T> {
    // One queue per lock name in this process first: the embedded database needs nothing more, and PostgreSQL then
    // sees one waiter per process, not one connection per caller.
    const previous = this.exclusive.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const queued = previous.then(() => mine);
    this.exclusive.set(name, queued);
    await previous;
    try {
      if (this.backend === 'embedded') return await fn();
      // A session outside the pool holds the lock, so `fn` has the whole pool: a pool connection held by the lock
      // left a pool of max_open_conn = 1 (two, its floor) one connection, and work needing two at once waited for
      // a connection that only its own end would free.
      const key = `svc-exclusive:${name}`;
      await this.lockSession(name, (session) => session.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]));
      try {
        return await fn();
      } finally {
        await this.lockSession(name, (session) => session.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]));
      }
    } finally {
      release();
      if (this.exclusive.get(name) === queued) this.exclusive.delete(name);
    }
  }

  /**
   * Runs a query on the lock session of `name` (one PostgreSQL connection outside the pool per lock name, opened at
   * its first use and kept until close); a session whose query fails is ended, and the next use opens another (a
   * session lock ends with its connection).
   */
  private async lockSession(name: string, query: (session: LockSession) => Promise<unknown>): Promise<void> {
    const open = this.instruments.lockSession;
    if (!open) throw new StorageError('Unavailable', undefined, 'no lock session for this database');
    let session = this.lockSessions.get(name);
    if (!session) {
      const opened = open();
      session = opened.connect().then(() => opened, async (err: unknown) => {
        await opened.end().catch(() => undefined);
        throw err;
      });
      this.lockSessions.set(name, session);
    }
    try {
      await query(await session);
    } catch (err) {
      if (this.lockSessions.get(name) === session) this.lockSessions.delete(name);
      await session.then((s) => s.end()).catch(() => undefined);
      throw err;
    }
  }

  async transact<T>(fn: (tx: StorageTx) => Promise<T>, opts: { group?: string } = {}): Promise<T> {
    if (opts.group) return this.commitGroups.run(opts.group, (tx) => tx.run(fn));
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute((trx) => new SqlTx(trx).run(fn));
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      }
    }
  }

  async get(key: ResourceKey): Promise<StoredObject | undefined> {
    const { rows } = await this.db.executeQuery<Row>({ ...this.hot.get, parameters: [key.group, key.resource, key.namespace, key.name] });
    return rows[0] ? toStored(key, rows[0]) : undefined;
  }

  async list(query: ListQuery): Promise<ListPage> {
    // One snapshot for the version and the rows, so the page is the collection exactly at that version: one
    // statement for a page of the current state, else a repeatable-read transaction.
    const current = query.atResourceVersion === undefined && query.names?.length !== 0 && query.folders?.length !== 0;
    const page = current ? await listCurrentWithVersion(this.db, query) : undefined;
    return page ?? this.db.transaction().setIsolationLevel('repeatable read').execute((trx) => listObjects(trx, query));
  }

  count(q: CountQuery): Promise<number> {
    return countObjects(this.db, q);
  }

  search(query: SearchQuery): Promise<{ hits: SearchHit[]; more: boolean }> {
    return searchRows(this.db, query);
  }

  referrers(query: ReferrersQuery): Promise<Reference[]> {
    return referrerRows(this.db, query);
  }

  page(query: PageQuery): Promise<Page> {
    return pageRows(this.db, query);
  }

  tagCounts(query: TagCountQuery): Promise<{ tag: string; count: number }[]> {
    return tagCountRows(this.db, query);
  }

  syncSearchIndex(type: GroupResource, fields: (value: JsonObject) => SearchFields): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await new SqlTx(trx).lockTypes([type]);
      return syncSearchRows(trx, type, fields);
    });
  }

  async redactHistory(t: GroupResource, paths: readonly (readonly string[])[]): Promise<number> {
    let changed = 0;
    for (const p of paths) {
      const path = sql`${`{${p.map((step) => `"${step.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;
      const res = await this.db
        .updateTable('resource_history')
        .set({ value: sql`value #- ${path}` as unknown as string })
        .where('group', '=', t.group)
        .where('resource', '=', t.resource)
        .where(sql<boolean>`value #> ${path} IS NOT NULL`)
        .executeTakeFirst();
      changed += Number(res.numUpdatedRows);
    }
    return changed;
  }

  syncUniqueKeys(type: GroupResource, fields: readonly string[], keysOf: (value: JsonObject) => readonly UniqueKey[]): Promise<{ written: number; shared: number }> {
    return this.db.transaction().execute(async (trx) => {
      await new SqlTx(trx).lockTypes([type]);
      return syncUniqueRows(trx, type, fields, keysOf);
    });
  }

  async versions(t: GroupResource): Promise<{ current: number; oldestResumable: number }> {
    const row = await this.db
      .selectFrom('resource_version')
      .select(['resource_version', 'oldest_resumable'])
      .where('group', '=', t.group)
      .where('resource', '=', t.resource)
      .executeTakeFirst();
    return { current: Number(row?.resource_version ?? 0), oldestResumable: Number(row?.oldest_resumable ?? 0) };
  }

  async allVersionsWith(key: ResourceKey): Promise<{ versions: readonly TypeVersions[]; object: StoredObject | undefined }> {
    const known = this.unchangedVersions();
    if (known) return { versions: known, object: await this.get(key) };
    const mark = this.instruments.soleWriter?.mark();
    const { rows } = await this.db.executeQuery<VersionsWithRow>(CompiledQuery.raw(VERSIONS_WITH_OBJECT, [key.group, key.resource, key.namespace, key.name]));
    const r = rows[0]!;
    const object = r.name === null ? undefined : toStored(key, { namespace: r.namespace!, name: r.name, resource_version: r.resource_version!, value: r.value });
    return { versions: this.versionsFrom(r.versions, mark), object };
  }

  /**
   * Every type's versions, read by a statement sent after the call: the calls made before the event loop's next
   * check phase share it (issue 16). Requests that arrive together (a batch of creates answered together is
   * followed by their clients' next requests together) are parsed in one poll phase, and each asks for its scope's
   * versions there: one statement then serves them all, instead of one round trip each. It is sent after every
   * call it answers, so it sees whatever committed before any of them (a revoked token, a changed permission).
   */
  allVersions(): Promise<readonly TypeVersions[]> {
    const known = this.unchangedVersions();
    if (known) return Promise.resolve(known);
    return (this.sharedVersionsRead ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.sharedVersionsRead = undefined;
      return this.readVersions();
    }));
  }

  /** The versions read the calls of {@link allVersions} made since it was last sent share, not sent yet. */
  private sharedVersionsRead?: Promise<readonly TypeVersions[]>;

  private async readVersions(): Promise<readonly TypeVersions[]> {
    const known = this.unchangedVersions();
    if (known) return known;
    const mark = this.instruments.soleWriter?.mark();
    const { rows } = await this.db.executeQuery<{ versions: string }>(this.hot.allVersions);
    return this.versionsFrom(rows[0]!.versions, mark);
  }

  /**
   * The versions read last, when this process is the database's only writer and has written nothing since they were
   * read (the embedded database: its data folder is locked to one process): then they are still every type's
   * versions, and a request's read scope costs no statement.
   */
  private unchangedVersions(): readonly TypeVersions[] | undefined {
    const last = this.lastVersions;
    return last?.mark !== undefined && this.instruments.soleWriter?.unchangedSince(last.mark) ? last.versions : undefined;
  }

  /** The versions of {@link VERSIONS_JSON}'s text: those of the last text read when it is the same (nothing moved). */
  private versionsFrom(text: string, mark?: number): readonly TypeVersions[] {
    const last = this.lastVersions;
    if (last?.text === text) {
      last.mark = mark;
      return last.versions;
    }
    const rows = JSON.parse(text) as [string, string, string | number, string | number | null][];
    const versions = Object.freeze(rows.map(([group, resource, current, oldest]) => Object.freeze({ group, resource, current: Number(current), oldestResumable: Number(oldest) })));
    this.lastVersions = { text, versions, mark };
    return versions;
  }

  async eventsSince(t: GroupResource, after: number, limit: number): Promise<HistoryEvent[]> {
    const rows = await this.db
      .selectFrom('resource_history')
      .select(['namespace', 'name', 'resource_version', 'previous_resource_version', 'action', 'value'])
      .where('group', '=', t.group)
      .where('resource', '=', t.resource)
      .where('resource_version', '>', after)
      .orderBy('resource_version')
      .limit(limit)
      .execute();
    return rows.map((r) => toEvent(t, r));
  }

  async objectHistory(key: ResourceKey, opts: { limit: number; before?: number }): Promise<HistoryEvent[]> {
    let q = this.db
      .selectFrom('resource_history')
      .select(['namespace', 'name', 'resource_version', 'previous_resource_version', 'action', 'value'])
      .where('group', '=', key.group)
      .where('resource', '=', key.resource)
      .where('namespace', '=', key.namespace)
      .where('name', '=', key.name);
    if (opts.before !== undefined) q = q.where('resource_version', '<', opts.before);
    const rows = await q.orderBy('resource_version', 'desc').limit(opts.limit).execute();
    return rows.map((r) => toEvent(key, r));
  }

  objectVersions(key: ResourceKey, query: VersionsQuery): Promise<HistoryEvent[]> {
    return versionRows(this.db, key, query);
  }

  async compact(t: GroupResource, before: number, opts: { keepSuperseded: boolean | { generations: number } }): Promise<{ deleted: number }> {
    const keep = opts.keepSuperseded;
    return this.db.transaction().execute(async (trx) => {
      // The newest row of each name below `before` is what a list at `before` shows: keep it unless it is a
      // deletion (then the name's whole past goes); drop what it superseded unless the kind keeps its history, or
      // keeps only its newest generations and the row is of an older one.
      const superseded =
        keep === true ? sql`false` : keep === false ? sql`true` : sql`h.resource_version IN (SELECT resource_version FROM ranked WHERE generation_rank > ${keep.generations})`;
      // Ranks each object's generations newest first; a name's earlier lives (other uids) rank on their own.
      const ranked = sql`
        ranked AS (
          SELECT resource_version, dense_rank() OVER (
            PARTITION BY namespace, name, value->'metadata'->>'uid'
            ORDER BY coalesce((value->'metadata'->>'generation')::bigint, 0) DESC) AS generation_rank
          FROM resource_history
          WHERE "group" = ${t.group} AND resource = ${t.resource}
        ),`;
      const result = await sql`
        WITH ${typeof keep === 'object' ? ranked : sql``} latest AS (
          SELECT DISTINCT ON (namespace, name) namespace, name, resource_version, action
          FROM resource_history
          WHERE "group" = ${t.group} AND resource = ${t.resource} AND resource_version < ${before}
          ORDER BY namespace, name, resource_version DESC
        )
        DELETE FROM resource_history h USING latest l
        WHERE h."group" = ${t.group} AND h.resource = ${t.resource}
          AND h.namespace = l.namespace AND h.name = l.name
          AND h.resource_version <= l.resource_version
          AND (l.action = 'DELETED' OR (h.resource_version < l.resource_version AND ${superseded}))`.execute(trx);
      await trx
        .updateTable('resource_version')
        .set({ oldest_resumable: sql<number>`greatest(oldest_resumable, ${before}::bigint)` })
        .where('group', '=', t.group)
        .where('resource', '=', t.resource)
        .execute();
      return { deleted: Number(result.numAffectedRows ?? 0) };
    });
  }

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }

  async close(): Promise<void> {
    const sessions = [...this.lockSessions.values()];
    this.lockSessions.clear();
    await Promise.all(sessions.map((s) => s.then((session) => session.end()).catch(() => undefined)));
    await this.db.destroy();
  }
}

/** A PostgreSQL connection of its own (pg's Client), for the session locks of {@link SqlStorage.exclusively}. */
export interface LockSession {
  connect(): Promise<unknown>;
  query(text: string, values: unknown[]): Promise<unknown>;
  end(): Promise<unknown>;
}

function toEvent(t: GroupResource, r: Row & { previous_resource_version: string | number; action: string }): HistoryEvent {
  return { ...toStored(t, r), action: r.action as WatchAction, previousResourceVersion: Number(r.previous_resource_version) };
}

/** One object by its key; its parameters are in this order: group, resource, namespace, name. */
function selectObject(db: Db, key: ResourceKey) {
  return db
    .selectFrom('resource')
    .select(['namespace', 'name', 'resource_version', 'value'])
    .where('group', '=', key.group)
    .where('resource', '=', key.resource)
    .where('namespace', '=', key.namespace)
    .where('name', '=', key.name);
}

async function getObject(db: Db, key: ResourceKey, lock?: 'share' | 'update'): Promise<StoredObject | undefined> {
  let q = selectObject(db, key);
  if (lock === 'share') q = q.forShare();
  if (lock === 'update') q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? toStored(key, row) : undefined;
}

/** How many objects of one type match now: one counting statement. */
async function countObjects(db: Db, q: CountQuery): Promise<number> {
  if (q.folders?.length === 0 || q.names?.length === 0) return 0;
  let query = db
    .selectFrom('resource as r')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('r.group', '=', q.group)
    .where('r.resource', '=', q.resource);
  if (!q.everyNamespace) query = query.where('r.namespace', '=', q.namespace);
  if (q.folders) query = query.where('r.folder', 'in', [...q.folders]);
  if (q.names) query = query.where('r.name', 'in', [...q.names]);
  for (const p of labelFilterSql('r', q.labels ?? [])) query = query.where(p);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function listObjects(db: Db, q: ListQuery): Promise<ListPage> {
  const versions = await db
    .selectFrom('resource_version')
    .select('resource_version')
    .where('group', '=', q.group)
    .where('resource', '=', q.resource)
    .executeTakeFirst();
  const resourceVersion = q.atResourceVersion ?? Number(versions?.resource_version ?? 0);
  if (q.names && q.names.length === 0) return { items: [], resourceVersion, more: false };
  if (q.folders && q.folders.length === 0) return { items: [], resourceVersion, more: false };

  const rows = q.atResourceVersion === undefined ? await listCurrent(db, q) : await listAt(db, q, q.atResourceVersion);
  const more = q.limit !== undefined && rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  return { items: page.map((r) => toStored(q, r)), resourceVersion, more };
}

/**
 * A page of the current state and the type's version in one statement (one snapshot): the version is an
 * uncorrelated subquery in the page's select list (evaluated once), so the page keeps its own ORDER BY ... LIMIT and
 * is read in index order. (Joining the counter row with the page instead made PostgreSQL sort the page's rows, values
 * and all, a second time: ~30 % of the statement's time for a page of 100 dashboards.) Undefined when the page is
 * empty (the statement then has no row to carry the version) or the type has no counter yet: the caller reads both
 * in a transaction.
 */
async function listCurrentWithVersion(db: Db, q: ListQuery): Promise<ListPage | undefined> {
  const version = db.selectFrom('resource_version as v').select('v.resource_version').where('v.group', '=', q.group).where('v.resource', '=', q.resource);
  const rows = await currentQuery(db, q)
    .select(version.as('list_version'))
    .execute();
  if (rows.length === 0 || rows[0].list_version === null) return undefined;
  const resourceVersion = Number(rows[0].list_version);
  const more = q.limit !== undefined && rows.length > q.limit;
  return { items: (more ? rows.slice(0, q.limit) : rows).map((r) => toStored(q, r)), resourceVersion, more };
}

function listCurrent(db: Db, q: ListQuery): Promise<Row[]> {
  return currentQuery(db, q).execute();
}

function currentQuery(db: Db, q: ListQuery) {
  let query = db
    .selectFrom('resource as r')
    .select(['r.namespace', 'r.name', 'r.resource_version', 'r.value'])
    .where('r.group', '=', q.group)
    .where('r.resource', '=', q.resource);
  if (!q.everyNamespace) query = query.where('r.namespace', '=', q.namespace);
  if (q.after !== undefined) query = query.where('r.name', '>', q.after);
  if (q.names) query = query.where('r.name', 'in', [...q.names]);
  if (q.excludeNames?.length) query = query.where('r.name', 'not in', [...q.excludeNames]);
  if (q.folders) query = query.where('r.folder', 'in', [...q.folders]);
  for (const p of labelFilterSql('r', q.labels ?? [])) query = query.where(p);
  if (q.contains) query = query.where(containsSql('r', q.contains));
  if (q.everyNamespace) query = query.orderBy('r.namespace');
  query = query.orderBy('r.name');
  if (q.limit !== undefined) query = query.limit(q.limit + 1);
  return query;
}

/**
 * The collection as it was at `rv`: per name, the newest history row at or below rv, unless it is a deletion.
 *
 * A skip scan: a recursive query descends `resource_history_key_idx` once per name (the newest version <= rv), in
 * batches of a bounded number of names, then fetches those rows by primary key and says which match the filters.
 * A page so costs the same whatever the collection's size and however many versions each object has; the batch
 * loop ends when the page is full or the names run out.
 */
async function listAt(db: Db, q: ListQuery, rv: number): Promise<Row[]> {
  if (q.names) return listNamesAt(db, q, rv);
  const want = q.limit === undefined ? Infinity : q.limit + 1;
  // Without a label filter nearly every name matches (deletions are rare): read a page's worth plus a little.
  // With one, matches are sparse: read wider batches to spare round trips.
  const pageSize = q.limit === undefined ? 500 : q.limit + 1;
  const batch = Math.min(q.labels?.length ? Math.max(8 * pageSize, 500) : pageSize + 16, 1000);
  const rows: Row[] = [];
  let after = q.after ?? '';
  for (;;) {
    const key = sql`"group" = ${q.group} AND resource = ${q.resource} AND namespace = ${q.namespace}`;
    const matches = [
      sql<boolean>`h.action <> 'DELETED'`,
      ...(q.excludeNames?.length ? [sql<boolean>`h.name NOT IN (${sql.join([...q.excludeNames])})`] : []),
      ...(q.folders ? [sql<boolean>`h.folder IN (${sql.join([...q.folders])})`] : []),
      ...labelFilterSql('h', q.labels ?? []),
    ];
    const { rows: found } = await sql<Row & { matches: boolean }>`
      WITH RECURSIVE names(name, rv, i) AS (
        (SELECT name, resource_version, 1 FROM resource_history
          WHERE ${key} AND name > ${after} AND resource_version <= ${rv}
          ORDER BY name, resource_version DESC LIMIT 1)
        UNION ALL
        SELECT nx.name, nx.resource_version, n.i + 1 FROM names n
        CROSS JOIN LATERAL (
          SELECT name, resource_version FROM resource_history
          WHERE ${key} AND name > n.name AND resource_version <= ${rv}
          ORDER BY name, resource_version DESC LIMIT 1) nx
        WHERE n.i < ${batch}
      )
      SELECT h.namespace, h.name, h.resource_version, m.matches, CASE WHEN m.matches THEN h.value END AS value
      FROM names n
      CROSS JOIN LATERAL (
        SELECT * FROM resource_history
        WHERE "group" = ${q.group} AND resource = ${q.resource} AND resource_version = n.rv LIMIT 1) h
      -- Only matching rows carry their value: a sparse selector must not ship every scanned object.
      CROSS JOIN LATERAL (SELECT (${sql.join(matches, sql` AND `)}) AS matches) m
      ORDER BY n.name`.execute(db);
    for (const r of found) {
      if (r.matches) rows.push(r);
      if (rows.length >= want) return rows;
    }
    if (found.length < batch) return rows;
    after = found[found.length - 1].name;
  }
}

/** A field selector on names reads those names' newest rows directly. */
function listNamesAt(db: Db, q: ListQuery, rv: number): Promise<Row[]> {
  let inner = db
    .selectFrom('resource_history as h')
    .distinctOn('h.name')
    .select(['h.namespace', 'h.name', 'h.resource_version', 'h.value', 'h.action', 'h.folder'])
    .where('h.group', '=', q.group)
    .where('h.resource', '=', q.resource)
    .where('h.namespace', '=', q.namespace)
    .where('h.resource_version', '<=', rv)
    .where('h.name', 'in', [...q.names!]);
  if (q.after !== undefined) inner = inner.where('h.name', '>', q.after);
  if (q.excludeNames?.length) inner = inner.where('h.name', 'not in', [...q.excludeNames]);
  inner = inner.orderBy('h.name').orderBy('h.resource_version', 'desc');

  let query = db
    .selectFrom(inner.as('h'))
    .select(['h.namespace', 'h.name', 'h.resource_version', 'h.value'])
    .where('h.action', '<>', 'DELETED');
  if (q.folders) query = query.where('h.folder', 'in', [...q.folders]);
  for (const p of labelFilterSql('h', q.labels ?? [])) query = query.where(p);
  query = query.orderBy('h.name');
  if (q.limit !== undefined) query = query.limit(q.limit + 1);
  return query.execute();
}

/**
 * A type's counter as the transaction holding its lock sees it: the last version and internal id handed out, and
 * whether that id is not stored yet (the type's next write stores it, else {@link SqlTx.finish}).
 */
interface Counter {
  version: number;
  internalId: number;
  idUnstored: boolean;
}

/** A deferred create did not apply (see {@link SqlTx.flush}): only ever seen by the commit group, which runs its members again. */
class DeferredWriteRefused extends Error {}

/**
 * The counter rows of the types ($1[i], $2[i]), locked for the transaction's writes of them: one statement for all
 * of a write's types, each locked in the global order (`group/resource`, bytewise, as typeKey sorts: rows are
 * locked as they come out of the sort).
 */
const LOCK_COUNTERS = `${PREPARED}select "group", "resource", "resource_version", "last_internal_id" from "resource_version"
where ("group", "resource") in (select * from unnest($1::text[], $2::text[]))
order by ("group" || '/' || "resource") collate "C" for update`;

interface CounterRow {
  group: string;
  resource: string;
  resource_version: string | number;
  last_internal_id: string | number;
}

class SqlTx implements StorageTx {
  /** The counters this transaction holds locked. */
  private counters = new Map<string, Counter>();
  /** The counters at the latest savepoint: rolling back to it releases the locks taken since (PostgreSQL does). */
  private saved?: Map<string, Counter>;
  /** The creates not written yet (see {@link flush}). */
  private pending: { key: ResourceKey; w: ObjectWrite }[] = [];
  /** The counters taken from `known` instead of being locked and read: what was assumed of each, by type. */
  private assumed?: Map<string, CounterState>;

  /**
   * `deferring`: plain creates (no unique keys, no references) are written by the transaction's next statement, or
   * at its end, all together in one statement. Only for a commit group's optimistic batch: a create that then does
   * not apply cannot answer its caller where it was made, so the whole batch runs again without deferring.
   * `unbegun`: `db` is a connection with no transaction yet: the first statement begins it, the lock of the types
   * in the same message, and {@link commit} or {@link rollback} ends it (folded-statements.ts).
   * `known`: with `deferring` and `unbegun`, the types' counters may be assumed from there rather than locked and
   * read, until a statement needs them locked; a transaction that sends no other statement then locks them, writes
   * its creates if each counter still holds the version assumed, and commits, in one statement outside any
   * transaction (known-counters.ts).
   */
  constructor(
    private readonly db: Db,
    private readonly deferring = false,
    private unbegun = false,
    private readonly known?: KnownCounters,
  ) {}

  /** Before a statement: the assumed counters locked, the transaction begun, the deferred creates written. */
  private async ready(): Promise<void> {
    await this.confirm();
    await this.begin();
    await this.flush();
  }

  /**
   * Locks and reads the counters assumed so far (beginning the transaction). One that moved since (another process
   * wrote the type) is taken as read, unless this transaction handed out versions or ids from it already: then the
   * transaction fails as a deferred write that did not apply, and its batch runs again with every counter locked.
   */
  private async confirm(): Promise<void> {
    const assumed = this.assumed;
    if (!assumed) return;
    this.assumed = undefined;
    const rows = await this.lockRows([...assumed.keys()].map(typeOfKey));
    for (const row of rows) {
      const key = typeKey({ group: row.group, resource: row.resource });
      const from = assumed.get(key)!;
      const c = this.counters.get(key)!;
      const [version, internalId] = [Number(row.resource_version), Number(row.last_internal_id)];
      if (version === from.version && internalId === from.internalId) continue;
      this.known?.observed(key, version);
      if (c.version !== from.version || c.internalId !== from.internalId) throw new DeferredWriteRefused(`the counter of ${key} moved`);
      c.version = version;
      c.internalId = internalId;
    }
  }

  /** After the commit: the counters as this transaction left them, for the next batch to assume. */
  committed(): void {
    if (!this.known) return;
    // An internal id handed out and not stored is not in the counter's row.
    for (const [key, c] of this.counters) if (!c.idUnstored) this.known.committed(key, c);
  }

  /** Sends BEGIN if the transaction has not begun. */
  private async begin(): Promise<void> {
    if (!this.unbegun) return;
    await sql`begin`.execute(this.db);
    this.unbegun = false;
  }

  /**
   * Ends a transaction this began (nothing to end when no statement ran): writes the deferred creates and commits,
   * in one message when there are several (folded-statements.ts; one goes by its prepared statement, then COMMIT).
   */
  async commit(): Promise<void> {
    if (this.assumed) return this.commitAssumed(this.assumed);
    if (this.unbegun) return;
    if (this.pending.length > 1) {
      const writes = this.pending;
      this.pending = [];
      try {
        await insertObjects(this.db, writes, { thenCommit: true });
      } catch (err) {
        if ((err as { code?: string }).code === NOT_ALL_WRITTEN) throw new DeferredWriteRefused(`some of ${writes.length} deferred creates did not apply`);
        throw err;
      }
      return;
    }
    await this.flush();
    await sql`commit`.execute(this.db);
  }

  /**
   * Ends a transaction that only assumed its counters, which never began: one statement, a transaction of its own,
   * locks them, writes the deferred creates where each counter still holds the version assumed, and commits; nothing
   * is written when one moved (DeferredWriteRefused).
   */
  private async commitAssumed(assumed: Map<string, CounterState>): Promise<void> {
    this.assumed = undefined;
    if (!this.pending.length) return;
    const writes = this.pending;
    this.pending = [];
    // One statement, a transaction of its own: nothing begins, nothing is left to roll back.
    try {
      await insertObjects(this.db, writes, { assumed });
    } catch (err) {
      if ((err as { code?: string }).code === NOT_ALL_WRITTEN) throw new DeferredWriteRefused(`some of ${writes.length} deferred creates did not apply`);
      throw err;
    }
  }

  /** Rolls back a transaction this began. */
  async rollback(): Promise<void> {
    if (!this.unbegun) await sql`rollback`.execute(this.db);
  }

  /**
   * Writes the deferred creates, in one statement; throws {@link DeferredWriteRefused} when one of them did not
   * apply. Every statement of the transaction is preceded by it, so each sees what was written before it.
   */
  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const writes = this.pending;
    this.pending = [];
    const written = writes.length === 1 ? Number(await insertObject(this.db, writes[0].key, writes[0].w)) : await insertObjects(this.db, writes);
    if (written !== writes.length) throw new DeferredWriteRefused(`${writes.length - written} of ${writes.length} deferred creates did not apply`);
  }

  async count(q: CountQuery): Promise<number> {
    await this.ready();
    return countObjects(this.db, q);
  }

  /**
   * Starts a savepoint. Each one is left open (no RELEASE, a round trip saved per grouped write): savepoints of one
   * name nest, and a rollback goes back to the latest, which is the only one ever rolled back to.
   */
  async savepoint(): Promise<void> {
    await this.ready();
    await sql`SAVEPOINT grouped`.execute(this.db);
    this.saved = new Map([...this.counters].map(([k, c]) => [k, { ...c }]));
  }

  async rollbackToSavepoint(): Promise<void> {
    this.pending = [];
    await sql`ROLLBACK TO SAVEPOINT grouped`.execute(this.db);
    this.counters = this.saved ?? this.counters;
    this.saved = undefined;
  }

  /** Runs `fn` on this transaction, then stores what it left unstored (see {@link finish}). */
  async run<T>(fn: (tx: StorageTx) => Promise<T>): Promise<T> {
    const result = await fn(this);
    await this.finish();
    return result;
  }

  /** Stores the internal ids handed out that no write stored (a transaction that numbered and wrote nothing of the type). */
  private async finish(): Promise<void> {
    for (const [k, c] of this.counters) {
      if (!c.idUnstored) continue;
      const [group, resource] = k.split('/');
      await this.ready();
      await sql`UPDATE resource_version SET last_internal_id = greatest(last_internal_id, ${c.internalId}::bigint) WHERE "group" = ${group} AND resource = ${resource}`.execute(this.db);
      c.idUnstored = false;
    }
  }

  async lockTypes(types: readonly GroupResource[]): Promise<void> {
    const todo = new Map(types.filter((t) => !this.counters.has(typeKey(t))).map((t) => [typeKey(t), t]));
    if (!todo.size) return;
    if (this.assume(todo)) return;
    await this.confirm();
    const lock = async (ts: GroupResource[]) => {
      for (const row of await this.lockRows(ts)) {
        const key = typeKey({ group: row.group, resource: row.resource });
        this.known?.observed(key, Number(row.resource_version));
        this.counters.set(key, { version: Number(row.resource_version), internalId: Number(row.last_internal_id), idUnstored: false });
        todo.delete(key);
      }
    };
    await lock([...todo.values()]);
    if (!todo.size) return;
    // A type's first write: its counter row is made, then locked (after the others: a deadlock this may cause with
    // another first write is retried).
    const missing = [...todo.values()].sort((a, b) => (typeKey(a) < typeKey(b) ? -1 : 1));
    await this.db
      .insertInto('resource_version')
      .values(missing.map((t) => ({ group: t.group, resource: t.resource, resource_version: 0, oldest_resumable: 0 })))
      .onConflict((oc) => oc.columns(['group', 'resource']).doNothing())
      .execute();
    await lock(missing);
  }

  /**
   * Takes the counters of `todo` from `known` without a statement, when this transaction may (see the constructor)
   * and every one of them is known; false otherwise.
   */
  private assume(todo: Map<string, GroupResource>): boolean {
    if (!this.known || !this.deferring || !this.unbegun) return false;
    const found = [...todo.keys()].map((key) => this.known!.assumable(key));
    if (found.some((c) => !c) || !foldedLock([...todo.values()])) return false;
    this.assumed ??= new Map();
    [...todo.keys()].forEach((key, i) => {
      const c = found[i]!;
      this.counters.set(key, { version: c.version, internalId: c.internalId, idUnstored: false });
      this.assumed!.set(key, { version: c.version, internalId: c.internalId });
    });
    return true;
  }

  /** Locks the counter rows of `types` (beginning the transaction) and answers them. */
  private async lockRows(types: readonly GroupResource[]): Promise<CounterRow[]> {
    const folded = this.unbegun ? foldedLock(types) : undefined;
    if (!folded) await this.begin();
    const query = folded ? CompiledQuery.raw(folded, []) : CompiledQuery.raw(LOCK_COUNTERS, [types.map((t) => t.group), types.map((t) => t.resource)]);
    // Begun once sent, even when its lock fails (cancelled, timed out): the transaction is then rolled back, so its
    // connection never goes back to the pool inside a failed transaction.
    this.unbegun = false;
    const { rows } = await this.db.executeQuery<CounterRow>(query);
    return rows;
  }

  async get(key: ResourceKey, opts?: { lock?: 'share' | 'update' }): Promise<StoredObject | undefined> {
    await this.ready();
    return getObject(this.db, key, opts?.lock);
  }

  async list(query: ListQuery): Promise<ListPage> {
    await this.ready();
    return listObjects(this.db, query);
  }

  async referrers(query: ReferrersQuery): Promise<Reference[]> {
    await this.ready();
    return referrerRows(this.db, query);
  }

  // Internal ids are counted in the locked counter as versions are: the write that uses one stores it.
  async nextInternalId(type: GroupResource): Promise<number> {
    await this.lockTypes([type]);
    const c = this.counters.get(typeKey(type))!;
    c.internalId++;
    c.idUnstored = true;
    return c.internalId;
  }

  async reserveInternalId(type: GroupResource, id: number): Promise<void> {
    await this.lockTypes([type]);
    const c = this.counters.get(typeKey(type))!;
    if (id <= c.internalId) return;
    c.internalId = id;
    c.idUnstored = true;
  }

  async create(key: ResourceKey, value: JsonObject, opts: WriteOptions): Promise<StoredObject> {
    await this.lockTypes([key]);
    // With the type's counter held no other writer of this type runs: the insert cannot race a create of the name,
    // and the unique keys are checked after it (a taken name answers before a taken unique value).
    const deferred = this.deferring && !opts.unique?.length && !opts.references?.length;
    // Its version is handed out from counters known to hold: locked and read, unless deferred (see confirm).
    if (!deferred) await this.ready();
    const w = this.objectWrite(key, value, opts);
    if (deferred) {
      // The statement that writes it stores the internal id it carries.
      this.pending.push({ key, w });
      this.counters.get(typeKey(key))!.idUnstored = false;
      return { key, resourceVersion: w.rv, value };
    }
    if (!(await this.stored(key, insertObject(this.db, key, w)))) throw new StorageError('KeyExists', key, `${key.name} already exists`);
    if (opts.unique) await writeUniqueKeys(this.db, key, opts.unique);
    // A new object has no references yet: nothing to replace.
    if (opts.references?.length) await writeReferences(this.db, key, opts.references, { replace: false });
    return { key, resourceVersion: w.rv, value };
  }

  async update(key: ResourceKey, value: JsonObject, expected: number, opts: WriteOptions): Promise<StoredObject> {
    await this.lockTypes([key]);
    await this.ready();
    const w = this.objectWrite(key, value, opts);
    if (!(await this.stored(key, updateObject(this.db, key, expected, w)))) throw await this.missing(key);
    if (opts.unique) await writeUniqueKeys(this.db, key, opts.unique);
    if (opts.references) await writeReferences(this.db, key, opts.references);
    return { key, resourceVersion: w.rv, value };
  }

  async delete(key: ResourceKey, expected?: number, finalValue?: JsonObject): Promise<StoredObject> {
    await this.lockTypes([key]);
    await this.ready();
    const w = this.versionWrite(key);
    const deleted = await this.stored(key, deleteObject(this.db, key, w, expected, finalValue && JSON.stringify(finalValue)));
    if (!deleted) throw await this.missing(key);
    return { key, resourceVersion: w.rv, value: deleted.value };
  }

  /** What a write of `value` stores (see write-sql.ts). */
  private objectWrite(key: ResourceKey, value: JsonObject, opts: WriteOptions): ObjectWrite {
    const json = JSON.stringify(value);
    // Named, not spread: `{ ...versionWrite, folder }` gets a hidden class of its own every time on Node 20 (pkg/meta/extend.ts).
    const { rv, internalId } = this.versionWrite(key);
    return { rv, internalId, folder: opts.folder, json, historyJson: opts.historyValue ? JSON.stringify(opts.historyValue) : json, search: opts.search };
  }

  /** The type's next version, and its last internal id when no write has stored it yet. */
  private versionWrite(t: GroupResource): { rv: number; internalId?: number } {
    const c = this.counters.get(typeKey(t))!;
    return { rv: this.nextVersion(t), internalId: c.idUnstored ? c.internalId : undefined };
  }

  /** Awaits a write statement of the type; once it ran, the internal id it carried is stored. */
  private async stored<T>(t: GroupResource, write: Promise<T>): Promise<T> {
    const result = await write;
    this.counters.get(typeKey(t))!.idUnstored = false;
    return result;
  }

  async deleteAll(q: DeleteAllQuery, opts: { historyValue?: (value: JsonObject) => JsonObject } = {}): Promise<number> {
    await this.lockTypes([q]);
    await this.ready();
    let finals: Map<string, string> | undefined;
    if (opts.historyValue) {
      const { items } = await listObjects(this.db, { group: q.group, resource: q.resource, namespace: q.namespace, everyNamespace: q.everyNamespace, labels: q.labels });
      if (!items.length) return 0;
      finals = new Map(items.map((s) => [`${s.key.namespace}/${s.key.name}`, JSON.stringify(opts.historyValue!(s.value))]));
    }
    const c = this.counters.get(typeKey(q))!;
    const first = Math.max(nowMicros(), c.version + 1);
    const deleted = await deleteObjects(this.db, q, first, finals);
    if (deleted) c.version = first + deleted - 1;
    return deleted;
  }

  /** Why a write at a version did not apply: the object is gone, or was changed since. */
  private async missing(key: ResourceKey): Promise<StorageError> {
    return (await getObject(this.db, key))
      ? new StorageError('Conflict', key, `${key.name} was modified`)
      : new StorageError('NotFound', key, `${key.name} not found`);
  }

  /** The next version of the type, max(now, last + 1): the write's own statement stores it in the counter row. */
  private nextVersion(t: GroupResource): number {
    const c = this.counters.get(typeKey(t))!;
    c.version = Math.max(nowMicros(), c.version + 1);
    return c.version;
  }
}

