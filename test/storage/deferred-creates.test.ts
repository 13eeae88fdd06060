/**
 * Deferred creates in a commit group's optimistic batch (storage/postgres/commit-group.ts, SqlTx.flush; issue 16):
 * the plain creates of every member of a batch are written together by one statement at the transaction's end (or
 * before its next statement), and a create that then does not apply runs the whole batch again without deferring,
 * so each caller still sees its own create's failure where it made it. Through the real storage, on both backends.
 */
import type { JsonObject } from '../../pkg/meta';
import { openStorage, type Storage, StorageError, type StorageTx } from '../../storage';
import { createTestDatabase, createTestStorage, testBackend } from '../support/backend';

const THINGS = { group: 'deferred.test', resource: 'things' };
const COMPANIONS = { group: 'deferred.test', resource: 'companions' };
const thing = (name: string) => ({ ...THINGS, namespace: 'default', name });
const companion = (name: string) => ({ ...COMPANIONS, namespace: 'default', name });
const value = (name: string, n: number): JsonObject => ({ metadata: { name }, spec: { n } });

let storage: Storage;
let close: () => Promise<void>;
const statements: string[] = [];
beforeAll(async () => {
  ({ storage, close } = await createTestStorage());
  await storage.registerTypes([THINGS, COMPANIONS]);
  storage.observeQueries((_s, _f, sql) => statements.push(sql.replace(/\s+/g, ' ')));
}, 60_000);
afterAll(() => close());

/** A grouped transaction of the things' type, as the registry runs a create. */
const grouped = <T>(fn: (tx: StorageTx) => Promise<T>) => storage.transact(fn, { group: 'deferred.test/things' });

test('creates of several transactions, with a companion each, are written by fewer statements than creates, each with its version and history', async () => {
  statements.length = 0;
  const created = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      grouped(async (tx) => {
        await tx.lockTypes([THINGS, COMPANIONS]);
        const a = await tx.create(thing(`t${i}`), value(`t${i}`, i), { folder: '' });
        const b = await tx.create(companion(`t${i}`), value(`t${i}`, 100 + i), { folder: '' });
        return [a.resourceVersion, b.resourceVersion];
      }),
    ),
  );
  const inserts = statements.filter((s) => /INSERT INTO resource /.test(s));
  expect(inserts.length).toBeLessThan(created.length);
  // Each statement wrote the objects of both types and moved both counters (the batch's statement: one text for all).
  expect(inserts.every((s) => /jsonb_to_recordset\(\$1::jsonb\)/.test(s))).toBe(true);
  for (let i = 0; i < 10; i++) {
    const [rvA, rvB] = created[i];
    expect((await storage.get(thing(`t${i}`)))).toMatchObject({ resourceVersion: rvA, value: value(`t${i}`, i) });
    expect((await storage.get(companion(`t${i}`)))).toMatchObject({ resourceVersion: rvB, value: value(`t${i}`, 100 + i) });
    const history = await storage.objectHistory(thing(`t${i}`), { limit: 5 });
    expect(history.map((h) => [h.action, h.resourceVersion])).toEqual([['ADDED', rvA]]);
  }
  // Versions are distinct and the counters end at the last of them.
  const things = created.map(([a]) => a);
  expect(new Set(things).size).toBe(10);
  expect((await storage.versions(THINGS)).current).toBe(Math.max(...things));
  expect((await storage.versions(COMPANIONS)).current).toBe(Math.max(...created.map(([, b]) => b)));
});

test('values that need quoting in SQL or in JSON (quotes, backslashes, $1, non-ASCII) come back as written, search rows too', async () => {
  const odd = [`it's "quoted"`, 'back\\slash \\n and $1 $2', 'Überblick — 東京 🚀', "'; drop table resource; --"];
  const written = await Promise.all(
    odd.map((title, i) =>
      grouped(async (tx) => {
        await tx.lockTypes([THINGS, COMPANIONS]);
        const v = { metadata: { name: `odd${i}` }, spec: { title, list: [title, { [title]: title }] } };
        await tx.create(thing(`odd${i}`), v, { folder: title, search: { title, tags: [title, 'x'], internalId: i + 1 } });
        await tx.create(companion(`odd${i}`), v, { folder: '' });
        return v;
      }),
    ),
  );
  for (const [i, v] of written.entries()) {
    expect((await storage.get(thing(`odd${i}`)))!.value).toEqual(v);
    expect((await storage.get(companion(`odd${i}`)))!.value).toEqual(v);
    const { hits } = await storage.search({ namespace: 'default', types: [THINGS], names: [`odd${i}`], order: 'asc', limit: 5 });
    expect(hits).toEqual([expect.objectContaining({ key: thing(`odd${i}`), title: odd[i], tags: [odd[i], 'x'], folder: odd[i], internalId: i + 1 })]);
  }
});

test('a create of a taken name fails its own transaction alone, with KeyExists where it was made', async () => {
  await grouped((tx) => tx.create(thing('taken'), value('taken', 0), { folder: '' }));
  const outcomes = await Promise.allSettled(
    ['free-1', 'taken', 'free-2', 'free-1'].map((name, i) => grouped((tx) => tx.create(thing(name), value(name, i + 1), { folder: '' }))),
  );
  const codes = outcomes.map((o) => (o.status === 'fulfilled' ? 'created' : o.reason instanceof StorageError ? o.reason.code : String(o.reason)));
  expect(codes).toEqual(['created', 'KeyExists', 'created', 'KeyExists']);
  expect((await storage.get(thing('taken')))!.value).toEqual(value('taken', 0));
  expect((await storage.get(thing('free-1')))!.value).toEqual(value('free-1', 1));
  expect((await storage.objectHistory(thing('free-1'), { limit: 5 })).map((h) => h.action)).toEqual(['ADDED']);
});

test('two creates of one name in one batch (one statement): the first is created, the second answers KeyExists', async () => {
  // The first transaction waits, so the others queue behind it and ride in its batch.
  let open!: () => void;
  const held = new Promise<void>((r) => (open = r));
  const first = grouped(async (tx) => {
    await held;
    return tx.create(thing('dup-x'), value('dup-x', 1), { folder: '' });
  });
  const others = [2, 3].map((n) => grouped((tx) => tx.create(thing('dup-y'), value('dup-y', n), { folder: '' })));
  statements.length = 0;
  open();
  const outcomes = await Promise.allSettled([first, ...others]);
  expect(outcomes.map((o) => (o.status === 'fulfilled' ? 'created' : (o.reason as StorageError).code))).toEqual(['created', 'created', 'KeyExists']);
  // The three were first written by one statement, which the duplicate refused.
  expect(statements.filter((s) => /INSERT INTO resource /.test(s)).length).toBeGreaterThan(1);
  expect((await storage.get(thing('dup-y')))!.value).toEqual(value('dup-y', 2));
  expect((await storage.objectHistory(thing('dup-y'), { limit: 5 })).map((h) => h.action)).toEqual(['ADDED']);
  expect((await storage.objectHistory(thing('dup-x'), { limit: 5 })).map((h) => h.action)).toEqual(['ADDED']);
});

test('a transaction that catches its create failing and updates instead (a companion left behind) still does', async () => {
  await grouped((tx) => tx.create(thing('left'), value('left', 0), { folder: '' }));
  const put = (tx: StorageTx, name: string, n: number) =>
    tx.create(thing(name), value(name, n), { folder: '' }).catch(async (err: unknown) => {
      if (!(err instanceof StorageError && err.code === 'KeyExists')) throw err;
      const stored = (await tx.get(thing(name)))!;
      return tx.update(thing(name), value(name, n), stored.resourceVersion, { folder: '' });
    });
  const results = await Promise.all(['p-1', 'left', 'p-2'].map((name, i) => grouped((tx) => put(tx, name, 10 + i))));
  expect(results.map((r) => r.key.name)).toEqual(['p-1', 'left', 'p-2']);
  expect((await storage.get(thing('left')))!.value).toEqual(value('left', 11));
  expect((await storage.objectHistory(thing('left'), { limit: 5 })).map((h) => h.action)).toEqual(['MODIFIED', 'ADDED']);
  expect((await storage.get(thing('p-2')))!.value).toEqual(value('p-2', 12));
});

test('a read in the transaction after a create sees it, and a failing transaction leaves none of its creates', async () => {
  const seen = await grouped(async (tx) => {
    await tx.create(thing('read-back'), value('read-back', 7), { folder: '' });
    return tx.get(thing('read-back'));
  });
  expect(seen?.value).toEqual(value('read-back', 7));
  await expect(
    grouped(async (tx) => {
      await tx.create(thing('undone'), value('undone', 1), { folder: '' });
      throw new Error('refused after the create');
    }),
  ).rejects.toThrow('refused after the create');
  expect(await storage.get(thing('undone'))).toBeUndefined();
  expect(await storage.objectHistory(thing('undone'), { limit: 5 })).toEqual([]);
});

/**
 * A batch of plain creates whose counters this process left (storage/postgres/known-counters.ts) locks them, writes and
 * commits in one statement, a transaction of its own; when another process wrote the type in between, it writes
 * nothing and runs again with the counters locked and read first. PostgreSQL only: the embedded database has one connection and no message to fold.
 */
(testBackend() === 'postgres' ? describe : describe.skip)('on PostgreSQL only (the embedded database folds no statements), counters this process left', () => {
  let url: string;
  let drop: () => Promise<void>;
  let mine: Storage;
  let other: Storage;
  const sent: string[] = [];
  beforeAll(async () => {
    const db = await createTestDatabase('postgres', { migrated: true });
    url = db.url!;
    drop = () => db.drop();
    mine = await openStorage({ url, dataDir: '', maxConnections: 5 });
    other = await openStorage({ url, dataDir: '', maxConnections: 5 });
    await mine.registerTypes([THINGS, COMPANIONS]);
    mine.observeQueries((_s, _f, text) => sent.push(text.replace(/\s+/g, ' ')));
  }, 60_000);
  afterAll(async () => {
    await mine.close();
    await other.close();
    await drop();
  });

  const create = (storage: Storage, name: string, n: number) =>
    storage.transact(
      async (tx) => {
        await tx.lockTypes([THINGS, COMPANIONS]);
        const a = await tx.create(thing(name), value(name, n), { folder: '' });
        const b = await tx.create(companion(name), value(name, n), { folder: '' });
        return [a.resourceVersion, b.resourceVersion];
      },
      { group: 'deferred.test/things' },
    );
  const lockAlone = (s: string) => /^begin; select .* for update$/.test(s);
  // The statement that is a transaction of its own: it locks the counters, moves them from what was assumed, writes.
  const lockAndWrite = (s: string) => /^\/\* prepared \*\/ WITH input AS .* FOR UPDATE.* INSERT INTO resource /.test(s);

  test('are assumed: the next batch of creates is one statement that locks them, writes and commits', async () => {
    await create(mine, 'first', 0);
    sent.length = 0;
    const versions = await Promise.all([1, 2, 3].map((n) => create(mine, `next${n}`, n)));
    expect(sent.filter(lockAlone)).toEqual([]);
    expect(sent.filter(lockAndWrite).length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBe(sent.filter(lockAndWrite).length);
    for (const [n, [rvA, rvB]] of versions.entries()) {
      expect(await mine.get(thing(`next${n + 1}`))).toMatchObject({ resourceVersion: rvA });
      expect(await mine.get(companion(`next${n + 1}`))).toMatchObject({ resourceVersion: rvB });
    }
    expect((await mine.versions(THINGS)).current).toBe(Math.max(...versions.map(([a]) => a)));
  });

  test('moved by another process: the batch writes nothing, runs again locked, and its versions come after the other\'s', async () => {
    await create(mine, 'before', 0);
    const [otherA, otherB] = await create(other, 'theirs', 1);
    sent.length = 0;
    const [rvA, rvB] = await create(mine, 'after', 2);
    // The assumed attempt, then the one that locks and reads the counters first.
    expect(sent.filter(lockAndWrite).length).toBe(1);
    expect(sent.filter(lockAlone).length).toBe(1);
    expect(rvA).toBeGreaterThan(otherA);
    expect(rvB).toBeGreaterThan(otherB);
    expect(await mine.get(thing('after'))).toMatchObject({ resourceVersion: rvA, value: value('after', 2) });
    expect((await mine.objectHistory(thing('after'), { limit: 5 })).map((h) => [h.action, h.resourceVersion])).toEqual([['ADDED', rvA]]);
    expect(await mine.get(thing('theirs'))).toMatchObject({ resourceVersion: otherA });
    // The type is contended now: the next batch locks first rather than fail once more.
    sent.length = 0;
    await create(mine, 'later', 3);
    expect(sent.filter(lockAndWrite)).toEqual([]);
    expect(sent.filter(lockAlone).length).toBe(1);
    const history = await mine.eventsSince(THINGS, 0, 100);
    const order = history.map((h) => h.resourceVersion);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(order).size).toBe(order.length);
  });
});
