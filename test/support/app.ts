import type { Express } from 'express';
import supertest from 'supertest';
import type { IdentityDirectory } from '../../pkg/auth/identity/identity-directory';
import { type Config, loadConfig } from '../../pkg/config';
import { type Logger, silentLogger } from '../../pkg/log';
import type { Provisioner } from '../../pkg/provisioning';
import type { RecordingRules } from '../../pkg/recording-rules';
import type { Registry } from '../../pkg/registry';
import { composeServer } from '../../pkg/server/server';
import { openStorage, type Storage } from '../../storage';
import { type Backend, createTestDatabase, testBackend } from './backend';
import { as, type Client } from './users';

export const ADMIN = { user: 'admin', password: 'admin' };

export interface TestApp {
  app: Express;
  storage: Storage;
  registry: Registry;
  config: Config;
  /** The test database's connection string on the postgres backend (for tests that read its rows raw); undefined embedded. */
  databaseUrl?: string;
  /** Users, organizations and memberships, for tests that arrange them directly; its registry holds the identity kinds. */
  users: IdentityDirectory;
  /** supertest against the app, authenticated as the admin. */
  as: Client;
  /** Provisioning from files (paths.provisioning); not started: a test calls `start()` as the server does at start. */
  provisioning: Provisioner;
  /** The enterprise edition's recording rules (undefined in the others); not started: a test calls `start()` or `tick()`. */
  recordingRules?: RecordingRules;
  /** supertest with no credentials. */
  anonymous: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

/**
 * The whole HTTP stack in process, composed as the server composes it (composeServer), on a fresh database of the
 * test backend. `flags` are config flags.
 */
export async function startTestApp(flags: string[] = [], backend: Backend = testBackend(), opts: { log?: Logger; env?: Record<string, string> } = {}): Promise<TestApp> {
  const db = await createTestDatabase(backend, { migrated: true });
  const config = loadConfig({ argv: flags, env: {}, cwd: process.cwd() });
  const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, image: db.image, maxConnections: 20 });
  const { app, registry, users, identityReady, provisioning, recordingRules } = await composeServer(config, opts.log ?? silentLogger, storage, { version: 'test', commit: 'test' }, opts.env);
  // Org 1 and the admin exist before the first request, so a test's first call does not pay for the bootstrap.
  await identityReady();
  return {
    app,
    storage,
    registry,
    config,
    databaseUrl: db.url,
    users,
    provisioning,
    recordingRules,
    as: as({ app }, ADMIN.user, ADMIN.password),
    anonymous: supertest(app),
    async close() {
      provisioning.stop();
      await recordingRules?.stop();
      await storage.close();
      await db.drop();
    },
  };
}
