/** What the HTTP layer answers around the kinds: unknown routes, verbs, namespaces, probes. */
import supertest from 'supertest';
import { allKinds } from '../../apis';
import { loadConfig } from '../../pkg/config';
import { silentLogger } from '../../pkg/log';
import { Namespaces, Registry } from '../../pkg/registry';
import { createApp } from '../../pkg/server/app';
import { openStorage } from '../../storage';
import { startTestApp, type TestApp } from '../support/app';
import { createTestDatabase, testBackend } from '../support/backend';
import { startTcpProxy } from '../support/tcp-proxy';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('unknown groups, versions and resources are 404 Status', async () => {
  for (const path of [
    '/apis/nope.svc.app/v1/namespaces/default/things',
    '/apis/folder.svc.app/v9/namespaces/default/folders',
    '/apis/folder.svc.app/v1beta1/namespaces/default/things',
    '/apis/folder.svc.app/v1beta1/namespaces/default/folders/a/b/c',
  ]) {
    const res = await t.as.get(path);
    expect([path, res.status]).toEqual([path, 404]);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', reason: 'NotFound', code: 404 });
  }
});

test('a verb a path does not serve is 405 Status', async () => {
  const res = await t.as.put('/apis/folder.svc.app/v1beta1/namespaces/default/folders').send({});
  expect(res.status).toBe(405);
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed' });
  expect((await t.as.post('/apis/folder.svc.app/v1beta1/namespaces/default/folders/x').send({})).status).toBe(405);
});

test('namespace default is org 1; org-N of an unknown org, and malformed namespaces, are 404', async () => {
  expect((await t.as.get('/apis/playlist.svc.app/v1/namespaces/default/playlists')).status).toBe(200);
  for (const ns of ['org-2', 'org-1', 'org-0', 'org-x', 'stacks-1', 'kube-system']) {
    const res = await t.as.get(`/apis/playlist.svc.app/v1/namespaces/${ns}/playlists`);
    expect([ns, res.status, res.body.message]).toEqual([ns, 404, `namespaces "${ns}" not found`]);
  }
});

test('legacy routes that do not exist answer the legacy {message} shape', async () => {
  const res = await t.as.get('/api/nothing-here');
  expect(res.status).toBe(404);
  expect(res.body).toEqual({ message: 'Not found' });
  const anon = await t.anonymous.get('/api/nothing-here');
  expect(anon.status).toBe(401);
  expect(anon.body).toEqual({ message: 'Unauthorized' });
});

test('health: /api/health, /livez and /readyz need no credentials', async () => {
  const health = await t.anonymous.get('/api/health');
  expect(health.status).toBe(200);
  expect(health.body).toEqual({ database: 'ok', version: 'test', commit: 'test' });
  expect((await t.anonymous.get('/livez')).text).toBe('ok');
  expect((await t.anonymous.get('/readyz')).text).toBe('ok');
});

const onServer = testBackend() === 'postgres' ? test : test.skip;

/** The app over a throw-away PostgreSQL database reached through a TCP proxy the test may cut or freeze. */
async function appThroughProxy() {
  const db = await createTestDatabase('postgres');
  const url = new URL(db.url!);
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${proxy.port}`;
  const storage = await openStorage({ url: url.toString(), dataDir: '', maxConnections: 4 });
  const config = loadConfig({ argv: [], env: {}, cwd: process.cwd() });
  const registry = new Registry(storage, allKinds, { nestedFolders: true, namespaces: new Namespaces() });
  await registry.init();
  const { app } = createApp({ config, storage, registry, log: silentLogger, build: { version: 'test', commit: 'test' } });
  return {
    app,
    proxy,
    async close() {
      await storage.close();
      await proxy.close();
      await db.drop();
    },
  };
}
onServer('a database outage is 503, not 500, health says so, and service resumes when it is back (postgres backend only: the embedded database cannot go away)', async () => {
  const { app, proxy, close } = await appThroughProxy();
  const path = '/apis/playlist.svc.app/v1/namespaces/default/playlists';
  try {
    expect((await supertest(app).get(path).auth('admin', 'admin')).status).toBe(200);
    proxy.cut();
    const res = await supertest(app).get(path).auth('admin', 'admin');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503, message: 'the database is unavailable, try again later' });
    const write = await supertest(app).post(path).auth('admin', 'admin').send({ metadata: { name: 'p' }, spec: { title: 't', interval: '5m' } });
    expect(write.status).toBe(503);
    const health = await supertest(app).get('/api/health');
    expect(health.status).toBe(503);
    expect(health.body.database).toBe('failing');
    expect((await supertest(app).get('/readyz')).status).toBe(503);
    proxy.restore();
    expect((await supertest(app).get(path).auth('admin', 'admin')).status).toBe(200);
    expect((await supertest(app).get('/api/health')).body.database).toBe('ok');
  } finally {
    await close();
  }
});

onServer('a database that hangs instead of refusing: health and readiness say so at their deadline, and it serves again once it answers (postgres backend only)', async () => {
  const { app, proxy, close } = await appThroughProxy();
  try {
    expect((await supertest(app).get('/api/health')).body.database).toBe('ok');
    proxy.freeze();
    // The pooled connections are open and answer nothing: without the deadline, these would wait as long as it does.
    const [health, ready] = await Promise.all([supertest(app).get('/api/health'), supertest(app).get('/readyz')]);
    expect([health.status, health.body.database]).toEqual([503, 'failing']);
    expect([ready.status, ready.text]).toEqual([503, 'database unavailable']);
    proxy.thaw();
    expect((await supertest(app).get('/api/health')).body.database).toBe('ok');
  } finally {
    proxy.thaw();
    await close();
  }
}, 30_000);

test('a body without Content-Type is read as JSON, as kube-apiserver reads it (kubectl create --raw sends none)', async () => {
  const http = await import('node:http');
  const server = t.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as import('node:net').AddressInfo;
  try {
    const body = JSON.stringify({ metadata: { name: 'raw-no-type' }, spec: { title: 'Raw', interval: '1m' } });
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/apis/playlist.svc.app/v1/namespaces/default/playlists', auth: 'admin:admin', headers: { 'Content-Length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(201);
    expect((await t.as.get('/apis/playlist.svc.app/v1/namespaces/default/playlists/raw-no-type')).body.spec.title).toBe('Raw');
  } finally {
    server.close();
  }
});
