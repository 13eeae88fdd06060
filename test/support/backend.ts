import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { embeddedImage, openStorage, type Storage } from '../../storage';

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
  /** Connection string of a fresh database (postgres), or undefined (embedded, in memory). */
  url: string | undefined;
  /** Embedded and migrated: the image the in-memory database starts from (openStorage's `image`). */
  image?: Blob;
  drop(): Promise<void>;
}

const root = path.resolve(__dirname, '..', '..');

/**
 * What a migrated database depends on: the migrations and the embedded engine's version. Names the cached images and
 * template databases, so a changed migration makes new ones.
 */
function schemaKey(): string {
  const pglite = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string };
  const migrations = fs.readFileSync(path.join(root, 'storage', 'postgres', 'migrations.ts'));
  return createHash('sha256').update(pglite.version).update(migrations).digest('hex').slice(0, 16);
}

/**
 * The migrated embedded image, made once and kept in node_modules/.cache (beside jest's own cache): every suite on the
 * embedded backend opens its database from it instead of running initdb and the migrations again.
 */
async function cachedEmbeddedImage(): Promise<Blob> {
  const file = path.join(root, 'node_modules', '.cache', 'svc-pglite', `${schemaKey()}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const image = await embeddedImage();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written aside and renamed, so a suite in another worker reads a whole image or none.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
  fs.renameSync(partial, file);
  return image;
}

/**
 * The template database the migrated test databases are copied from (CREATE DATABASE ... TEMPLATE, ~70 ms, where
 * creating and migrating one takes ~800 ms). Made once per schema: migrated under another name, then renamed, so no
 * copy is ever taken of a half-migrated template. Templates of an older schema stay, a few megabytes each, like
 * jest's cache: another checkout's test run may still be copying from one.
 */
async function templateDatabase(admin: Client): Promise<string> {
  const name = `svc_template_${schemaKey()}`;
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount) return name;
  const building = `svc_template_building_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${building}`);
  try {
    const storage = await openStorage({ url: databaseUrl(building), dataDir: '' });
    await storage.close();
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
  } catch (err) {
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    // Another process made it first.
    if ((err as { code?: string }).code !== '42P04') throw err;
  }
  return name;
}

function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A fresh database per test file, so files run in parallel without seeing each other: empty, or with `migrated` the
 * schema already up to date (a copy of a template database, or the embedded image), which saves each suite the
 * migrations (and on the embedded backend initdb).
 */
export async function createTestDatabase(backend: Backend = testBackend(), opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  if (backend === 'embedded') return { url: undefined, image: opts.migrated ? await cachedEmbeddedImage() : undefined, drop: async () => undefined };
  const name = `svc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const template = opts.migrated ? ` TEMPLATE ${await templateDatabase(admin)}` : '';
    await admin.query(`CREATE DATABASE ${name}${template}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(name),
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
  const db = await createTestDatabase(backend, { migrated: true });
  const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, image: db.image, maxConnections: 20 });
  return {
    storage,
    async close() {
      await storage.close();
      await db.drop();
    },
  };
}
