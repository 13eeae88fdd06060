/**
 * StorageTx.lockTypes (issue 16): a write's types are locked by one statement, each in the global order, and a type
 * that has no counter yet (its first write) gets one. Through the real storage, on both backends.
 */
import type { JsonObject } from '../../pkg/meta';
import type { Storage } from '../../storage';
import { createTestStorage } from '../support/backend';

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
