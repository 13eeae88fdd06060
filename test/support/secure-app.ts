import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import { z } from 'zod';
import { allKinds } from '../../apis';
import { loadConfig } from '../../pkg/config';
import { createLogger } from '../../pkg/log';
import { anyKind, type KindRegistration } from '../../pkg/meta';
import { Namespaces, Registry } from '../../pkg/registry';
import { openSecrets, type SecretsService } from '../../pkg/secrets';
import { createApp } from '../../pkg/server/app';
import { openStorage, type Storage } from '../../storage';
import { type Backend, createTestDatabase } from './backend';

/**
 * A kind with write-only secrets, served by the test app of this file only (the registry's `secureValues`, before a
 * real kind declared them): `spec.secureJsonData` holds them, answers show `spec.secureJsonFields`.
 */
export const secureThingKind = anyKind({
  group: 'securethings.test.svc.app',
  version: 'v1',
  kind: 'SecureThing',
  plural: 'securethings',
  singular: 'securething',
  specSchema: z.looseObject({ url: z.string(), secureJsonData: z.record(z.string(), z.string()).optional() }),
  deleteResponse: 'status',
  secureValues: [{ path: 'spec.secureJsonData', reportAs: 'spec.secureJsonFields' }],
} satisfies KindRegistration<{ url: string; secureJsonData?: Record<string, string> }>);

export const SECURE_THINGS = '/apis/securethings.test.svc.app/v1/namespaces/default/securethings';

/** Where a secure app keeps its data between starts: a PostgreSQL database, or a directory of the embedded one. */
export interface SecureAppData {
  backend: Backend;
  url?: string;
  dataDir?: string;
  drop(): Promise<void>;
}

export async function secureAppData(backend: Backend): Promise<SecureAppData> {
  if (backend === 'postgres') {
    const db = await createTestDatabase('postgres');
    return { backend, url: db.url, drop: () => db.drop() };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-secure-'));
  return { backend, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

export interface SecureApp {
  app: Express;
  /** The app listening on a local port (watches need a socket). */
  url: string;
  storage: Storage;
  registry: Registry;
  secrets: SecretsService;
  /** Every line the app logged (at debug level). */
  logLines: string[];
  /** Stops listening and closes the database (the data stays, for a restart). */
  close(): Promise<void>;
}

/**
 * The HTTP stack as composeServer builds it (the registry given the secrets service, which holds it for re-encryption),
 * with the kinds of the server plus {@link secureThingKind}, over `data`, started again as often as a test likes.
 * `flags` are config flags (`--security.secret_key=…`).
 */
export async function startSecureApp(data: SecureAppData, flags: string[] = []): Promise<SecureApp> {
  const config = loadConfig({ argv: flags, env: {}, cwd: process.cwd() });
  const storage = await openStorage({ url: data.url, dataDir: data.dataDir ?? '', maxConnections: 10 });
  // A test may close the database under a running server (an outage) and then close the app: once is enough.
  const closeOnce = storage.close.bind(storage);
  let closed: Promise<void> | undefined;
  storage.close = () => (closed ??= closeOnce());
  const logLines: string[] = [];
  const log = createLogger('debug', (line) => logLines.push(line));
  const namespaces = new Namespaces();
  const secrets = openSecrets(config.security, storage, namespaces);
  const registry = new Registry(storage, [...allKinds, secureThingKind], { nestedFolders: true, namespaces, secrets });
  secrets.addHolder(registry);
  await registry.init();
  const { app, identityReady, watchHub } = createApp({ config, storage, registry, log, build: { version: 'test', commit: 'test' }, secrets });
  await identityReady();
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    app,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    storage,
    registry,
    secrets,
    logLines,
    async close() {
      watchHub.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await storage.close();
    },
  };
}
