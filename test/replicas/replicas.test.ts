/**
 * Replicas for real: three server processes on one PostgreSQL database behind a round-robin proxy (each request
 * to the next replica, as a Service does). The kind conformance suite and a legacy sequence run through it; a
 * watch on one replica sees the writes made on the others within a second; killing a replica loses no write it
 * acknowledged. PostgreSQL only: the embedded database is one process's by construction.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { allKinds } from '../../apis';
import { openStorage, type Storage } from '../../storage';
import { ADMIN } from '../support/app';
import { createTestDatabase, type TestDatabase, testBackend } from '../support/backend';
import { onJsonLines } from '../support/json-lines';
import { PLAYLISTS } from '../support/paths';
import { runMain, type ServerProcess, startedUrl, stopMain } from '../support/server-process';
import type { Client } from '../support/users';
import { collectionPath, httpKindClient } from '../conformance/kind-client';
import { describeKindConformance } from '../conformance/kind-suite';

const onPostgres = testBackend() === 'postgres';
const describeOnPostgres = onPostgres ? describe : describe.skip;
const REPLICAS = 3;
/** The kinds whose conformance suite runs through the replicas (all of them would take the machine for minutes). */
const KINDS = allKinds.filter((k) => ['Playlist', 'Folder'].includes(k.kind));

/** A round-robin HTTP proxy over the replicas' URLs; a replica that refuses the connection answers 502. */
async function roundRobin(targets: () => string[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const list = targets();
    const target = new URL(req.url ?? '/', list[next++ % list.length]);
    const upstream = http.request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function clientOf(url: string, login = ADMIN.user, password = ADMIN.password): Client {
  const agent = supertest(url);
  return {
    get: (p) => agent.get(p).auth(login, password),
    post: (p) => agent.post(p).auth(login, password),
    put: (p) => agent.put(p).auth(login, password),
    patch: (p) => agent.patch(p).auth(login, password),
    delete: (p) => agent.delete(p).auth(login, password),
  };
}

let db: TestDatabase;
let storage: Storage;
const replicas: { child: ServerProcess; url: string }[] = [];
let proxy: { url: string; close(): Promise<void> };
let as: Client;

beforeAll(async () => {
  if (!onPostgres) return;
  db = await createTestDatabase('postgres');
  const children = Array.from({ length: REPLICAS }, () => runMain(['--server.http_port=0', '--server.http_addr=127.0.0.1'], { SVC_DATABASE_URL: db.url! }));
  // Started together: they race for the migration lock and the bootstrap, as replicas of a Deployment do.
  const urls = await Promise.all(children.map((c) => startedUrl(c, 240_000)));
  children.forEach((child, i) => replicas.push({ child, url: urls[i] }));
  proxy = await roundRobin(() => replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null).map((r) => r.url));
  as = clientOf(proxy.url);
  storage = await openStorage({ url: db.url, dataDir: '' });
}, 300_000);

afterAll(async () => {
  if (!onPostgres) return;
  await proxy?.close();
  await Promise.all(replicas.map((r) => stopMain(r.child)));
  await storage?.close();
  await db.drop();
}, 60_000);

describeOnPostgres('through three replicas behind a round-robin proxy (PostgreSQL only: skipped on the embedded database, one process by construction)', () => {
  describe.each(KINDS.map((k) => [`${k.kind} ${k.group}/${k.version}`, k] as const))('kind conformance: %s', (_label, kind) => {
    describeKindConformance(kind, true, () => ({
      client: httpKindClient({ as }, kind),
      storage,
      http: { base: collectionPath(kind), as, anonymous: supertest(proxy.url) },
    }));
  });

  test('legacy: a folder, a dashboard in it, its star, search and versions, each request on the next replica', async () => {
    const folder = await as.post('/api/folders').send({ uid: 'rr-folder', title: 'Round robin' });
    expect(folder.status).toBe(200);
    for (let i = 0; i < REPLICAS; i++) expect((await as.get('/api/folders/rr-folder')).body.title).toBe('Round robin');
    const saved = await as.post('/api/dashboards/db').send({ dashboard: { uid: 'rr-dash', title: 'Everywhere' }, folderUid: 'rr-folder' });
    expect(saved.status).toBe(200);
    const updated = await as.post('/api/dashboards/db').send({ dashboard: { id: saved.body.id, uid: 'rr-dash', title: 'Everywhere, again', version: saved.body.version }, folderUid: 'rr-folder' });
    expect(updated.status).toBe(200);
    // A stale version is refused whichever replica answers.
    for (let i = 0; i < REPLICAS; i++) {
      const stale = await as.post('/api/dashboards/db').send({ dashboard: { id: saved.body.id, uid: 'rr-dash', title: 'Stale', version: saved.body.version }, folderUid: 'rr-folder' });
      expect(stale.status).toBe(412);
    }
    expect((await as.post('/api/user/stars/dashboard/uid/rr-dash')).status).toBe(200);
    for (let i = 0; i < REPLICAS; i++) {
      const found = await as.get('/api/search?query=Everywhere&starred=true');
      expect(found.body.map((h: { uid: string }) => h.uid)).toEqual(['rr-dash']);
      const versions = await as.get('/api/dashboards/uid/rr-dash/versions');
      expect(versions.status).toBe(200);
    }
  });

  test('a watch on one replica sees writes made on the others within one second', async () => {
    const [watched, ...writers] = replicas;
    const seen = new Map<string, number>();
    const req = http.get(`${watched.url}${PLAYLISTS}?watch=true&labelSelector=rr%3Dwatch`, { headers: { Authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` } }, (res) =>
      onJsonLines<{ type: string; object: { metadata: { name: string } } }>(res, (e) => {
        if (e.type === 'ADDED') seen.set(e.object.metadata.name, Date.now());
      }),
    );
    try {
      await new Promise((r) => setTimeout(r, 500));
      const acked = new Map<string, number>();
      for (const [i, writer] of writers.entries()) {
        for (let j = 0; j < 3; j++) {
          const name = `w-${i}-${j}`;
          const res = await clientOf(writer.url).post(PLAYLISTS).send({ metadata: { name, labels: { rr: 'watch' } }, spec: { title: name, interval: '5m' } });
          expect(res.status).toBe(201);
          acked.set(name, Date.now());
        }
      }
      for (let i = 0; i < 40 && seen.size < acked.size; i++) await new Promise((r) => setTimeout(r, 50));
      const delays = [...acked].map(([name, at]) => [name, seen.has(name) ? seen.get(name)! - at : 'never']);
      for (const [name, delay] of delays) expect([name, typeof delay === 'number' && delay <= 1000]).toEqual([name, true]);
    } finally {
      req.destroy();
    }
  });

  test('killing a replica (SIGKILL) while writes go on loses none that was acknowledged', async () => {
    const acked: string[] = [];
    let refused = 0;
    const write = async (name: string) => {
      const res = await supertest(proxy.url).post(PLAYLISTS).auth(ADMIN.user, ADMIN.password).send({ metadata: { name, labels: { rr: 'kill' } }, spec: { title: name, interval: '5m' } });
      if (res.status === 201) acked.push(name);
      else refused++;
    };
    const writing = (async () => {
      for (let i = 0; i < 60; i++) await Promise.all([write(`k-${i}-a`), write(`k-${i}-b`)]);
    })();
    await new Promise((r) => setTimeout(r, 300));
    const victim = replicas[REPLICAS - 1];
    victim.child.kill('SIGKILL');
    await writing;
    expect(acked.length).toBeGreaterThan(60);
    // Read back through the survivors, each of them.
    for (const r of replicas.filter((x) => x !== victim)) {
      const list = await clientOf(r.url).get(`${PLAYLISTS}?labelSelector=rr%3Dkill`);
      expect(list.status).toBe(200);
      const names = new Set((list.body.items as { metadata: { name: string } }[]).map((o) => o.metadata.name));
      expect(acked.filter((n) => !names.has(n))).toEqual([]);
    }
    // The writes cut by the kill were answered as failures (502 from the proxy), never acknowledged.
    expect(acked.length + refused).toBe(120);
  }, 120_000);
});

