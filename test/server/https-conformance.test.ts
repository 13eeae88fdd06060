/**
 * The whole kind conformance suite (test/conformance/kind-conformance.test.ts, unchanged) over HTTPS: its
 * `startTestApp()` is swapped for one that starts the real server with `server.protocol = https` and a
 * self-signed certificate, and every request goes through a TLS connection that verifies that certificate.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import supertest from 'supertest';
import { loadConfig } from '../../pkg/config';
import { silentLogger } from '../../pkg/log';
import { startServer } from '../../pkg/server/server';
import { openStorage } from '../../storage';
import type { TestApp } from '../support/app';
import { createTestDatabase } from '../support/backend';

jest.mock('../support/app', () => ({ ...jest.requireActual('../support/app'), startTestApp: () => mockStartHttpsTestApp() }));

/** What `startTestApp()` gives, but over HTTPS against a listening server instead of the app in process. */
async function mockStartHttpsTestApp(): Promise<TestApp> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-https-conformance-'));
  const db = await createTestDatabase();
  const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 20 });
  const config = loadConfig({ argv: ['--server.protocol=https', '--server.http_addr=127.0.0.1', '--server.http_port=0', `--paths.data=${data}`], env: {} });
  const server = await startServer(config, silentLogger, { storage });
  expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  // Verified TLS: the self-signed certificate is the only trusted authority, and it names 127.0.0.1.
  const ca = fs.readFileSync(path.join(data, 'tls', 'server.crt'));
  const agent = supertest.agent(server.url, { ca });
  const authed = (m: 'get' | 'post' | 'put' | 'patch' | 'delete') => (p: string) => agent[m](p).auth('admin', 'admin');
  return {
    get app(): Express {
      throw new Error('over https the suite talks to the listening server, not to the app');
    },
    get users(): TestApp['users'] {
      throw new Error('over https the suite talks to the listening server, not to the identity directory');
    },
    get provisioning(): TestApp['provisioning'] {
      throw new Error('over https the server provisions at start; the suite provisions nothing');
    },
    storage: server.storage,
    registry: server.registry,
    config,
    as: { get: authed('get'), post: authed('post'), put: authed('put'), patch: authed('patch'), delete: authed('delete') },
    anonymous: agent,
    async close() {
      await server.close();
      await db.drop();
      fs.rmSync(data, { recursive: true, force: true });
    },
  };
}

describe('over https', () => {
  test('requests really travel over TLS', async () => {
    const t = await mockStartHttpsTestApp();
    try {
      const res = await t.anonymous.get('/livez');
      expect(res.status).toBe(200);
      expect(res.request.url).toMatch(/^https:/);
      // Without the self-signed certificate as authority, the same request is refused by the client.
      await expect(supertest(res.request.url.replace('/livez', '')).get('/livez')).rejects.toThrow(/self[- ]signed certificate/);
    } finally {
      await t.close();
    }
  });

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('../conformance/kind-conformance.test');
});
