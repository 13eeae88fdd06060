/**
 * The WatchHub on real databases, without HTTP: what idle watches cost in queries (counted by a Storage wrapper),
 * a second server process (a second Storage and hub on the same database), catch-up paths, slow watchers.
 */
import { allKinds } from '../../apis';
import type { KindRegistration } from '../../pkg/meta';
import { silentLogger } from '../../pkg/log';
import { Namespaces, Registry, type RequestContext } from '../../pkg/registry';
import { type WatchEvent, WatchHub, type WatchHubOptions, type WatchRequest } from '../../pkg/registry/watch';
import { openStorage, type Storage } from '../../storage';
import { createTestDatabase, type TestDatabase, testBackend } from '../support/backend';
import { countingStorage as counting } from '../support/storage-reads';

const ctx: RequestContext = { requester: { identity: 'user:admin' }, namespace: 'default', fieldManager: 'watch-test' };
const kindOf = (plural: string) => allKinds.find((k) => k.plural === plural)!;
const playlists = kindOf('playlists');

/** Pulls a watch's events in the background. */
function consume(events: AsyncIterable<WatchEvent>) {
  const it = events[Symbol.asyncIterator]();
  const got: WatchEvent[] = [];
  const state = { done: false };
  const finished = (async () => {
    for (;;) {
      const r = await it.next();
      if (r.done) break;
      got.push(r.value);
    }
    state.done = true;
  })();
  return { events: got, state, finished, stop: () => it.return!() };
}

async function until(pred: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const names = (evs: WatchEvent[]) => evs.map((e) => [e.type, e.type === 'ERROR' ? e.object.message : (e.object.metadata as { name?: string }).name]);
const rv = (e: WatchEvent) => Number(e.object.metadata.resourceVersion);
const playlist = (name: string, labels: Record<string, string> = {}) => ({
  metadata: { name, labels },
  spec: { title: name, interval: '5m', items: [{ type: 'dashboard_by_tag', value: 'ops' }] },
});

let db: TestDatabase;
let base: Storage;
let registry: Registry;
const hubs: WatchHub[] = [];

function newHub(storage: Storage, opts: Partial<WatchHubOptions> = {}): WatchHub {
  const hub = new WatchHub(storage, { pollIntervalMs: 100, log: silentLogger, ...opts });
  hubs.push(hub);
  return hub;
}

function request(reg: Registry, kind: KindRegistration, opts: Partial<WatchRequest> = {}): WatchRequest {
  return {
    kind,
    namespaces: [{ namespace: 'default' }],
    present: (s) => reg.present(kind, s),
    list: (page) => reg.list(ctx, kind, { ...page, labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector }),
    ...opts,
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  base = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 20 });
  registry = new Registry(base, allKinds, { nestedFolders: true, namespaces: new Namespaces() });
  await registry.init();
});
afterEach(() => {
  for (const h of hubs.splice(0)) h.stop();
});
afterAll(async () => {
  await base.close();
  await db.drop();
});

test('2,000 idle watches cost one history query per poll interval, not one per watch, and all see a write', async () => {
  const c = counting(base);
  const hub = newHub(c.storage, { pollIntervalMs: 100 });
  const { current } = await base.versions({ group: 'playlist.svc.app', resource: 'playlists' });
  const watches = Array.from({ length: 2000 }, () => consume(hub.watch(request(registry, playlists, { resourceVersion: String(current), labelSelector: 'case=idle' }))));
  await until(() => hub.stats().watches === 2000, 10000, '2,000 watches');
  // Starting them cost one versions() read (shared by every watch that started before it came back).
  expect(c.counts.get('versions')).toBe(1);

  c.reset();
  await new Promise((r) => setTimeout(r, 2000));
  const idle = Object.fromEntries(c.counts);
  // ~20 polls in 2 s at 100 ms (the poll waits for its query, so a few fewer); nothing else.
  expect(idle.eventsSince).toBeGreaterThanOrEqual(10);
  expect(idle.eventsSince).toBeLessThanOrEqual(22);
  expect(c.total() - idle.eventsSince).toBeLessThanOrEqual(1); // at most one freshen (every 10 s)

  c.reset();
  const created = await registry.create(ctx, playlists, playlist('idle-1', { case: 'idle' }));
  await until(() => watches.every((w) => w.events.length === 1), 3000, 'the write to reach every watch');
  for (const w of watches) expect(w.events[0]).toEqual({ type: 'ADDED', object: created });
  // Fan-out shares one presented object between watches.
  expect(new Set(watches.map((w) => w.events[0].object)).size).toBe(1);
  expect(c.counts.get('objectHistory') ?? 0).toBe(0);

  await Promise.all(watches.map((w) => w.stop()));
  expect(hub.stats()).toEqual({ kinds: 0, watches: 0 });
  c.reset();
  await new Promise((r) => setTimeout(r, 300));
  expect(c.total()).toBe(0); // no watches, no polling
});

(testBackend() === 'postgres' ? test : test.skip)('a second server process on the same database sees the first one\'s writes within a second, and back (postgres only: the embedded database belongs to one process)', async () => {
  const other = await openStorage({ url: db.url, dataDir: '', maxConnections: 5 });
  try {
    const otherRegistry = new Registry(other, allKinds, { nestedFolders: true, namespaces: new Namespaces() });
    const hubA = newHub(base);
    const hubB = newHub(other);
    const onB = consume(hubB.watch(request(otherRegistry, playlists, { labelSelector: 'case=xproc' })));
    const onA = consume(hubA.watch(request(registry, playlists, { labelSelector: 'case=xproc' })));
    await until(() => hubA.stats().watches === 1 && hubB.stats().watches === 1, 3000, 'both watches');

    const t0 = Date.now();
    await registry.create(ctx, playlists, playlist('xp-a', { case: 'xproc' }));
    await until(() => onB.events.length === 1, 1000, 'process B to see the write of A');
    const latency = Date.now() - t0;
    expect(latency).toBeLessThan(1000);
    await otherRegistry.create(ctx, playlists, playlist('xp-b', { case: 'xproc' }));
    await until(() => onA.events.length === 2 && onB.events.length === 2, 1000, 'both to see the write of B');
    expect(onA.events).toEqual(onB.events);
    expect(names(onA.events)).toEqual([['ADDED', 'xp-a'], ['ADDED', 'xp-b']]);
  } finally {
    for (const h of hubs.splice(0)) h.stop();
    await other.close();
  }
});

test('a resume older than the poller\'s memory reads history page by page, then joins the live feed without gap or repeat', async () => {
  const c = counting(base);
  const hub = newHub(c.storage, { pollIntervalMs: 50, recentChanges: 4, pageSize: 7 });
  const live = consume(hub.watch(request(registry, playlists, { labelSelector: 'case=pages' })));
  await until(() => hub.stats().watches === 1, 3000, 'the first watch');
  for (let i = 0; i < 12; i++) {
    await registry.create(ctx, playlists, playlist(`pg-${i}`, { case: 'pages' }));
    await registry.patch(ctx, playlists, `pg-${i}`, (cur) => ({ ...cur, spec: { ...cur.spec, title: 'v2' } }));
  }
  await until(() => live.events.length === 24, 5000, '24 events');
  c.reset();
  const from = rv(live.events[2]);
  const resumed = consume(hub.watch(request(registry, playlists, { labelSelector: 'case=pages', resourceVersion: String(from) })));
  await until(() => resumed.events.length === 21, 5000, '21 events');
  expect(resumed.events).toEqual(live.events.slice(3));
  // 21 rows at 7 a page: several history reads. What each MODIFIED replaced is found in the pages read, except
  // for the first one (pg-1's creation is before the resume point): one lookup.
  expect(c.counts.get('eventsSince')).toBeGreaterThanOrEqual(3);
  expect(c.counts.get('objectHistory')).toBe(1);
  // And it is live now: a new write reaches it.
  await registry.delete(ctx, playlists, 'pg-0');
  await until(() => resumed.events.length === 22, 2000, 'the live delete');
  expect(resumed.events[21]).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'pg-0' } } });
});

test('a resume within the poller\'s memory costs no query at all', async () => {
  const c = counting(base);
  const hub = newHub(c.storage, { pollIntervalMs: 50 });
  const live = consume(hub.watch(request(registry, playlists, { labelSelector: 'case=mem' })));
  await until(() => hub.stats().watches === 1, 3000, 'the first watch');
  for (let i = 0; i < 5; i++) await registry.create(ctx, playlists, playlist(`mem-${i}`, { case: 'mem' }));
  await until(() => live.events.length === 5, 3000, '5 events');
  c.reset();
  const resumed = consume(hub.watch(request(registry, playlists, { labelSelector: 'case=mem', resourceVersion: live.events[1].object.metadata.resourceVersion })));
  await until(() => resumed.events.length === 3, 3000, '3 events');
  expect(resumed.events).toEqual(live.events.slice(2));
  expect(c.total() - (c.counts.get('eventsSince') ?? 0)).toBe(0);
});

test('the initial list is read in pages at one version: writes during it come after it, as changes', async () => {
  const hub = newHub(base, { pollIntervalMs: 50, pageSize: 3 });
  for (let i = 0; i < 8; i++) await registry.create(ctx, playlists, playlist(`il-${i}`, { case: 'initial' }));
  const it = hub.watch(request(registry, playlists, { labelSelector: 'case=initial' }))[Symbol.asyncIterator]();
  const first = await it.next();
  expect(first.value).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'il-0' } } });
  // While the watch is between pages of its list: a new object, a change to a listed one, a deletion.
  await registry.create(ctx, playlists, playlist('il-new', { case: 'initial' }));
  await registry.patch(ctx, playlists, 'il-1', (cur) => ({ ...cur, spec: { ...cur.spec, title: 'changed' } }));
  await registry.delete(ctx, playlists, 'il-7');
  const got: WatchEvent[] = [first.value as WatchEvent];
  while (got.length < 11) got.push((await it.next()).value as WatchEvent);
  await it.return!();
  expect(names(got)).toEqual([
    ...Array.from({ length: 8 }, (_, i) => ['ADDED', `il-${i}`]),
    ['ADDED', 'il-new'],
    ['MODIFIED', 'il-1'],
    ['DELETED', 'il-7'],
  ]);
  const listVersions = got.slice(0, 8).map(rv);
  expect(Math.max(...listVersions)).toBeLessThan(rv(got[8]));
});

test('a watcher too slow to drain its queue is ended; the others go on', async () => {
  const hub = newHub(base, { pollIntervalMs: 50, maxQueue: 5 });
  const slow = hub.watch(request(registry, playlists, { labelSelector: 'case=slow', sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' }))[Symbol.asyncIterator]();
  const pending = slow.next(); // starts it; nothing is pulled after this one
  const fast = consume(hub.watch(request(registry, playlists, { labelSelector: 'case=slow', sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan' })));
  await until(() => hub.stats().watches === 2, 3000, 'both watches');
  for (let i = 0; i < 10; i++) await registry.create(ctx, playlists, playlist(`slow-${i}`, { case: 'slow' }));
  await until(() => fast.events.length === 10, 3000, 'the fast watch');
  // The slow one holds up to 9 undelivered events (one was pulled): more than 5 when a later batch comes (the
  // writes above may have spanned several polls already; this one makes sure of one more).
  await registry.create(ctx, playlists, playlist('slow-last', { case: 'slow' }));
  await until(() => hub.stats().watches === 1, 3000, 'the slow watch to be ended');
  await until(() => fast.events.length === 11, 3000, 'the fast watch');
  expect((await pending).done).toBe(false);
  expect((await slow.next()).done).toBe(true);
  expect(fast.state.done).toBe(false);
});

test('deleting a folder deletes its dashboards: a dashboards watch sees each DELETED', async () => {
  const hub = newHub(base, { pollIntervalMs: 50 });
  await registry.create(ctx, kindOf('folders'), { metadata: { name: 'wf' }, spec: { title: 'F' } });
  for (const n of ['wf-d1', 'wf-d2']) {
    await registry.create(ctx, kindOf('dashboards'), { metadata: { name: n, annotations: { 'svc.app/folder': 'wf' } }, spec: { title: n } });
  }
  const w = consume(hub.watch(request(registry, kindOf('dashboards'), { resourceVersion: '0' })));
  await until(() => w.events.length === 2, 3000, 'the initial dashboards');
  await registry.delete(ctx, kindOf('folders'), 'wf');
  await until(() => w.events.length === 4, 3000, 'the cascade');
  expect(names(w.events.slice(2)).sort()).toEqual([['DELETED', 'wf-d1'], ['DELETED', 'wf-d2']]);
});

test('stop() ends every watch cleanly and refuses new ones with 503', async () => {
  const hub = newHub(base, { pollIntervalMs: 50 });
  const ws = [0, 1, 2].map(() => consume(hub.watch(request(registry, playlists, { labelSelector: 'case=stop' }))));
  await until(() => hub.stats().watches === 3, 3000, 'three watches');
  hub.stop();
  await Promise.all(ws.map((w) => w.finished));
  expect(ws.every((w) => w.state.done)).toBe(true);
  expect(() => hub.watch(request(registry, playlists))).toThrow(expect.objectContaining({ code: 503 }));
});

test('timeouts and bookmarks are driven by the poller, not by a timer per watch', async () => {
  const hub = newHub(base, { pollIntervalMs: 50, bookmarkIntervalMs: 300 });
  const started = Date.now();
  const at: number[] = [];
  const w = consume(hub.watch(request(registry, playlists, { labelSelector: 'case=tick', resourceVersion: '0', allowWatchBookmarks: true, timeoutSeconds: 3 })));
  const seen = setInterval(() => {
    while (at.length < w.events.length) at.push(Date.now() - started);
  }, 5);
  await w.finished;
  clearInterval(seen);
  const took = Date.now() - started;
  expect(took).toBeGreaterThanOrEqual(2950);
  expect(took).toBeLessThan(3500);
  // Every ~300 ms, the last one 2 s before the deadline (as kube schedules them), then none.
  expect(new Set(w.events.map((e) => e.type))).toEqual(new Set(['BOOKMARK']));
  expect(w.events.length).toBeGreaterThanOrEqual(3);
  expect(w.events.length).toBeLessThanOrEqual(5);
  expect(Math.max(...at)).toBeLessThan(1300);
});
