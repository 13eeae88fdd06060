/**
 * Registry.init() on real databases: services call it before each first use, so it must run once however often and
 * however concurrently it is called, and run again after a failure (the database may have been down at start-up).
 * Storage calls are counted, and one registerTypes made to fail, by a wrapper over the real storage.
 */
import { allKinds, internalKinds } from '../../apis';
import { Namespaces, Registry } from '../../pkg/registry';
import type { Storage } from '../../storage';
import { createTestStorage } from '../support/backend';
import { countingStorage } from '../support/storage-reads';

/** The real storage, with every call counted by method and the next `failures` registerTypes calls refused. */
function instrumented(storage: Storage) {
  const state = { failures: 0 };
  const refuse = (method: string) => {
    if (method !== 'registerTypes' || state.failures === 0) return undefined;
    state.failures--;
    return Promise.reject(new Error('connection refused'));
  };
  return { ...countingStorage(storage, refuse), state };
}

let db: { storage: Storage; close(): Promise<void> };
beforeAll(async () => {
  db = await createTestStorage();
});
afterAll(() => db.close());

const registryOver = (storage: Storage) => new Registry(storage, allKinds, { nestedFolders: true, namespaces: new Namespaces() });

it('runs once for concurrent calls, and not again after it succeeded', async () => {
  const s = instrumented(db.storage);
  const registry = registryOver(s.storage);
  await Promise.all([registry.init(), registry.init()]);
  expect(s.counts.get('registerTypes')).toBe(1);
  const calls = s.total();
  expect(calls).toBeGreaterThan(1); // the search, history and unique-key syncs ran too

  await registry.init();
  expect(s.total()).toBe(calls);
});

it('runs again on the next call after a failure, which every caller of the failed run saw', async () => {
  const s = instrumented(db.storage);
  const registry = registryOver(s.storage);
  s.state.failures = 1;
  const first = await Promise.allSettled([registry.init(), registry.init()]);
  expect(first.map((r) => r.status === 'rejected' && (r.reason as Error).message)).toEqual(['connection refused', 'connection refused']);
  expect(s.counts.get('registerTypes')).toBe(1);

  await registry.init();
  expect(s.counts.get('registerTypes')).toBe(2);
  const calls = s.total();
  await registry.init();
  expect(s.total()).toBe(calls);
});

it('gives a companion, a registry of other kinds, its own run', async () => {
  const s = instrumented(db.storage);
  const registry = registryOver(s.storage);
  await registry.init();
  const internal = registry.companion(internalKinds);
  await internal.init();
  expect(s.counts.get('registerTypes')).toBe(2);
  await Promise.all([registry.init(), internal.init()]);
  expect(s.counts.get('registerTypes')).toBe(2);
});
