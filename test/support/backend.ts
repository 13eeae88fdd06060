import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { openStorage, type Storage } from '../../storage';

export type Backend = 'postgres' | 'embedded';

/** The backend the HTTP suites run on: `SVC_TEST_BACKEND` (hack/run-tests.js sets it), default postgres. */
export function testBackend(): Backend {
  return process.env.SVC_TEST_BACKEND === 'embedded' ? 'embedded' : 'postgres';
}

/** The server the postgres backend creates its throw-away databases on. */
export function adminUrl(): string {
  return process.env.SVC_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface TestDatabase {
  /** Connection string of a fresh, empty database (postgres), or undefined (embedded, in memory). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh database per test file, so files run in parallel without seeing each other. */
export async function createTestDatabase(backend: Backend = testBackend()): Promise<TestDatabase> {
  if (backend === 'embedded') return { url: undefined, drop: async () => undefined };
  const name = `svc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Opens storage on a fresh database; `close` also drops it. */
export async function createTestStorage(backend: Backend = testBackend()): Promise<{ storage: Storage; close(): Promise<void> }> {
  const db = await createTestDatabase(backend);
  const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 20 });
  return {
    storage,
    async close() {
      await storage.close();
      await db.drop();
    },
  };
}
