/**
 * Storage.exclusively: the lock replicas take for work of many transactions (applying provisioning files). One
 * holder at a time within a storage, and on PostgreSQL across two storages on one database (two processes'
 * pools); other lock names do not wait; a failing holder releases the lock.
 */
import { openStorage, type Storage } from '../../storage';
import { type Backend, createTestDatabase, type TestDatabase } from '../support/backend';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs holders that each note when they start and end; overlapping holders would interleave the notes. */
async function holders(stores: Storage[], name: string, count: number): Promise<string[]> {
  const trace: string[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      stores[i % stores.length]!.exclusively(name, async () => {
        trace.push(`start ${i}`);
        await pause(30);
        trace.push(`end ${i}`);
      }),
    ),
  );
  return trace;
}

const serial = (trace: string[]) => trace.every((step, i) => (i % 2 === 0 ? step.startsWith('start') : step === trace[i - 1]!.replace('start', 'end')));

describe.each<Backend>(['postgres', 'embedded'])('Storage.exclusively (%s)', (backend) => {
  let db: TestDatabase;
  let a: Storage;
  let b: Storage | undefined;

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    a = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 5 });
    // A second pool on the same database stands for another replica (the embedded database has one process).
    if (db.url) b = await openStorage({ url: db.url, dataDir: '', maxConnections: 5 });
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a.close();
    await db.drop();
  });

  test('one holder at a time in one storage', async () => {
    const trace = await holders([a], 'one', 4);
    expect(trace).toHaveLength(8);
    expect(serial(trace)).toBe(true);
  });

  test('one holder at a time across two storages on one database (PostgreSQL: the advisory lock)', async () => {
    const trace = await holders(b ? [a, b] : [a], 'two', 6);
    expect(serial(trace)).toBe(true);
  });

  test('the lock takes no connection of the pool: with the smallest pool (max_open_conn = 1), its holder may use two at once (PostgreSQL)', async () => {
    if (!db.url) return;
    const small = await openStorage({ url: db.url, dataDir: '', maxConnections: 1 });
    const key = { group: 'test.svc.app', resource: 'widgets', namespace: 'default', name: 'none' };
    // A transaction open while another query runs, as a provisioning apply beside a request.
    const work = small.exclusively('small', () => small.transact(async (tx) => [await tx.get(key), await small.get(key)]));
    const outcome = await Promise.race([work.then(() => 'done'), pause(15_000).then(() => 'hung')]);
    expect(outcome).toBe('done');
    await small.close();
  }, 60_000);

  test('another name does not wait; a failing holder releases the lock and its error reaches the caller', async () => {
    let inner = false;
    await a.exclusively('outer', async () => {
      await a.exclusively('inner', async () => {
        inner = true;
      });
    });
    expect(inner).toBe(true);
    await expect(a.exclusively('failing', async () => {
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await a.exclusively('failing', async () => 'free again')).toBe('free again');
  });
});
