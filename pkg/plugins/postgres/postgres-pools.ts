/**
 * One small pg pool per data source, made on its first query and kept while the data source stays as it was: a
 * data source changed since (another resourceVersion) gets a new pool and its old one is ended, and `dispose`
 * ends it when the routes learn of a change or a delete, so no connection outlives the settings it was made with.
 */
import { Pool } from 'pg';
import type { DataSourceInstance } from '../types';
import { type PostgresSettings, postgresSettings } from './postgres-settings';

interface Entry {
  resourceVersion: string;
  pool: Pool;
  settings: PostgresSettings;
}

export class PostgresPools {
  private readonly entries = new Map<string, Entry>();

  /** The pool of the data source as it is now. */
  get(ds: DataSourceInstance): Entry {
    const key = `${ds.namespace}/${ds.uid}`;
    const current = this.entries.get(key);
    if (current && current.resourceVersion === ds.resourceVersion) return current;
    if (current) void endPool(current.pool);
    const settings = postgresSettings(ds);
    const pool = new Pool(settings.pool);
    // An idle connection the server closes (restart, pg_terminate_backend) must not crash the process.
    pool.on('error', () => undefined);
    const entry = { resourceVersion: ds.resourceVersion, pool, settings };
    this.entries.set(key, entry);
    return entry;
  }

  async dispose(namespace: string, uid: string): Promise<void> {
    const key = `${namespace}/${uid}`;
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    await endPool(entry.pool);
  }

  async close(): Promise<void> {
    const pools = [...this.entries.values()].map((e) => e.pool);
    this.entries.clear();
    await Promise.all(pools.map(endPool));
  }
}

async function endPool(pool: Pool): Promise<void> {
  await pool.end().catch(() => undefined);
}
