/**
 * StorageTx.lockTypes (issue 16): a write's types are locked by one statement, each in the global order, and a type
 * that has no counter yet (its first write) gets one. Through the real storage, on both backends.
 */
import type { JsonObject } from '../../pkg/meta';
import type { Storage } from '../../storage';
import { Client } from 'pg';
import { adminUrl, createTestStorage, testBackend } from '../support/backend';

const A = { group: 'locks.test', resource: 'alphas' };
const B = { group: 'locks.test', resource: 'betas' };
const NEW = { group: 'locks.test', resource: 'newcomers' };
const key = (t: { group: string; resource: string }, name: string) => ({ ...t, namespace: 'default', name });
const value = (name: string): JsonObject => ({ metadata: { name }, spec: {} });

let storage: Storage;
let close: () => Promise<void>;
const statements: string[] = [];
beforeAll(async () => {
  ({ storage, close } = await createTestStorage());
  await storage.registerTypes([A, B]);
  storage.observeQueries((_s, _f, sql) => statements.push(sql.replace(/\s+/g, ' ')));
}, 60_000);
afterAll(() => close());

const locks = () => statements.filter((s) => /for update$/i.test(s));

test('the types of one write are locked by one statement, whatever order they are named in', async () => {
  statements.length = 0;
  const [a, b] = await storage.transact(async (tx) => {
    await tx.lockTypes([B, A]);
    const written = [await tx.create(key(A, 'a1'), value('a1'), { folder: '' }), await tx.create(key(B, 'b1'), value('b1'), { folder: '' })];
    // Already held: no statement.
    await tx.lockTypes([A, B]);
    return written;
  });
  expect(locks()).toHaveLength(1);
  expect((await storage.versions(A)).current).toBe(a.resourceVersion);
  expect((await storage.versions(B)).current).toBe(b.resourceVersion);
});

test('a type with no counter yet is given one and locked with the others', async () => {
  statements.length = 0;
  const created = await storage.transact(async (tx) => {
    await tx.lockTypes([NEW, A]);
    return [await tx.create(key(NEW, 'n1'), value('n1'), { folder: '' }), await tx.create(key(A, 'a2'), value('a2'), { folder: '' })];
  });
  expect((await storage.get(key(NEW, 'n1')))!.resourceVersion).toBe(created[0].resourceVersion);
  expect((await storage.versions(NEW)).current).toBe(created[0].resourceVersion);
  expect((await storage.versions(A)).current).toBe(created[1].resourceVersion);
  // The second write of the type finds its counter: one statement locks it.
  statements.length = 0;
  const next = await storage.transact(async (tx) => {
    await tx.lockTypes([A, NEW]);
    return tx.create(key(NEW, 'n2'), value('n2'), { folder: '' });
  });
  expect(locks()).toHaveLength(1);
  expect(next.resourceVersion).toBeGreaterThan(created[0].resourceVersion);
});

test('writers naming the same types in opposite orders all commit (one lock order)', async () => {
  const orders = [[A, B], [B, A], [B, NEW, A], [NEW, A, B]];
  const done = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      storage.transact(async (tx) => {
        const types = orders[i % orders.length];
        await tx.lockTypes(types);
        for (const t of types) await tx.create(key(t, `c${i}`), value(`c${i}`), { folder: '' });
        return i;
      }),
    ),
  );
  expect(done).toHaveLength(12);
  for (let i = 0; i < 12; i++) for (const t of orders[i % orders.length]) expect(await storage.get(key(t, `c${i}`))).toBeDefined();
});

describe('a grouped transaction', () => {
  /** A grouped transaction of A's type, as the registry runs a write. */
  const grouped = <T>(fn: Parameters<Storage['transact']>[0]) => storage.transact(fn, { group: 'locks.test/alphas' }) as Promise<T>;

  test('on PostgreSQL begins with its lock statement, in one message', async () => {
    statements.length = 0;
    await grouped(async (tx) => {
      await tx.lockTypes([A, B]);
      return tx.create(key(A, 'g1'), value('g1'), { folder: '' });
    });
    const first = statements.findIndex((s) => /^(\/\* then commit \*\/ )?begin/i.test(s));
    expect(first).toBeGreaterThanOrEqual(0);
    // Alone, or (its counters known to this process: see the tests of deferred creates) with its writes and COMMIT.
    if (testBackend() === 'postgres') expect(statements[first]).toMatch(/^(\/\* then commit \*\/ )?begin; select .* for update(;|$)/);
    else expect(statements[first + 1]).toMatch(/for update$/);
  });

  test('that reads before it locks, then fails, leaves nothing; the next one commits', async () => {
    const failing = grouped(async (tx) => {
      expect(await tx.get(key(A, 'g1'))).toBeDefined();
      await tx.create(key(A, 'g2'), value('g2'), { folder: '' });
      await tx.create(key(B, 'g2'), value('g2'), { folder: '' });
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await storage.get(key(A, 'g2'))).toBeUndefined();
    expect(await storage.get(key(B, 'g2'))).toBeUndefined();
    const written = await grouped(async (tx) => tx.create(key(A, 'g3'), value('g3'), { folder: '' }));
    expect((await storage.get(key(A, 'g3')))!.resourceVersion).toBe((written as { resourceVersion: number }).resourceVersion);
  });

  (testBackend() === 'postgres' ? test : test.skip)('on PostgreSQL only (the embedded database has no second session to cancel from), whose lock statement fails (cancelled while it waits) leaves its connection rolled back: every later write and read succeeds', async () => {
    let release!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    // Another transaction holds A's counter while the grouped one asks for it.
    const holder = storage.transact(async (tx) => {
      await tx.lockTypes([A]);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    // Its failure, taken as it comes (it comes while the loop below still runs).
    const failure = grouped(async (tx) => tx.create(key(A, 'cancelled'), value('cancelled'), { folder: '' })).then(
      () => undefined,
      (err: unknown) => err,
    );
    const admin = new Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      let cancelled = 0;
      for (let i = 0; i < 200 && !cancelled; i++) {
        const { rowCount } = await admin.query(`SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%for update%'`);
        cancelled = rowCount ?? 0;
        if (!cancelled) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(cancelled).toBe(1);
    } finally {
      await admin.end();
    }
    expect(await failure).toMatchObject({ code: '57014' });
    release();
    await holder;
    // More concurrent writes than the pool has connections (each its own group, so each its own connection): none
    // meets a connection left in the failed transaction.
    const written = await Promise.all(
      Array.from({ length: 25 }, (_, i) => storage.transact(async (tx) => tx.create(key(A, `after${i}`), value(`after${i}`), { folder: '' }), { group: `locks.test/after${i}` })),
    );
    for (let i = 0; i < 25; i++) expect((await storage.get(key(A, `after${i}`)))!.resourceVersion).toBe(written[i].resourceVersion);
    expect(await storage.get(key(A, 'cancelled'))).toBeUndefined();
  });

  test('that runs no statement sends none on PostgreSQL (BEGIN and COMMIT alone on the embedded database)', async () => {
    statements.length = 0;
    await expect(grouped(async () => 'nothing')).resolves.toBe('nothing');
    expect(statements).toEqual(testBackend() === 'postgres' ? [] : ['begin', 'commit']);
  });
});
