/**
 * A PostgreSQL database for PostgreSQL data sources to point at (issue 13): a fresh database on the local server
 * with a `metrics` table the test fills, a role that may only read it and a role that may write it (to show the
 * plugin's read-only transaction holds even for a login that could write). Both roles have passwords; the local
 * server trusts 127.0.0.1, so a wrong password needs {@link passwordCluster}.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { adminUrl, createTestDatabase } from './backend';
import { findPostgresBin, startPrivateCluster, type PrivateCluster } from './private-postgres';

export interface UpstreamDatabase {
  host: string;
  port: number;
  /** `host:port`, the data source's `url`. */
  url: string;
  database: string;
  reader: { user: string; password: string };
  writer: { user: string; password: string };
  /** Runs SQL on the database as the server's superuser. */
  query(text: string, values?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** Drops the database and both roles. */
  drop(): Promise<void>;
}

/**
 * Whether the local PostgreSQL server (SVC_TEST_DATABASE_URL's, unless told) accepts a connection: checked once,
 * synchronously, so a suite can choose `describe.skip` with the reason in its name when it does not.
 */
export function localPostgresAnswers(host = new URL(adminUrl()).hostname, port = Number(new URL(adminUrl()).port || 5432)): boolean {
  const probe = `const s=require('net').connect(${port}, ${JSON.stringify(host)}, () => process.exit(0)); s.on('error', () => process.exit(1)); setTimeout(() => process.exit(1), 3000);`;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 5000 }).status === 0;
}

async function onDatabase<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The database and roles; `metrics(time timestamptz, host text, metric text, value double precision, n int)`. */
export async function createUpstreamDatabase(): Promise<UpstreamDatabase> {
  const db = await createTestDatabase('postgres');
  const url = new URL(db.url as string);
  const database = url.pathname.slice(1);
  const suffix = randomBytes(4).toString('hex');
  const reader = { user: `svc_ro_${suffix}`, password: `ro-${randomBytes(6).toString('hex')}` };
  const writer = { user: `svc_rw_${suffix}`, password: `rw-${randomBytes(6).toString('hex')}` };
  await onDatabase(db.url as string, async (c) => {
    await c.query('CREATE TABLE metrics (time timestamptz NOT NULL, host text, metric text, value double precision, n int)');
    await c.query(`CREATE ROLE ${reader.user} LOGIN PASSWORD '${reader.password}'`);
    await c.query(`CREATE ROLE ${writer.user} LOGIN PASSWORD '${writer.password}'`);
    await c.query(`GRANT CONNECT ON DATABASE ${database} TO ${reader.user}, ${writer.user}`);
    await c.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${reader.user}`);
    await c.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${writer.user}`);
    await c.query(`GRANT CREATE ON SCHEMA public TO ${writer.user}`);
  });
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    url: `${url.hostname}:${url.port || 5432}`,
    database,
    reader,
    writer,
    query: (text, values) => onDatabase(db.url as string, async (c) => (await c.query(text, values)).rows),
    async drop() {
      await db.drop();
      await onDatabase(adminUrl(), async (c) => {
        await c.query(`DROP ROLE IF EXISTS ${reader.user}`);
        await c.query(`DROP ROLE IF EXISTS ${writer.user}`);
      });
    },
  };
}

/**
 * A private cluster that asks 127.0.0.1 logins other than `postgres` for a SCRAM password (the local server trusts
 * everyone), with a role `svc_pw` / `right-password`; undefined when PostgreSQL's server binaries are not installed.
 */
export async function passwordCluster(): Promise<(PrivateCluster & { user: string; password: string }) | undefined> {
  const bin = findPostgresBin();
  if (!bin) return undefined;
  const cluster = await startPrivateCluster(bin);
  try {
    const [{ hba_file: hba }] = (await cluster.query('SHOW hba_file')) as Array<{ hba_file: string }>;
    // The server writes its own hba file (it owns it): trust for the harness's superuser, SCRAM for everyone else.
    const rules = ['local all all trust', 'host all postgres 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 scram-sha-256'];
    await cluster.query(`COPY (SELECT unnest(ARRAY[${rules.map((r) => `'${r}'`).join(',')}])) TO '${hba.replace(/'/g, "''")}'`);
    await cluster.query("SET password_encryption = 'scram-sha-256'; CREATE ROLE svc_pw LOGIN PASSWORD 'right-password'; SELECT pg_reload_conf()");
  } catch (err) {
    await cluster.destroy();
    throw err;
  }
  return Object.assign(cluster, { user: 'svc_pw', password: 'right-password' });
}
