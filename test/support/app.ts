import type { Express } from 'express';
import supertest from 'supertest';
import { allKinds } from '../../apis';
import { type Config, loadConfig } from '../../pkg/config';
import { silentLogger } from '../../pkg/log';
import { Registry } from '../../pkg/registry';
import type { IdentityDirectory } from '../../pkg/auth/identity-directory';
import { createApp } from '../../pkg/server/app';
import { registryOptions } from '../../pkg/server/server';
import { openStorage, type Storage } from '../../storage';
import { type Backend, createTestDatabase, testBackend } from './backend';

export const ADMIN = { user: 'admin', password: 'admin' };

export interface TestApp {
  app: Express;
  storage: Storage;
  registry: Registry;
  config: Config;
  /** Users, organizations and memberships, for tests that arrange them directly. */
  users?: IdentityDirectory;
  /** supertest against the app, authenticated as the admin. */
  as: {
    get(path: string): supertest.Test;
    post(path: string): supertest.Test;
    put(path: string): supertest.Test;
    patch(path: string): supertest.Test;
    delete(path: string): supertest.Test;
  };
  /** supertest with no credentials. */
  anonymous: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

/** The whole HTTP stack in process, on a fresh database of the test backend. `flags` are config flags. */
export async function startTestApp(flags: string[] = [], backend: Backend = testBackend()): Promise<TestApp> {
  const db = await createTestDatabase(backend);
  const config = loadConfig({ argv: flags, env: {}, cwd: process.cwd() });
  const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 20 });
  const registry = new Registry(storage, allKinds, registryOptions(config));
  await registry.init();
  const { app, users, identityReady } = createApp({ config, storage, registry, log: silentLogger, build: { version: 'test', commit: 'test' } });
  // Org 1 and the admin exist before the first request, so a test's first call does not pay for the bootstrap.
  await identityReady();
  const agent = supertest(app);
  const authed = (m: 'get' | 'post' | 'put' | 'patch' | 'delete') => (path: string) => agent[m](path).auth(ADMIN.user, ADMIN.password);
  return {
    app,
    storage,
    registry,
    config,
    users,
    as: { get: authed('get'), post: authed('post'), put: authed('put'), patch: authed('patch'), delete: authed('delete') },
    anonymous: agent,
    async close() {
      await storage.close();
      await db.drop();
    },
  };
}
