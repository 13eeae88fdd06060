import type { JsonObject, KindRegistration, Resource } from '../meta';
import type { StoredObject } from '../../storage';
import { Change } from './watch-change';
import { Watcher, type WatcherOptions } from './watch-watcher';

const kind = { group: 'x.svc.app', version: 'v1', kind: 'X', plural: 'xs' } as unknown as KindRegistration;
const present = (s: StoredObject) => ({ ...(s.value as unknown as Resource), metadata: { name: s.key.name, resourceVersion: String(s.resourceVersion) } }) as Resource;
const change = (rv: number, namespace = 'default') =>
  new Change({ key: { group: 'x.svc.app', resource: 'xs', namespace, name: `n${rv}` }, resourceVersion: rv, previousResourceVersion: 0, action: 'ADDED', value: { metadata: {} } as JsonObject }, present);

function watcher(o: Partial<WatcherOptions> = {}): Watcher {
  return new Watcher({ kind, namespaces: ['default'], selection: { labels: [], fields: [] }, after: 10, deadline: Date.now() + 60_000, bookmarks: false, bookmarkIntervalMs: 1000, maxQueue: 3, ...o });
}

describe('Watcher', () => {
  it('takes changes in order, once, after its start and in its namespace only', async () => {
    const w = watcher();
    for (const c of [change(9), change(11), change(11), change(12, 'other'), change(13)]) w.offer(c, 1);
    expect([(await w.take())?.object.metadata.resourceVersion, (await w.take())?.object.metadata.resourceVersion]).toEqual(['11', '13']);
    expect(w.cursor).toBe(13);
    expect(w.pending).toBe(0);
  });

  it('a watch across namespaces takes the changes of each of its namespaces, and of no other', async () => {
    const w = watcher({ namespaces: ['default', 'org-2'] });
    for (const c of [change(11, 'org-2'), change(12, 'org-3'), change(13)]) w.offer(c, 1);
    expect([w.watches('org-2'), w.watches('org-3')]).toEqual([true, false]);
    expect([(await w.take())?.object.metadata.resourceVersion, (await w.take())?.object.metadata.resourceVersion]).toEqual(['11', '13']);
    expect([w.cursor, w.pending]).toEqual([13, 0]);
  });

  it('a batch is queued whole; more than maxQueue still waiting when the next batch comes ends the watch', async () => {
    const w = watcher();
    for (let rv = 11; rv <= 15; rv++) w.offer(change(rv), 1);
    expect(w.pending).toBe(5);
    w.offer(change(16), 2);
    expect([w.ended, w.endReason, w.pending]).toEqual([true, 'overflow', 0]);
    expect(await w.take()).toBeUndefined();
  });

  it('wakes a waiting take on offer and on end', async () => {
    const w = watcher();
    const waiting = w.take();
    w.offer(change(11), 1);
    expect((await waiting)?.type).toBe('ADDED');
    const again = w.take();
    w.end('closed');
    expect(await again).toBeUndefined();
  });

  it('bookmarks every interval and once 2 s before the deadline, never past it; ends at the deadline', () => {
    const now = Date.now();
    const w = watcher({ bookmarks: true, bookmarkIntervalMs: 1000, deadline: now + 4500 });
    const first = w.nextBookmarkAt;
    expect(first - now).toBeGreaterThanOrEqual(1000);
    w.tick(first, 50);
    expect(w.pending).toBe(1);
    expect(w.nextBookmarkAt).toBe(first + 1000);
    w.tick(first + 1000, 60);
    // min(now + 1 s, deadline - 2 s)
    expect(w.nextBookmarkAt).toBe(now + 2500);
    w.tick(now + 2500, 60);
    expect(w.nextBookmarkAt).toBe(Infinity);
    expect(w.pending).toBe(3);
    w.tick(now + 4500, 70);
    expect(w.ended).toBe(true);
  });

  it('a bookmark carries the later of its cursor and the poller position, and never overflows the queue', async () => {
    const w = watcher({ bookmarks: true, bookmarkIntervalMs: 1 });
    w.tick(Date.now() + 5, 7);
    expect((await w.take())?.object).toEqual({ kind: 'X', apiVersion: 'x.svc.app/v1', metadata: { resourceVersion: '10' } });
    w.tick(Date.now() + 10, 99);
    expect((await w.take())?.object.metadata.resourceVersion).toBe('99');
    for (let rv = 11; rv <= 13; rv++) w.offer(change(rv), 1);
    w.tick(Date.now() + 20, 100);
    expect([w.pending, w.ended]).toEqual([3, false]);
  });
});
