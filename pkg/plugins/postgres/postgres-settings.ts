/**
 * A PostgreSQL data source's settings (anchor-breadth §3.7, the anchor's postgres.go): `url` is `host[:port]`
 * (a `[v6]:port`, or a socket folder starting with `/`), the database is `database` or `jsonData.database`, the
 * password the decrypted `secureJsonData.password`; jsonData: `sslmode`, `maxOpenConns`, `timeout`,
 * `timescaledb`, TLS material as file content (`secureJsonData.tlsCACert`, `tlsClientCert`, `tlsClientKey`).
 */
import type { PoolConfig } from 'pg';
import { z } from 'zod';
import type { DataSourceInstance } from '../types';

/** Connections per data source when jsonData.maxOpenConns is unset: queries of one request share a few. */
export const DEFAULT_MAX_CONNECTIONS = 5;
/** The most connections one data source's pool opens, whatever jsonData.maxOpenConns says (the anchor's default is 100). */
export const MAX_CONNECTIONS = 100;
/** `[dataproxy] timeout` (seconds) when jsonData.timeout is unset: the statement timeout of every query. */
export const DEFAULT_TIMEOUT_SECONDS = 30;
/** `[dataproxy] dialTimeout` (seconds). */
const DIAL_TIMEOUT_MS = 10_000;

const positiveNumber = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().positive().finite()).optional().catch(undefined);

const JsonData = z.object({
  database: z.string().optional().catch(undefined),
  sslmode: z.enum(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']).optional().catch(undefined),
  maxOpenConns: positiveNumber,
  timeout: positiveNumber,
  timescaledb: z.boolean().optional().catch(undefined),
});

export interface PostgresSettings {
  pool: PoolConfig;
  /** The statement timeout of each query, ms. */
  timeoutMs: number;
  timescaledb: boolean;
}

/** `host`, `port` of the data source URL (a bare host is port 5432). */
export function parseHostPort(url: string): { host: string; port: number } {
  const text = url.trim().replace(/^postgres(?:ql)?:\/\//, '').replace(/\/.*$/, '');
  if (url.trim().startsWith('/')) return { host: url.trim(), port: 5432 };
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6) return { host: v6[1], port: v6[2] ? Number(v6[2]) : 5432 };
  const m = /^([^:]*)(?::(\d+))?$/.exec(text);
  return { host: m?.[1] || 'localhost', port: m?.[2] ? Number(m[2]) : 5432 };
}

/** What identifies the data source's connections in pg_stat_activity: one name per data source, never a secret. */
export function applicationName(ds: Pick<DataSourceInstance, 'namespace' | 'uid'>): string {
  return `svc-ds ${ds.namespace}/${ds.uid}`.slice(0, 63);
}

/**
 * The pool configuration of a data source. Every connection is read-only by default
 * (`default_transaction_read_only`) besides the read-only transaction each query opens: the second guard holds
 * even if a statement ends the first.
 */
export function postgresSettings(ds: DataSourceInstance): PostgresSettings {
  const json = JsonData.parse(ds.jsonData ?? {});
  const { host, port } = parseHostPort(ds.url);
  const mode = json.sslmode ?? 'verify-full';
  const tls = { ca: ds.secure.tlsCACert || undefined, cert: ds.secure.tlsClientCert || undefined, key: ds.secure.tlsClientKey || undefined };
  const ssl: PoolConfig['ssl'] =
    mode === 'disable' || mode === 'allow' || mode === 'prefer'
      ? false
      : mode === 'require'
        ? { rejectUnauthorized: false, cert: tls.cert, key: tls.key }
        : { rejectUnauthorized: true, ...tls, ...(mode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}) };
  return {
    pool: {
      host,
      port,
      database: ds.database || json.database || undefined,
      user: ds.user || undefined,
      // A function, so an empty password stays empty: pg falls back to PGPASSWORD and ~/.pgpass of the server's
      // own environment for a missing string, and those are not the data source's.
      password: async () => ds.secure.password ?? '',
      ssl,
      // At most MAX_CONNECTIONS: a data source's editor must not be able to make this server open thousands.
      max: Math.max(1, Math.min(MAX_CONNECTIONS, Math.floor(json.maxOpenConns ?? DEFAULT_MAX_CONNECTIONS))),
      connectionTimeoutMillis: DIAL_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      application_name: applicationName(ds),
      options: '-c default_transaction_read_only=on',
    },
    timeoutMs: Math.round((json.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000),
    timescaledb: json.timescaledb ?? false,
  };
}
