import fs from 'node:fs';
import path from 'node:path';
import type { Extension, PGlite } from '@electric-sql/pglite';
import { type Dialect, Kysely, type LogEvent, PostgresDialect } from 'kysely';
import type { PGliteDialect } from 'kysely-pglite-dialect';
import { Client, Pool } from 'pg';
import { prepareMarked } from './postgres/prepared';
import { foldStatements } from './postgres/folded-statements';
import { type SoleWriter, soleWriter } from './postgres/sole-writer';
import { SqlStorage } from './postgres/sql-storage';
import type { Database } from './postgres/schema';
import { acquireDirLock } from './dir-lock';
import type { QueryObserver, Storage } from './types';

export interface StorageOptions {
  /** A PostgreSQL connection string; unset = the embedded database in `dataDir`. */
  url?: string;
  /** Where the embedded database lives (`<dataDir>/pglite`). */
  dataDir: string;
  /** How long start-up waits for another replica's migration before giving up (default 60). */
  migrationTimeoutSeconds?: number;
  /** Embedded only: keep the database in memory (tests). */
  inMemory?: boolean;
  /**
   * Embedded in memory only: start from this image of a data folder (from `embeddedImage`) instead of an empty
   * database, which skips initdb, two of the two and a half seconds an embedded database takes to open.
   */
  image?: Blob;
  maxConnections?: number;
  /** PostgreSQL: prepare the marked statements once per connection (postgres/prepared.ts); default true. */
  preparedStatements?: boolean;
}

/**
 * Opens PostgreSQL (pg pool) or, with no URL, the embedded PostgreSQL (PGlite) and brings the schema up to date.
 *
 * @example
 *   const storage = await openStorage({ url: process.env.SVC_DATABASE_URL, dataDir: './data' });
 */
export async function openStorage(opts: StorageOptions): Promise<Storage> {
  const storage = opts.url ? openServer(opts.url, opts.maxConnections ?? 10, opts.preparedStatements ?? true) : await openEmbedded(opts);
  try {
    await storage.migrate({ lockTimeoutSeconds: opts.migrationTimeoutSeconds });
  } catch (err) {
    await storage.close();
    throw err;
  }
  return storage;
}

function openServer(url: string, max: number, prepared: boolean): Storage {
  // Two connections at least: migrations hold one for their lock while kysely's migrator uses another.
  // A database that stops answering (packets dropped, not refused): connecting gives up after 10 s (503), and
  // connections send TCP keep-alives, so the system drops one whose peer is gone; a statement already sent waits for
  // its answer, while the health checks report the database failing at their deadline (pkg/server/health.ts).
  const pool = new Pool({ connectionString: url, max: Math.max(2, max), connectionTimeoutMillis: 10_000, keepAlive: true });
  // A client losing its connection emits 'error', which ends the process when nothing listens. The pool listens only
  // while a client is idle; a client lent to a transaction, between two of its queries, needs its own listener.
  // Nothing else is to be done there: the query in flight, or the next one, fails and reports the outage (503), and
  // the pool discards a client that is no longer queryable when it is released, so no dead connection is reused.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    // The statements marked PREPARED are parsed and planned once per connection.
    if (prepared) prepareMarked(client);
    // A grouped write's transaction begins with its lock statement and ends with its last write (two messages).
    foldStatements(client);
  });
  // The provisioning lock (Storage.exclusively) is held by a connection outside the pool, so the work it guards has
  // the whole pool: one connection beyond max_open_conn while a process holds or waits for it.
  const lockSession = () => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000, keepAlive: true });
    client.on('error', () => undefined);
    return client;
  };
  return sqlStorage(new PostgresDialect({ pool }), 'postgres', pool, lockSession, undefined, true);
}

/** The storage over a dialect, each query's duration told to the observers of `observeQueries` (kysely's log hook). */
function sqlStorage(dialect: Dialect, backend: 'postgres' | 'embedded', pool?: Pool, lockSession?: () => Client, writer?: SoleWriter, fold = false): SqlStorage {
  const queries = new Set<QueryObserver>();
  const log = (e: LogEvent) => {
    for (const observe of queries) observe(e.queryDurationMillis / 1000, e.level === 'error', e.query.sql);
  };
  return new SqlStorage(new Kysely<Database>({ dialect, log }), backend, { pool, queries, lockSession, soleWriter: writer, fold });
}

/**
 * The storage of an embedded database. This process is its only writer (its data folder is locked, or it lives in
 * memory), so the statements it runs say when the versions last read may have moved (postgres/sole-writer.ts).
 */
function embeddedStorage(pg: PGlite, Dialect: typeof PGliteDialect): SqlStorage {
  const writer = soleWriter();
  pg.query = writer.watch(pg.query.bind(pg)) as PGlite['query'];
  return sqlStorage(new Dialect(pg), 'embedded', undefined, undefined, writer);
}

/**
 * An image of an embedded database whose schema is up to date (PGlite's dumpDataDir, uncompressed tar): each test
 * suite opens its own database, and opening one from an image costs a quarter of creating it.
 *
 * @example
 *   const image = await embeddedImage();
 *   const storage = await openStorage({ dataDir: '', inMemory: true, image });
 */
export async function embeddedImage(): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  const pg = await PGlite.create({ extensions: await embeddedExtensions() });
  const storage = embeddedStorage(pg, PGliteDialect);
  try {
    await storage.migrate();
    return await pg.dumpDataDir('none');
  } finally {
    await storage.close();
  }
}

const PG_TRGM: string = '@electric-sql/pglite/contrib/pg_trgm';

/** pg_trgm serves the search index's title substring queries (migration 0004). */
async function embeddedExtensions(): Promise<Record<string, Extension>> {
  // The package exports its contrib modules only through `exports`, which this project's module resolution does not
  // read: the specifier is untyped.
  const { pg_trgm } = (await import(PG_TRGM)) as { pg_trgm: Extension };
  return { pg_trgm };
}

async function openEmbedded(opts: StorageOptions): Promise<Storage> {
  // PGlite is ESM with a WASM payload; load it only when the embedded backend is used.
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  const extensions = await embeddedExtensions();
  if (opts.inMemory) {
    const pg = await PGlite.create({ extensions, loadDataDir: opts.image });
    return embeddedStorage(pg, PGliteDialect);
  }
  const dir = path.resolve(opts.dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const release = await acquireDirLock(path.resolve(opts.dataDir));
  try {
    const pg = await PGlite.create(dir, { extensions });
    const storage = embeddedStorage(pg, PGliteDialect);
    const close = storage.close.bind(storage);
    storage.close = async () => {
      try {
        await close();
      } finally {
        await release();
      }
    };
    return storage;
  } catch (err) {
    await release();
    throw err;
  }
}
