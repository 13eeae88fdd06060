/**
 * One storage conformance suite, run against the PostgreSQL server and the embedded PGlite backend.
 * It speaks only the Storage interface.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStorage, type ResourceKey, type Storage, StorageError } from '../../storage';
import { type Backend, createTestStorage } from '../support/backend';

const T = { group: 'test.svc.app', resource: 'widgets' };
const OTHER = { group: 'test.svc.app', resource: 'gadgets' };
const key = (name: string, namespace = 'default'): ResourceKey => ({ ...T, namespace, name });
const obj = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, ...extra }, spec: { n: name } });
const noFolder = { folder: '' };

async function storageCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StorageError) return err.code;
    throw err;
  }
  return 'no error';
}

describe.each<Backend>(['postgres', 'embedded'])('storage conformance (%s)', (backend) => {
  let storage: Storage;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, close } = await createTestStorage(backend));
    await storage.registerTypes([T, OTHER]);
  }, 120_000);
  afterAll(() => close());

  test('observeQueries is told each query\'s duration until stopped; poolStats describes the pool (PostgreSQL) or is undefined (embedded)', async () => {
    const seen: Array<[number, boolean]> = [];
    const stop = storage.observeQueries((seconds, failed) => seen.push([seconds, failed]));
    await storage.get(key('observed'));
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.every(([seconds, failed]) => seconds >= 0 && !failed)).toBe(true);
    stop();
    const count = seen.length;
    await storage.get(key('observed'));
    expect(seen).toHaveLength(count);
    const pool = storage.poolStats();
    if (backend === 'embedded') return expect(pool).toBeUndefined();
    expect(pool!.total).toBeGreaterThanOrEqual(1);
    expect(pool!.idle).toBeLessThanOrEqual(pool!.total);
    expect(pool!.waiting).toBe(0);
  });

  test('create, get, and create of an existing key fails with KeyExists', async () => {
    const created = await storage.transact((tx) => tx.create(key('a1'), obj('a1'), noFolder));
    expect(created.resourceVersion).toBeGreaterThan(0);
    const got = await storage.get(key('a1'));
    expect(got).toEqual({ key: key('a1'), resourceVersion: created.resourceVersion, value: obj('a1') });
    expect(await storageCode(storage.transact((tx) => tx.create(key('a1'), obj('a1'), noFolder)))).toBe('KeyExists');
    expect(await storage.get(key('missing'))).toBeUndefined();
  });

  test('update needs the current resourceVersion; delete honours an expected version', async () => {
    const c = await storage.transact((tx) => tx.create(key('u1'), obj('u1'), noFolder));
    const u = await storage.transact((tx) => tx.update(key('u1'), obj('u1', { labels: { x: '1' } }), c.resourceVersion, noFolder));
    expect(u.resourceVersion).toBeGreaterThan(c.resourceVersion);
    expect(await storageCode(storage.transact((tx) => tx.update(key('u1'), obj('u1'), c.resourceVersion, noFolder)))).toBe('Conflict');
    expect(await storageCode(storage.transact((tx) => tx.update(key('nope'), obj('nope'), 1, noFolder)))).toBe('NotFound');
    expect(await storageCode(storage.transact((tx) => tx.delete(key('u1'), c.resourceVersion)))).toBe('Conflict');
    const d = await storage.transact((tx) => tx.delete(key('u1'), u.resourceVersion));
    expect(d.resourceVersion).toBeGreaterThan(u.resourceVersion);
    expect(await storage.get(key('u1'))).toBeUndefined();
    expect(await storageCode(storage.transact((tx) => tx.delete(key('u1'))))).toBe('NotFound');
  });

  test('count: one namespace or every one, by names and labels, inside a transaction as outside', async () => {
    const C = { group: 'test.svc.app', resource: 'counted' };
    await storage.registerTypes([C]);
    const put = (namespace: string, name: string, labels: Record<string, string> = {}) =>
      storage.transact((tx) => tx.create({ ...C, namespace, name }, { metadata: { name, labels }, spec: {} }, noFolder));
    await put('default', '7', { owner: 'a' });
    await put('org-2', '7', { owner: 'b' });
    await put('org-2', '8', { owner: 'a' });
    const owner = (v: string) => [{ key: 'owner', operator: 'Equals' as const, values: [v] }];
    const queries = [
      [{ ...C, namespace: 'org-2' }, 2],
      [{ ...C, namespace: '', everyNamespace: true, names: ['7'] }, 2],
      [{ ...C, namespace: '', everyNamespace: true, names: ['7', '8', '9'] }, 3],
      [{ ...C, namespace: 'org-2', names: ['7'] }, 1],
      [{ ...C, namespace: '', everyNamespace: true, names: [] }, 0],
      [{ ...C, namespace: '', everyNamespace: true, labels: owner('a') }, 2],
      [{ ...C, namespace: '', everyNamespace: true, names: ['7'], labels: owner('a') }, 1],
    ] as const;
    for (const [q, n] of queries) {
      expect([q, await storage.count(q)]).toEqual([q, n]);
      expect([q, await storage.transact((tx) => tx.count(q))]).toEqual([q, n]);
    }
  });

  test('historyValue is what history records (watch events, object history, later list pages); the current row keeps the value', async () => {
    // A type of its own: other tests count every write of T.
    const V = { group: 'test.svc.app', resource: 'vaults' };
    await storage.registerTypes([V]);
    const vkey = (name: string): ResourceKey => ({ ...V, namespace: 'default', name });
    const secret = (name: string, password: string) => ({ metadata: { name }, spec: { n: name, password } });
    const redacted = (name: string) => ({ metadata: { name }, spec: { n: name } });
    const c = await storage.transact((tx) => tx.create(vkey('h1'), secret('h1', 'first'), { folder: '', historyValue: redacted('h1') }));
    expect(c.value).toEqual(secret('h1', 'first'));
    const u = await storage.transact((tx) => tx.update(vkey('h1'), secret('h1', 'second'), c.resourceVersion, { folder: '', historyValue: redacted('h1') }));
    expect((await storage.get(vkey('h1')))!.value).toEqual(secret('h1', 'second'));
    expect((await storage.list({ ...V, namespace: 'default', names: ['h1'] })).items[0]!.value).toEqual(secret('h1', 'second'));
    const history = await storage.objectHistory(vkey('h1'), { limit: 10 });
    expect(history.map((e) => [e.action, e.value])).toEqual([['MODIFIED', redacted('h1')], ['ADDED', redacted('h1')]]);
    const events = (await storage.eventsSince(V, c.resourceVersion - 1, 100)).filter((e) => e.key.name === 'h1');
    expect(events.map((e) => e.value)).toEqual([redacted('h1'), redacted('h1')]);
    const at = await storage.list({ ...V, namespace: 'default', names: ['h1'], atResourceVersion: u.resourceVersion });
    expect(at.items[0]!.value).toEqual(redacted('h1'));
    // A delete records its final value, which the caller redacts the same way.
    await storage.transact((tx) => tx.delete(vkey('h1'), u.resourceVersion, redacted('h1')));
    expect(JSON.stringify(await storage.objectHistory(vkey('h1'), { limit: 10 }))).not.toMatch(/first|second/);
  });

  test('redactHistory removes a field from every history row of a type, and nothing else', async () => {
    const V = { group: 'test.svc.app', resource: 'oldvaults' };
    await storage.registerTypes([V]);
    const vkey = (name: string): ResourceKey => ({ ...V, namespace: 'default', name });
    const c = await storage.transact((tx) => tx.create(vkey('o1'), { metadata: { name: 'o1' }, spec: { n: 1, password: 'first', 'we"ird': 'x' } }, noFolder));
    await storage.transact((tx) => tx.update(vkey('o1'), { metadata: { name: 'o1' }, spec: { n: 2, password: 'second' } }, c.resourceVersion, noFolder));
    const W = { group: 'test.svc.app', resource: 'othervaults' };
    await storage.registerTypes([W]);
    await storage.transact((tx) => tx.create({ ...W, namespace: 'default', name: 'o1' }, { metadata: { name: 'o1' }, spec: { password: 'other type' } }, noFolder));
    expect(await storage.redactHistory(V, [['spec', 'password'], ['spec', 'we"ird']])).toBe(3);
    const history = await storage.objectHistory(vkey('o1'), { limit: 10 });
    expect(history.map((e) => e.value.spec)).toEqual([{ n: 2 }, { n: 1 }]);
    expect((await storage.get(vkey('o1')))!.value.spec).toEqual({ n: 2, password: 'second' });
    expect((await storage.objectHistory({ ...W, namespace: 'default', name: 'o1' }, { limit: 10 }))[0]!.value.spec).toEqual({ password: 'other type' });
    expect(await storage.redactHistory(V, [['spec', 'password']])).toBe(0);
  });

  test('a failed transaction leaves nothing behind', async () => {
    const before = await storage.versions(T);
    await expect(
      storage.transact(async (tx) => {
        await tx.create(key('rolled-back'), obj('rolled-back'), noFolder);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await storage.get(key('rolled-back'))).toBeUndefined();
    expect(await storage.versions(T)).toEqual(before);
  });

  test('allVersions answers every type\'s versions, the same frozen array while nothing moved; allVersionsWith the object with them', async () => {
    const first = await storage.allVersions();
    const mine = (all: readonly { group: string; resource: string; current: number }[]) => all.find((v) => v.group === T.group && v.resource === T.resource)!;
    expect(mine(first).current).toBe((await storage.versions(T)).current);
    expect(await storage.allVersions()).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
    const created = await storage.transact((tx) => tx.create(key('av1'), obj('av1'), noFolder));
    const after = await storage.allVersions();
    expect(after).not.toBe(first);
    expect(mine(after).current).toBe(created.resourceVersion);
    const both = await storage.allVersionsWith!(key('av1'));
    expect(both.versions).toBe(after);
    expect(both.object?.resourceVersion).toBe(created.resourceVersion);
    expect((await storage.allVersionsWith!(key('absent'))).object).toBeUndefined();
  });

  test('allVersions calls made together share one statement; a call made after it was sent reads again, and sees writes', async () => {
    const mine = (all: readonly { group: string; resource: string; current: number }[]) => all.find((v) => v.group === T.group && v.resource === T.resource)!;
    const statements: string[] = [];
    const stop = storage.observeQueries((_s, _f, text) => statements.push(text));
    try {
      // A write first, so the embedded database (the sole writer, which keeps its versions) reads them again too.
      const created = await storage.transact((tx) => tx.create(key('shared1'), obj('shared1'), noFolder));
      statements.length = 0;
      const together = await Promise.all([storage.allVersions(), storage.allVersions(), storage.allVersions()]);
      expect(statements).toHaveLength(1);
      expect(together[1]).toBe(together[0]);
      expect(together[2]).toBe(together[0]);
      expect(mine(together[0]).current).toBe(created.resourceVersion);
      // A call made once the shared statement was sent does not ride on it: it could miss what committed since.
      const sent = storage.allVersions();
      await new Promise((resolve) => setImmediate(resolve));
      const later = storage.allVersions();
      await Promise.all([sent, later]);
      expect(statements).toHaveLength(backend === 'embedded' ? 1 : 3);
      const next = await storage.transact((tx) => tx.create(key('shared2'), obj('shared2'), noFolder));
      expect(mine(await storage.allVersions()).current).toBe(next.resourceVersion);
    } finally {
      stop();
    }
  });

  test('resourceVersions grow per type and every write is in history', async () => {
    const start = (await storage.versions(T)).current;
    const a = await storage.transact((tx) => tx.create(key('h1'), obj('h1'), noFolder));
    const b = await storage.transact((tx) => tx.update(key('h1'), obj('h1', { labels: { v: '2' } }), a.resourceVersion, noFolder));
    const c = await storage.transact((tx) => tx.delete(key('h1')));
    expect(a.resourceVersion).toBeGreaterThan(start);
    expect((await storage.versions(T)).current).toBe(c.resourceVersion);
    const events = await storage.eventsSince(T, start, 100);
    const mine = events.filter((e) => e.key.name === 'h1');
    expect(mine.map((e) => [e.action, e.resourceVersion, e.previousResourceVersion])).toEqual([
      ['ADDED', a.resourceVersion, 0],
      ['MODIFIED', b.resourceVersion, a.resourceVersion],
      ['DELETED', c.resourceVersion, b.resourceVersion],
    ]);
    const history = await storage.objectHistory(key('h1'), { limit: 10 });
    expect(history.map((e) => e.resourceVersion)).toEqual([c.resourceVersion, b.resourceVersion, a.resourceVersion]);
    expect((await storage.objectHistory(key('h1'), { limit: 10, before: c.resourceVersion })).length).toBe(2);
  });

  test('pages are keyset-ordered in byte order, and a later page shows the collection at the first page version', async () => {
    const ns = 'paging';
    for (const n of ['b', 'a', 'C', 'd', 'e']) await storage.transact((tx) => tx.create(key(n, ns), obj(n), noFolder));
    const first = await storage.list({ ...T, namespace: ns, limit: 2 });
    expect(first.items.map((i) => i.key.name)).toEqual(['C', 'a']);
    expect(first.more).toBe(true);

    // Writes between pages must not show on later pages.
    const d = (await storage.get(key('d', ns)))!;
    await storage.transact(async (tx) => {
      await tx.delete(key('b', ns));
      await tx.create(key('bb', ns), obj('bb'), noFolder);
      await tx.update(key('d', ns), obj('d', { labels: { changed: 'yes' } }), d.resourceVersion, noFolder);
    });
    const second = await storage.list({ ...T, namespace: ns, limit: 2, after: 'a', atResourceVersion: first.resourceVersion });
    expect(second.items.map((i) => i.key.name)).toEqual(['b', 'd']);
    expect(second.items[1].value).toEqual(obj('d'));
    expect(second.resourceVersion).toBe(first.resourceVersion);
    const third = await storage.list({ ...T, namespace: ns, limit: 2, after: 'd', atResourceVersion: first.resourceVersion });
    expect(third.items.map((i) => i.key.name)).toEqual(['e']);
    expect(third.more).toBe(false);

    // And a fresh list sees the new state.
    const now = await storage.list({ ...T, namespace: ns });
    expect(now.items.map((i) => i.key.name)).toEqual(['C', 'a', 'bb', 'd', 'e']);
    expect(now.resourceVersion).toBeGreaterThan(first.resourceVersion);
  });

  test('reading at a past version walks past deletions, many versions and sparse matches, page by page', async () => {
    const ns = 'deep';
    const names = Array.from({ length: 700 }, (_, i) => `n${String(i).padStart(4, '0')}`);
    await storage.transact(async (tx) => {
      for (const [i, n] of names.entries()) {
        await tx.create(key(n, ns), obj(n, { labels: i % 150 === 7 ? { rare: 'yes' } : {} }), noFolder);
      }
    });
    // Depth: some objects get many versions; some are deleted.
    for (const n of names.slice(0, 20)) {
      for (let v = 0; v < 6; v++) {
        const cur = (await storage.get(key(n, ns)))!;
        await storage.transact((tx) => tx.update(key(n, ns), { ...cur.value, spec: { v } }, cur.resourceVersion, noFolder));
      }
    }
    await storage.transact(async (tx) => {
      for (const n of names.filter((_, i) => i % 3 === 0)) await tx.delete(key(n, ns));
    });
    const at = (await storage.versions(T)).current;
    // Writes after the version must not show.
    await storage.transact((tx) => tx.create(key('n0001a', ns), obj('n0001a', { labels: { rare: 'yes' } }), noFolder));

    const walk = async (q: Partial<Parameters<Storage['list']>[0]>, limit: number) => {
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await storage.list({ ...T, namespace: ns, atResourceVersion: at, limit, after, ...q });
        seen.push(...page.items.map((i) => i.key.name));
        if (!page.more) return seen;
        after = page.items[page.items.length - 1].key.name;
      }
    };
    const alive = names.filter((_, i) => i % 3 !== 0);
    expect(await walk({}, 250)).toEqual(alive);
    expect(await walk({}, 7)).toEqual(alive);
    const rare = alive.filter((n) => [7, 157, 307, 457, 607].includes(Number(n.slice(1))));
    expect(await walk({ labels: [{ key: 'rare', operator: 'Equals', values: ['yes'] }] }, 1)).toEqual(rare);
    expect(await walk({ excludeNames: ['n0001'] }, 300)).toEqual(alive.filter((n) => n !== 'n0001'));
    const one = await storage.list({ ...T, namespace: ns, atResourceVersion: at, limit: 5 });
    expect((one.items[0].value as { spec: unknown }).spec).toEqual({ v: 5 });
  });

  test('label, name and folder filters, now and at a past version', async () => {
    const ns = 'filters';
    const put = (n: string, labels: Record<string, string>, folder = '') =>
      storage.transact((tx) => tx.create(key(n, ns), obj(n, { labels }), { folder }));
    await put('p1', { env: 'prod', tier: '1' }, 'f1');
    await put('p2', { env: 'dev', tier: '10' }, 'f2');
    await put('p3', { tier: 'x' });
    const names = async (q: Partial<Parameters<Storage['list']>[0]>) => {
      const now = await storage.list({ ...T, namespace: ns, ...q });
      const past = await storage.list({ ...T, namespace: ns, atResourceVersion: now.resourceVersion, ...q });
      expect(past.items.map((i) => i.key.name)).toEqual(now.items.map((i) => i.key.name));
      return now.items.map((i) => i.key.name);
    };
    expect(await names({ labels: [{ key: 'env', operator: 'Equals', values: ['prod'] }] })).toEqual(['p1']);
    expect(await names({ labels: [{ key: 'env', operator: 'NotEquals', values: ['prod'] }] })).toEqual(['p2', 'p3']);
    expect(await names({ labels: [{ key: 'env', operator: 'In', values: ['dev', 'prod'] }] })).toEqual(['p1', 'p2']);
    expect(await names({ labels: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] })).toEqual(['p1', 'p3']);
    expect(await names({ labels: [{ key: 'env', operator: 'Exists', values: [] }] })).toEqual(['p1', 'p2']);
    expect(await names({ labels: [{ key: 'env', operator: 'DoesNotExist', values: [] }] })).toEqual(['p3']);
    expect(await names({ labels: [{ key: 'tier', operator: 'GreaterThan', values: ['5'] }] })).toEqual(['p2']);
    expect(await names({ labels: [{ key: 'tier', operator: 'LessThan', values: ['5'] }] })).toEqual(['p1']);
    expect(await names({ names: ['p2', 'zz'] })).toEqual(['p2']);
    expect(await names({ names: [] })).toEqual([]);
    expect(await names({ excludeNames: ['p2'] })).toEqual(['p1', 'p3']);
    expect(await names({ folders: ['f1', ''] })).toEqual(['p1', 'p3']);
  });

  test('namespaces and types are separate collections', async () => {
    await storage.transact((tx) => tx.create(key('same', 'ns-a'), obj('same'), noFolder));
    await storage.transact((tx) => tx.create({ ...OTHER, namespace: 'ns-a', name: 'same' }, obj('other'), noFolder));
    expect((await storage.list({ ...T, namespace: 'ns-b' })).items).toEqual([]);
    expect((await storage.get({ ...OTHER, namespace: 'ns-a', name: 'same' }))?.value).toEqual(obj('other'));
  });

  test('of concurrent updates from one resourceVersion exactly one wins', async () => {
    const c = await storage.transact((tx) => tx.create(key('race'), obj('race'), noFolder));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        storageCode(storage.transact((tx) => tx.update(key('race'), obj('race', { labels: { i: String(i) } }), c.resourceVersion, noFolder))),
      ),
    );
    expect(results.filter((r) => r === 'no error')).toHaveLength(1);
    expect(results.filter((r) => r === 'Conflict')).toHaveLength(7);
  });

  test('a reader resuming from the last version it saw misses no write and repeats none, under concurrent writers', async () => {
    const start = (await storage.versions(T)).current;
    const seen: number[] = [];
    const names: string[] = [];
    let last = start;
    let writing = true;
    const poll = async () => {
      const events = await storage.eventsSince(T, last, 1000);
      for (const e of events) {
        seen.push(e.resourceVersion);
        names.push(e.key.name);
        last = e.resourceVersion;
      }
    };
    const poller = (async () => {
      while (writing) {
        await poll();
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const total = 120;
    await Promise.all(
      Array.from({ length: 6 }, (_, w) =>
        (async () => {
          for (let i = w; i < total; i += 6) await storage.transact((tx) => tx.create(key(`w-${i}`, 'race'), obj(`w-${i}`), noFolder));
        })(),
      ),
    );
    writing = false;
    await poller;
    await poll();
    expect(new Set(names).size).toBe(total);
    expect(names).toHaveLength(total);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  });

  test('a unique key has one holder in its scope: another writer gets UniqueViolation; updates move keys, deletes free them', async () => {
    const ns = 'unique';
    const name = (value: string, scope = 's1') => ({ scope, field: 'name', value });
    const put = (n: string, ...unique: ReturnType<typeof name>[]) => storage.transact((tx) => tx.create(key(n, ns), obj(n), { folder: '', unique }));
    const violation = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (err) {
        if (err instanceof StorageError && err.code === 'UniqueViolation') return err.unique;
        throw err;
      }
      return undefined;
    };
    const k1 = await put('k1', name('x'));
    expect(await violation(put('k2', name('x')))).toEqual(name('x'));
    expect(await storage.get(key('k2', ns))).toBeUndefined();
    // Another scope, another field: no collision.
    await put('k3', name('x', 's2'));
    await put('k4', { scope: 's1', field: 'email', value: 'x' });
    // An update that keeps its own key is no collision; one that moves to a held value is.
    const u1 = await storage.transact((tx) => tx.update(key('k1', ns), obj('k1', { labels: { v: '2' } }), k1.resourceVersion, { folder: '', unique: [name('x'), name('y')] }));
    const k5 = await put('k5', name('z'));
    expect(await violation(storage.transact((tx) => tx.update(key('k5', ns), obj('k5'), k5.resourceVersion, { folder: '', unique: [name('y')] })))).toEqual(name('y'));
    // Dropping a key frees it; a delete frees every key of the object.
    await storage.transact((tx) => tx.update(key('k1', ns), obj('k1'), u1.resourceVersion, { folder: '', unique: [name('y')] }));
    await put('k2', name('x'));
    await storage.transact((tx) => tx.delete(key('k1', ns)));
    await storage.transact((tx) => tx.update(key('k5', ns), obj('k5'), k5.resourceVersion, { folder: '', unique: [name('y')] }));
    // Values beyond what an index row holds are keys too.
    const long = 'v'.repeat(100_000);
    await put('k6', name(long));
    expect(await violation(put('k7', name(long)))).toEqual(name(long));
    await put('k8', name(`${long}w`));
  });

  test('of concurrent creates of one unique value exactly one wins', async () => {
    const ns = 'unique-race';
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        storageCode(storage.transact((tx) => tx.create(key(`r${i}`, ns), obj(`r${i}`), { folder: '', unique: [{ scope: ns, field: 'name', value: 'same' }] }))),
      ),
    );
    expect(results.filter((r) => r === 'no error')).toHaveLength(1);
    expect(results.filter((r) => r === 'UniqueViolation')).toHaveLength(19);
    expect((await storage.list({ ...T, namespace: ns })).items).toHaveLength(1);
  });

  test('syncUniqueKeys gives objects stored before a field was unique their keys, the first holder keeping a shared value', async () => {
    const S = { group: 'test.svc.app', resource: 'synced' };
    const k = (name: string): ResourceKey => ({ ...S, namespace: 'default', name });
    await storage.registerTypes([S]);
    const titled = (name: string, title: string) => ({ metadata: { name }, spec: { title } });
    for (const [n, title] of [['a', 'One'], ['b', 'one'], ['c', 'Two']]) await storage.transact((tx) => tx.create(k(n), titled(n, title), noFolder));
    const keysOf = (value: unknown) => [{ scope: '', field: 'title', value: (value as { spec: { title: string } }).spec.title.toLowerCase() }];
    expect(await storage.syncUniqueKeys(S, ['title'], keysOf)).toEqual({ written: 2, shared: 1 });
    // Done once: a second start finds the field filled.
    expect(await storage.syncUniqueKeys(S, ['title'], keysOf)).toEqual({ written: 0, shared: 0 });
    const create = (n: string, title: string) => storageCode(storage.transact((tx) => tx.create(k(n), titled(n, title), { folder: '', unique: keysOf(titled(n, title)) })));
    expect(await create('d', 'TWO')).toBe('UniqueViolation');
    expect(await create('d', 'one')).toBe('UniqueViolation');
    expect(await create('d', 'three')).toBe('no error');
    // A field no longer declared holds nothing back.
    expect(await storage.syncUniqueKeys(S, [], keysOf)).toEqual({ written: 0, shared: 0 });
    expect(await create('e', 'two')).toBe('no error');
  });

  test('references are written with their object, replaced by its updates, gone with its delete, and read by target', async () => {
    const ns = 'refs';
    const to = (name: string) => ({ ...OTHER, name });
    const referrers = (names: string[], read: Pick<Storage, 'referrers'> = storage) => read.referrers({ ...OTHER, namespace: ns, names });
    const pairs = (refs: Awaited<ReturnType<typeof referrers>>) => refs.map((r) => [r.from.name, r.to.name]);
    const a = await storage.transact((tx) => tx.create(key('ra', ns), obj('ra'), { folder: '', references: [to('x'), to('y'), to('x')] }));
    await storage.transact((tx) => tx.create(key('rb', ns), obj('rb'), { folder: '', references: [to('x')] }));
    expect(pairs(await referrers(['x', 'y', 'z']))).toEqual([['ra', 'x'], ['rb', 'x'], ['ra', 'y']]);
    // Another namespace and another target type are other references.
    expect(await storage.referrers({ ...OTHER, namespace: 'default', names: ['x'] })).toEqual([]);
    expect(await storage.referrers({ ...T, namespace: ns, names: ['x'] })).toEqual([]);
    // An update replaces them; one without `references` leaves them.
    const a2 = await storage.transact((tx) => tx.update(key('ra', ns), obj('ra', { labels: { v: '2' } }), a.resourceVersion, { folder: '', references: [to('z')] }));
    await storage.transact((tx) => tx.update(key('ra', ns), obj('ra'), a2.resourceVersion, { folder: '' }));
    expect(pairs(await referrers(['x', 'y', 'z']))).toEqual([['rb', 'x'], ['ra', 'z']]);
    // A transaction sees its own writes; a failed one leaves nothing.
    await expect(
      storage.transact(async (tx) => {
        await tx.delete(key('rb', ns));
        expect(await referrers(['x'], tx)).toEqual([]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(pairs(await referrers(['x']))).toEqual([['rb', 'x']]);
    await storage.transact((tx) => tx.delete(key('rb', ns)));
    expect(pairs(await referrers(['x', 'y', 'z']))).toEqual([['ra', 'z']]);
  });

  test('deleteAll deletes a namespace\'s matching objects of a type, each with its own DELETED history row, freeing their unique keys, search rows and references', async () => {
    const D = { group: 'test.svc.app', resource: 'doomed' };
    await storage.registerTypes([D]);
    const dkey = (name: string, namespace: string): ResourceKey => ({ ...D, namespace, name });
    const labelled = (name: string, org: string) => ({ metadata: { name, labels: { org } }, spec: { n: name, secret: 's' } });
    const write = (name: string, namespace: string, org = '7') =>
      storage.transact((tx) =>
        tx.create(dkey(name, namespace), labelled(name, org), {
          folder: 'f',
          unique: [{ scope: namespace, field: 'title', value: `t-${name}` }],
          search: { title: `T ${name}`, tags: [], internalId: 0 },
          references: [{ ...D, name: 'target' }],
        }),
      );
    const created = [await write('b', 'gone'), await write('a', 'gone'), await write('c', 'gone', '8'), await write('a', 'kept')];
    const before = (await storage.versions(D)).current;

    // Only the label's objects of the namespace, each recorded as its history value.
    const historyValue = (v: Record<string, unknown>) => ({ ...v, spec: { redacted: true } });
    expect(await storage.transact((tx) => tx.deleteAll({ ...D, namespace: 'gone', labels: [{ key: 'org', operator: 'Equals', values: ['7'] }] }, { historyValue }))).toBe(2);
    expect((await storage.list({ ...D, namespace: 'gone' })).items.map((s) => s.key.name)).toEqual(['c']);
    const events = await storage.eventsSince(D, before, 100);
    expect(events.map((e) => [e.action, e.key.name, e.key.namespace, e.previousResourceVersion, e.value.spec])).toEqual([
      ['DELETED', 'a', 'gone', created[1].resourceVersion, { redacted: true }],
      ['DELETED', 'b', 'gone', created[0].resourceVersion, { redacted: true }],
    ]);
    expect(events[1].resourceVersion).toBe(events[0].resourceVersion + 1);
    expect((await storage.versions(D)).current).toBe(events[1].resourceVersion);
    expect((await storage.objectHistory(dkey('a', 'gone'), { limit: 5 }))[0].action).toBe('DELETED');

    // The rest of the namespace, without a filter, records the stored value; another namespace is untouched.
    expect(await storage.transact((tx) => tx.deleteAll({ ...D, namespace: 'gone' }))).toBe(1);
    expect((await storage.eventsSince(D, events[1].resourceVersion, 100)).map((e) => [e.key.name, e.value.spec])).toEqual([['c', { n: 'c', secret: 's' }]]);
    expect((await storage.list({ ...D, namespace: 'kept' })).items.map((s) => s.key.name)).toEqual(['a']);
    expect(await storage.search({ namespace: 'gone', types: [D], order: 'asc', limit: 10 })).toEqual({ hits: [], more: false });
    expect((await storage.search({ namespace: 'kept', types: [D], order: 'asc', limit: 10 })).hits).toHaveLength(1);
    expect(await storage.referrers({ ...D, namespace: 'gone', names: ['target'] })).toEqual([]);
    expect(await storage.referrers({ ...D, namespace: 'kept', names: ['target'] })).toHaveLength(1);
    // Their unique keys are free again; nothing left to delete moves no version.
    expect(await storageCode(write('b', 'gone'))).toBe('no error');
    await write('z', 'kept');
    await write('y', 'kept');
    const now = (await storage.versions(D)).current;
    expect(await storage.transact((tx) => tx.deleteAll({ ...D, namespace: 'empty' }, { historyValue }))).toBe(0);
    expect(await storage.transact((tx) => tx.deleteAll({ ...D, namespace: 'empty' }))).toBe(0);
    expect((await storage.versions(D)).current).toBe(now);
    // Across namespaces: the label's objects wherever they are, in (namespace, name) order.
    await write('m', 'other', '9');
    await write('m', 'another', '9');
    const across = (await storage.versions(D)).current;
    expect(await storage.transact((tx) => tx.deleteAll({ ...D, namespace: '', everyNamespace: true, labels: [{ key: 'org', operator: 'Equals', values: ['9'] }] }, { historyValue }))).toBe(2);
    expect((await storage.eventsSince(D, across, 100)).map((e) => [e.key.namespace, e.key.name, e.value.spec])).toEqual([
      ['another', 'm', { redacted: true }],
      ['other', 'm', { redacted: true }],
    ]);
    // A rolled-back transaction deleted nothing.
    await expect(
      storage.transact(async (tx) => {
        expect(await tx.deleteAll({ ...D, namespace: 'kept' })).toBe(3);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await storage.list({ ...D, namespace: 'kept' })).items).toHaveLength(3);
  });

  test('internal ids are never handed out twice; a reserved id moves the sequence past it', async () => {
    const I = { group: 'test.svc.app', resource: 'numbered' };
    await storage.registerTypes([I]);
    const next = () => storage.transact((tx) => tx.nextInternalId(I));
    expect(await next()).toBe(1);
    await storage.transact((tx) => tx.reserveInternalId(I, 5));
    expect(await next()).toBe(6);
    await storage.transact((tx) => tx.reserveInternalId(I, 3));
    expect(await next()).toBe(7);
  });

  test('compaction forgets the past before a version but keeps what lists at later versions need', async () => {
    const C = { group: 'test.svc.app', resource: 'compacted' };
    const k = (name: string): ResourceKey => ({ ...C, namespace: 'default', name });
    await storage.registerTypes([C]);
    const a = await storage.transact((tx) => tx.create(k('keep'), obj('keep'), noFolder));
    const a2 = await storage.transact((tx) => tx.update(k('keep'), obj('keep', { labels: { v: '2' } }), a.resourceVersion, noFolder));
    await storage.transact((tx) => tx.create(k('gone'), obj('gone'), noFolder));
    await storage.transact((tx) => tx.delete(k('gone')));
    const cut = (await storage.versions(C)).current + 1;
    const after = await storage.transact((tx) => tx.update(k('keep'), obj('keep', { labels: { v: '3' } }), a2.resourceVersion, noFolder));

    const { deleted } = await storage.compact(C, cut, { keepSuperseded: false });
    expect(deleted).toBe(3); // keep@a, gone@create, gone@delete
    expect((await storage.versions(C)).oldestResumable).toBe(cut);
    expect((await storage.objectHistory(k('keep'), { limit: 10 })).map((e) => e.resourceVersion)).toEqual([after.resourceVersion, a2.resourceVersion]);
    expect((await storage.objectHistory(k('gone'), { limit: 10 }))).toEqual([]);
    const atCut = await storage.list({ ...C, namespace: 'default', atResourceVersion: cut });
    expect(atCut.items.map((i) => [i.key.name, i.resourceVersion])).toEqual([['keep', a2.resourceVersion]]);

    const b = await storage.transact((tx) => tx.create(k('kept'), obj('kept'), noFolder));
    await storage.transact((tx) => tx.update(k('kept'), obj('kept', { labels: { v: '2' } }), b.resourceVersion, noFolder));
    await storage.compact(C, (await storage.versions(C)).current + 1, { keepSuperseded: true });
    expect(await storage.objectHistory(k('kept'), { limit: 10 })).toHaveLength(2);
  });

  test('compaction may keep only the newest generations of each object, and never what a list at the cut shows', async () => {
    const G = { group: 'test.svc.app', resource: 'generations' };
    const k = (name: string): ResourceKey => ({ ...G, namespace: 'default', name });
    await storage.registerTypes([G]);
    const gen = (name: string, uid: string, generation: number, labels: Record<string, string> = {}) => obj(name, { uid, generation, labels });
    // Generations 1..6 of `many`, generation 3 written twice (a label change makes no new generation).
    let rv = (await storage.transact((tx) => tx.create(k('many'), gen('many', 'u1', 1), noFolder))).resourceVersion;
    const rows: Record<string, number> = { '1': rv };
    for (const [g, labels] of [[2, {}], [3, {}], [3, { x: 'y' }], [4, {}], [5, {}]] as const) {
      rv = (await storage.transact((tx) => tx.update(k('many'), gen('many', 'u1', g, labels), rv, noFolder))).resourceVersion;
      rows[Object.keys(labels).length ? '3b' : String(g)] = rv;
    }
    // An object of two generations: fewer than kept.
    const few = await storage.transact((tx) => tx.create(k('few'), gen('few', 'f', 1), noFolder));
    await storage.transact((tx) => tx.update(k('few'), gen('few', 'f', 2), few.resourceVersion, noFolder));
    const cut = (await storage.versions(G)).current + 1;
    // Written after the cut: generation 6 is the newest; 5 is what a list at the cut shows.
    rv = (await storage.transact((tx) => tx.update(k('many'), gen('many', 'u1', 6), rv, noFolder))).resourceVersion;
    rows['6'] = rv;

    await storage.compact(G, cut, { keepSuperseded: { generations: 3 } });
    const left = (name: string) => storage.objectHistory(k(name), { limit: 20 }).then((h) => h.map((e) => e.resourceVersion));
    // Generations 6, 5 and 4 are kept (3, 3b, 2, 1 go).
    expect(await left('many')).toEqual([rows['6'], rows['5'], rows['4']]);
    expect(await left('few')).toHaveLength(2);

    // Generation 5 stays while a list at the cut needs it, even with one generation kept.
    await storage.compact(G, cut, { keepSuperseded: { generations: 1 } });
    expect(await left('many')).toEqual([rows['6'], rows['5']]);
    const atCut = await storage.list({ ...G, namespace: 'default', atResourceVersion: cut });
    expect(atCut.items.find((i) => i.key.name === 'many')?.resourceVersion).toBe(rows['5']);
    expect(await left('few')).toHaveLength(1);
  });
});

describe('embedded backend on disk', () => {
  test('data survives a restart, and a second process cannot open the same folder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pglite-'));
    try {
      const first = await openStorage({ dataDir: dir });
      await first.registerTypes([T]);
      await first.transact((tx) => tx.create(key('persisted'), obj('persisted'), noFolder));
      // The lock file names a live process other than us: the open is refused with a clear message.
      const lock = path.join(dir, 'pglite.lock');
      const ours = fs.readFileSync(lock, 'utf8');
      fs.writeFileSync(lock, String(process.ppid));
      await expect(openStorage({ dataDir: dir })).rejects.toThrow(`is in use by process ${process.ppid}`);
      fs.writeFileSync(lock, ours);
      await first.close();
      expect(fs.existsSync(lock)).toBe(false);

      const second = await openStorage({ dataDir: dir });
      expect((await second.get(key('persisted')))?.value).toEqual(obj('persisted'));
      await second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Three cold starts of PGlite on disk with their migrations: about 9 s alone, several times that beside other suites.
  }, 120_000);
});
