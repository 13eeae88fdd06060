// The benchmark's database: a throw-away PostgreSQL database (or in-memory PGlite), the server's storage on it,
// a second "probe" storage that records the SQL the server sends, and a raw client for the baseline queries.
'use strict';
const { randomBytes } = require('node:crypto');
const { Kysely, PostgresDialect } = require('kysely');
const { Client, Pool } = require('pg');

const dist = require('./dist');
const { SqlStorage } = dist('storage/postgres/sql-storage');

/** The server throw-away databases are created on; the same default as the test suites. */
const adminUrl = () => process.env.SVC_BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * @typedef {{ query(text: string, params?: unknown[]): Promise<{ rows: any[] }> }} RawClient
 * @typedef {{ sql: string, parameters: readonly unknown[] }} CapturedQuery
 * @typedef {object} BenchDatabase
 * @property {'postgres'|'embedded'} backend
 * @property {string|undefined} url         connection string for the server's config (postgres only)
 * @property {import('../../storage').Storage|undefined} storage  storage to hand to startServer (embedded only)
 * @property {import('../../storage').Storage} probe  the same SqlStorage code with a query log, for capturing SQL
 * @property {CapturedQuery[]} captured     queries the probe sent since the last `captured.length = 0`
 * @property {RawClient} raw                direct queries (pg Pool of `rawConnections`, or the PGlite instance)
 * @property {string} label                 where it runs, for the report
 * @property {() => Promise<void>} close    closes the probe and raw clients and drops the database
 */

/** @returns {Promise<BenchDatabase>} */
async function createBenchDatabase({ embedded, rawConnections }) {
  return embedded ? createEmbedded() : createPostgres(rawConnections);
}

function probeLog(captured) {
  return (event) => {
    if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters });
  };
}

/**
 * A new empty database on the server at adminUrl(), named `<prefix>_<pid>_<random>`: its name, its URL, and `drop()`
 * (forced, so open connections do not keep it).
 *
 * @example const db = await throwAwayDatabase('svc_ratios'); try { ... } finally { await db.drop(); }
 */
async function throwAwayDatabase(prefix) {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const drop = async () => {
    const c = new Client({ connectionString: adminUrl() });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  return { name, url, drop };
}

async function createPostgres(rawConnections) {
  const { name, url, drop } = await throwAwayDatabase('svc_bench');
  const dbUrl = url.toString();

  // The probe runs the server's own SqlStorage code, with kysely's query log on, on a pool of its own.
  const captured = [];
  const probePool = new Pool({ connectionString: dbUrl, max: 2 });
  const probe = new SqlStorage(new Kysely({ dialect: new PostgresDialect({ pool: probePool }), log: probeLog(captured) }), 'postgres');
  await probe.migrate();
  const raw = new Pool({ connectionString: dbUrl, max: rawConnections });
  raw.on('error', () => undefined);
  const version = (await raw.query('SHOW server_version')).rows[0].server_version;

  return {
    backend: 'postgres',
    url: dbUrl,
    storage: undefined,
    probe,
    captured,
    raw,
    label: `PostgreSQL ${version}, database ${name} on ${url.host}`,
    async close() {
      await probe.close().catch(() => undefined);
      await raw.end().catch(() => undefined);
      await drop();
    },
  };
}

async function createEmbedded() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const pglite = await PGlite.create({ extensions: { pg_trgm } });
  // The server's storage and the probe share the one in-memory instance (PGlite runs one query at a time).
  const storage = new SqlStorage(new Kysely({ dialect: new PGliteDialect(pglite) }), 'embedded');
  await storage.migrate();
  const captured = [];
  const probe = new SqlStorage(new Kysely({ dialect: new PGliteDialect(pglite), log: probeLog(captured) }), 'embedded');
  const version = (await pglite.query('SHOW server_version')).rows[0].server_version;
  return {
    backend: 'embedded',
    url: undefined,
    storage,
    probe,
    captured,
    raw: { query: (text, params) => pglite.query(text, params) },
    label: `PGlite (PostgreSQL ${version}) in memory`,
    // The server closes its storage, which closes the PGlite instance; nothing to drop.
    async close() {},
  };
}

module.exports = { adminUrl, createBenchDatabase, throwAwayDatabase };
