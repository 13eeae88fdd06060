/**
 * Watch through HTTP (`?watch=true`), on an express app assembled the way the /apis router wires it: the watch
 * route (serveWatch on a WatchHub) in front of the whole app of startTestApp, which serves every other request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { basicAuth } from '../../pkg/auth/authentication/basic-auth';
import { silentLogger } from '../../pkg/log';
import { Namespaces, type OrgDirectory, type RequestContext } from '../../pkg/registry';
import { StatusError } from '../../pkg/errors';
import type { Resource } from '../../pkg/meta';
import { type WatchEvent, WatchHub } from '../../pkg/registry/watch';
import { errorHandler } from '../../pkg/server/render-error';
import { isWatchRequest, serveWatch, streamWatch } from '../../pkg/server/watch-stream';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS, PLAYLISTS } from '../support/paths';
import { onJsonLines } from '../support/json-lines';

/** The app this suite assembles has org 1 only. */
const mainOrgOnly: OrgDirectory = { exists: async (id) => id === 1 };


/** What the lead wires into apis-router.ts, reproduced for the test. */
function watchApp(t: TestApp, hub: WatchHub): Express {
  const app = express();
  app.use('/apis', basicAuth({ user: ADMIN.user, password: ADMIN.password }));
  app.get('/apis/:group/:version/namespaces/:namespace/:resource', async (req, res, next) => {
    const { group, version, namespace, resource } = req.params;
    const kind = t.registry.find(group, version, resource);
    if (!kind || !isWatchRequest(req)) return next();
    await new Namespaces().resolve(namespace, mainOrgOnly);
    const ctx: RequestContext = { requester: { identity: req.user!.identity }, namespace, fieldManager: 'watch-test' };
    await serveWatch(req, res, { hub, registry: t.registry, kind, contexts: [ctx] });
  });
  // streamWatch on its own: a render function (the Table feature's hook) and an error in the middle of a stream.
  app.get('/test/stream', (req, res) => {
    async function* events(): AsyncGenerator<WatchEvent> {
      yield { type: 'ADDED', object: { metadata: { name: 'x' } } as Resource };
      if (req.query.fail === 'status') throw StatusError.unavailable('database is down');
      throw new Error('secret internals');
    }
    return streamWatch(req, res, events(), { render: (ev) => ({ kind: 'Table', rows: [{ cells: [(ev.object as Resource).metadata.name] }] }) });
  });
  app.use(t.app);
  app.use(errorHandler(silentLogger));
  return app;
}

type Event = { type: string; object: { metadata: { name?: string; resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string> }; [k: string]: unknown } };

/** A watch read line by line over a real socket. */
class Watch {
  readonly events: Event[] = [];
  ended = false;
  private waiters = new Set<() => void>();
  private constructor(
    readonly res: http.IncomingMessage,
    private readonly req: http.ClientRequest,
  ) {
    onJsonLines<Event>(res, (event) => {
      this.events.push(event);
      this.notify();
    });
    const end = () => {
      this.ended = true;
      this.notify();
    };
    res.on('end', end);
    res.on('close', end);
  }

  static open(path: string): Promise<Watch> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${baseUrl}${path}`, { auth: `${ADMIN.user}:${ADMIN.password}`, agent: false }, (res) => resolve(new Watch(res, req)));
      req.on('error', reject);
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  of(type: string): Event[] {
    return this.events.filter((e) => e.type === type);
  }

  /** Waits until `pred` holds (or the timeout passes, then fails with what arrived). */
  async until(pred: (events: Event[]) => boolean, ms = 5000, what = 'events'): Promise<Event[]> {
    const deadline = Date.now() + ms;
    while (!pred(this.events)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events.map((e) => [e.type, e.object.metadata?.name]))}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          this.waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, deadline - Date.now()));
        this.waiters.add(done);
      });
    }
    return this.events;
  }

  count(n: number, ms?: number): Promise<Event[]> {
    return this.until((e) => e.length >= n, ms, `${n} events`);
  }

  async closed(ms = 5000): Promise<void> {
    await this.until(() => this.ended, ms, 'the end of the stream');
  }

  close(): void {
    this.req.destroy();
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }
}

let t: TestApp;
let hub: WatchHub;
let server: http.Server;
let baseUrl: string;
const open: Watch[] = [];
const watch = async (path: string) => {
  const w = await Watch.open(path);
  open.push(w);
  return w;
};

beforeAll(async () => {
  t = await startTestApp();
  hub = new WatchHub(t.storage, { pollIntervalMs: 50, log: silentLogger, bookmarkIntervalMs: 700 });
  server = http.createServer(watchApp(t, hub));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const w of open.splice(0)) w.close();
});
afterAll(async () => {
  hub.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const rvOf = (e: Event) => Number(e.object.metadata.resourceVersion);
const playlist = (name: string, labels: Record<string, string> = {}) => ({
  metadata: { name, labels },
  spec: { title: name, interval: '5m', items: [{ type: 'dashboard_by_tag', value: 'ops' }] },
});

async function create(path: string, body: object) {
  const res = await t.as.post(path).send(body);
  expect(res.status).toBe(201);
  return res.body;
}

async function patch(path: string, body: object) {
  const res = await t.as.patch(path).set('Content-Type', 'application/merge-patch+json').send(body);
  expect(res.status).toBe(200);
  return res.body;
}

test('initial ADDED events, then live MODIFIED and DELETED, each object as GET shows it; NDJSON flushed at once', async () => {
  await create(FOLDERS, { metadata: { name: 'wa' }, spec: { title: 'A' } });
  await create(FOLDERS, { metadata: { name: 'wb' }, spec: { title: 'B' } });
  const w = await watch(`${FOLDERS}?watch=true`);
  // Headers arrive before any event: the response was flushed as soon as the watch started.
  expect(w.status).toBe(200);
  expect(w.res.headers['content-type']).toBe('application/json');
  expect(w.res.headers['transfer-encoding']).toBe('chunked');
  await w.count(2);
  expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'ADDED']);
  for (const e of w.events) expect(e.object).toEqual((await t.as.get(`${FOLDERS}/${e.object.metadata.name}`)).body);

  const modified = (await t.as.put(`${FOLDERS}/wa`).send({ ...(await t.as.get(`${FOLDERS}/wa`)).body, spec: { title: 'A2' } })).body;
  await w.count(3);
  expect(w.events[2]).toEqual({ type: 'MODIFIED', object: modified });

  const before = (await t.as.get(`${FOLDERS}/wb`)).body;
  expect((await t.as.delete(`${FOLDERS}/wb`)).status).toBe(200);
  await w.count(4);
  const deleted = w.events[3];
  expect(deleted.type).toBe('DELETED');
  // The final object at the delete's own (new) version.
  expect(rvOf(deleted)).toBeGreaterThan(rvOf(w.events[2]));
  expect(deleted.object).toEqual({ ...before, metadata: { ...before.metadata, resourceVersion: deleted.object.metadata.resourceVersion } });
  expect(w.ended).toBe(false);
});

test('dashboards are presented as GET shows them (spec.uid and spec.version added)', async () => {
  const w = await watch(`${DASHBOARDS}?watch=true&labelSelector=case%3Ddto`);
  await create(DASHBOARDS, { metadata: { name: 'wd', labels: { case: 'dto' } }, spec: { title: 'D' } });
  await w.count(1);
  expect(w.events[0]).toEqual({ type: 'ADDED', object: (await t.as.get(`${DASHBOARDS}/wd`)).body });
  expect(w.events[0].object.spec).toMatchObject({ uid: 'wd', version: 1 });
});

test('resuming from any version N misses nothing and repeats nothing under concurrent writers', async () => {
  const start = (await t.as.get(`${PLAYLISTS}?labelSelector=case%3Dresume`)).body.metadata.resourceVersion;
  const all = await watch(`${PLAYLISTS}?watch=true&resourceVersion=${start}&labelSelector=case%3Dresume`);
  const writers = [0, 1, 2, 3].map(async (k) => {
    for (let i = 0; i < 12; i++) {
      const name = `res-${k}-${i}`;
      await create(PLAYLISTS, playlist(name, { case: 'resume' }));
      await patch(`${PLAYLISTS}/${name}`, { spec: { title: `${name} v2` } });
      if (i % 3 === 0) expect((await t.as.delete(`${PLAYLISTS}/${name}`)).status).toBe(200);
    }
  });
  // Resume from versions seen while the writers run: each later watch must continue exactly where N left off.
  const resumed: { from: number; w: Watch }[] = [];
  for (const at of [5, 30, 60]) {
    await all.count(at, 15000);
    const from = rvOf(all.events[at - 1]);
    resumed.push({ from, w: await watch(`${PLAYLISTS}?watch=true&resourceVersion=${from}&labelSelector=case%3Dresume`) });
  }
  await Promise.all(writers);
  const total = 4 * 12 * 2 + 4 * 4;
  await all.count(total, 15000);
  await new Promise((r) => setTimeout(r, 200));
  expect(all.events).toHaveLength(total);
  const rvs = all.events.map(rvOf);
  expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
  expect(new Set(rvs).size).toBe(rvs.length);
  // The same sequence as history itself.
  const history = await t.storage.eventsSince({ group: 'playlist.svc.app', resource: 'playlists' }, Number(start), 10_000);
  expect(rvs).toEqual(history.filter((h) => (h.value.metadata as { labels?: Record<string, string> }).labels?.case === 'resume').map((h) => h.resourceVersion));
  for (const { from, w } of resumed) {
    const expected = all.events.filter((e) => rvOf(e) > from);
    await w.count(expected.length, 15000);
    await new Promise((r) => setTimeout(r, 100));
    expect(w.events).toEqual(expected);
  }
});

test('label selector: entering the selection is ADDED, leaving it is DELETED with the previous content', async () => {
  const w = await watch(`${PLAYLISTS}?watch=true&labelSelector=case%3Dsel,team%3Da`);
  await create(PLAYLISTS, playlist('sel-1', { case: 'sel', team: 'b' }));
  const entered = await patch(`${PLAYLISTS}/sel-1`, { metadata: { labels: { team: 'a' } } });
  const stayed = await patch(`${PLAYLISTS}/sel-1`, { spec: { title: 'renamed' } });
  const left = await patch(`${PLAYLISTS}/sel-1`, { metadata: { labels: { team: 'c' } } });
  expect((await t.as.delete(`${PLAYLISTS}/sel-1`)).status).toBe(200);
  await create(PLAYLISTS, playlist('sel-2', { case: 'sel', team: 'a' }));
  expect((await t.as.delete(`${PLAYLISTS}/sel-2`)).status).toBe(200);
  await w.count(5);
  await new Promise((r) => setTimeout(r, 200));
  expect(w.events.map((e) => [e.type, e.object.metadata.name])).toEqual([
    ['ADDED', 'sel-1'],
    ['MODIFIED', 'sel-1'],
    ['DELETED', 'sel-1'],
    ['ADDED', 'sel-2'],
    ['DELETED', 'sel-2'],
  ]);
  expect(w.events[0].object).toEqual(entered);
  expect(w.events[1].object).toEqual(stayed);
  // As kube's cacher: the object as it was while selected, at the version of the change that took it out.
  expect(w.events[2].object).toEqual({ ...stayed, metadata: { ...stayed.metadata, resourceVersion: left.metadata.resourceVersion } });
});

test('field selector on metadata.name, and a fresh watch of a label selection leaving it without any memory of it', async () => {
  await create(PLAYLISTS, playlist('fs-1', { case: 'fs', team: 'a' }));
  await create(PLAYLISTS, playlist('fs-2', { case: 'fs', team: 'a' }));
  const named = await watch(`${PLAYLISTS}?watch=true&fieldSelector=metadata.name%3Dfs-2`);
  const labelled = await watch(`${PLAYLISTS}?watch=true&labelSelector=case%3Dfs,team%3Da`);
  await named.count(1);
  await labelled.count(2);
  expect(named.events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'fs-2' } } });
  await patch(`${PLAYLISTS}/fs-1`, { metadata: { labels: { team: 'z' } } });
  await patch(`${PLAYLISTS}/fs-2`, { metadata: { labels: { team: 'z' } } });
  await named.count(2);
  await labelled.count(4);
  expect(named.events.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'fs-2'], ['MODIFIED', 'fs-2']]);
  expect(labelled.events.slice(2).map((e) => [e.type, e.object.metadata.name, e.object.metadata.labels?.team])).toEqual([
    ['DELETED', 'fs-1', 'a'],
    ['DELETED', 'fs-2', 'a'],
  ]);
});

test('too old a resourceVersion: 200, then one ERROR event with a 410 Expired Status, then the end', async () => {
  await create(PLAYLISTS, playlist('old-1', { case: 'old' }));
  const old = Number((await t.as.get(`${PLAYLISTS}/old-1`)).body.metadata.resourceVersion);
  await patch(`${PLAYLISTS}/old-1`, { spec: { title: 'x' } });
  const type = { group: 'playlist.svc.app', resource: 'playlists' };
  const { current } = await t.storage.versions(type);
  await t.storage.compact(type, current, { keepSuperseded: false });
  const w = await watch(`${PLAYLISTS}?watch=true&resourceVersion=${old}`);
  await w.closed();
  expect(w.status).toBe(200);
  expect(w.events).toEqual([
    {
      type: 'ERROR',
      object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${old} (${current})`, reason: 'Expired', code: 410 },
    },
  ]);
});

test('malformed options are plain 400/422 Status answers, before any streaming', async () => {
  const bad = await fetch(`${baseUrl}${PLAYLISTS}?watch=true&resourceVersion=abc`, { headers: auth() });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: 'invalid resourceVersion "abc": must be a non-negative integer' });
  const res = await fetch(`${baseUrl}${PLAYLISTS}?watch=true&resourceVersion=-1`, { headers: auth() });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
  const sel = await fetch(`${baseUrl}${PLAYLISTS}?watch=true&fieldSelector=spec.title%3Dx`, { headers: auth() });
  expect([sel.status, ((await sel.json()) as { message: string }).message]).toEqual([400, 'field label not supported: spec.title']);
  const sie = await fetch(`${baseUrl}${PLAYLISTS}?watch=true&sendInitialEvents=true`, { headers: auth() });
  expect(sie.status).toBe(422);
  expect(await sie.json()).toMatchObject({
    reason: 'Invalid',
    message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
  });
  const anon = await fetch(`${baseUrl}${PLAYLISTS}?watch=true`);
  expect(anon.status).toBe(401);
});

test('sendInitialEvents=true: the initial events end with an annotated bookmark at the list version; then periodic bookmarks', async () => {
  await create(PLAYLISTS, playlist('bm-1', { case: 'bm' }));
  await create(PLAYLISTS, playlist('bm-2', { case: 'bm' }));
  const listed = (await t.as.get(`${PLAYLISTS}?labelSelector=case%3Dbm`)).body;
  const w = await watch(`${PLAYLISTS}?watch=true&labelSelector=case%3Dbm&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
  await w.count(3);
  expect(w.events.slice(0, 2)).toEqual(listed.items.map((object: unknown) => ({ type: 'ADDED', object })));
  const end = w.events[2];
  expect(end.type).toBe('BOOKMARK');
  expect(end.object).toEqual({
    kind: 'Playlist',
    apiVersion: 'playlist.svc.app/v1',
    metadata: { resourceVersion: end.object.metadata.resourceVersion, annotations: { 'k8s.io/initial-events-end': 'true' } },
  });
  expect(rvOf(end)).toBeGreaterThanOrEqual(Number(listed.metadata.resourceVersion));
  // A change outside the selection moves the watch's position; the next periodic bookmark says so.
  const other = await create(PLAYLISTS, playlist('bm-other', { case: 'elsewhere' }));
  await w.until((e) => e.filter((x) => x.type === 'BOOKMARK').length >= 2, 3000, 'a periodic bookmark');
  const periodic = w.of('BOOKMARK')[1];
  expect(periodic.object.metadata.annotations).toBeUndefined();
  expect(rvOf(periodic)).toBeGreaterThanOrEqual(Number(other.metadata.resourceVersion));

  // Without allowWatchBookmarks: no bookmark at all.
  const quiet = await watch(`${PLAYLISTS}?watch=true&labelSelector=case%3Dbm&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
  await quiet.count(2);
  await new Promise((r) => setTimeout(r, 1200));
  expect(quiet.events.map((e) => e.type)).toEqual(['ADDED', 'ADDED']);

  // sendInitialEvents=false: no initial events, the changes after now.
  const later = await watch(`${PLAYLISTS}?watch=true&labelSelector=case%3Dbm&sendInitialEvents=false&resourceVersionMatch=NotOlderThan`);
  await new Promise((r) => setTimeout(r, 150));
  await patch(`${PLAYLISTS}/bm-1`, { spec: { title: 'again' } });
  await later.count(1);
  expect(later.events.map((e) => [e.type, e.object.metadata.name])).toEqual([['MODIFIED', 'bm-1']]);
});

test('timeoutSeconds ends the stream cleanly', async () => {
  const started = Date.now();
  const w = await watch(`${PLAYLISTS}?watch=true&resourceVersion=0&labelSelector=case%3Dnothing&timeoutSeconds=1`);
  await w.closed(4000);
  const took = Date.now() - started;
  expect(took).toBeGreaterThanOrEqual(950);
  expect(took).toBeLessThan(2500);
  expect(w.res.complete).toBe(true); // the chunked body was terminated properly, not cut
  expect(w.events).toEqual([]);
});

test('a client going away ends its watch; the kind stops being polled when its last watch ends', async () => {
  const w = await watch(`${FOLDERS}?watch=true&resourceVersion=0`);
  await w.until(() => hub.stats().watches > 0, 2000, 'the watch to register');
  w.close();
  const deadline = Date.now() + 3000;
  while (hub.stats().kinds > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(hub.stats()).toEqual({ kinds: 0, watches: 0 });
});

test('streamWatch renders objects through `render`; an error mid-stream becomes a last ERROR event with its Status', async () => {
  const failed = await watch('/test/stream');
  await failed.closed();
  expect(failed.events).toEqual([
    { type: 'ADDED', object: { kind: 'Table', rows: [{ cells: ['x'] }] } },
    { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'an internal error occurred', reason: 'InternalError', code: 500 } },
  ]);
  const down = await watch('/test/stream?fail=status');
  await down.closed();
  expect(down.events[1].object).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503, message: 'database is down' });
});

function auth(): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` };
}
