import type { Storage } from '../../storage';

/** One list or page read of a type, and how many objects it answered. */
export interface StorageRead {
  op: 'list' | 'page';
  resource: string;
  items: number;
}

/**
 * Records the list and page reads made through `storage` until `stop()`: what a test asserts to show a route reads
 * only the objects it answers, not a whole collection.
 *
 * @example const r = recordReads(t.storage); await t.as.get('/api/playlists?limit=2'); r.stop(); r.of('playlists') // [{ op: 'page', items: 2 }]
 */
export function recordReads(storage: Storage) {
  const reads: StorageRead[] = [];
  const { list, page } = storage;
  storage.list = async (q) => {
    const found = await list.call(storage, q);
    reads.push({ op: 'list', resource: q.resource, items: found.items.length });
    return found;
  };
  storage.page = async (q) => {
    const found = await page.call(storage, q);
    reads.push({ op: 'page', resource: q.resource, items: found.items.length });
    return found;
  };
  return {
    reads,
    /** The reads of one resource, without it. */
    of: (resource: string) => reads.filter((r) => r.resource === resource).map(({ op, items }) => ({ op, items })),
    stop: () => Object.assign(storage, { list, page }),
  };
}

/**
 * `storage` behind a wrapper that counts every call by method; `intercept(method)` may answer a call instead of the
 * storage (a promise), e.g. to refuse it as a database down would. The database work a component causes, measured
 * on the real thing.
 *
 * @example const c = countingStorage(storage); await new Registry(c.storage, kinds, opts).init(); c.counts.get('registerTypes') // 1
 */
export function countingStorage(storage: Storage, intercept: (method: string) => Promise<unknown> | undefined = () => undefined) {
  const counts = new Map<string, number>();
  const wrapped = new Proxy(storage, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        counts.set(String(prop), (counts.get(String(prop)) ?? 0) + 1);
        return intercept(String(prop)) ?? (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage: wrapped, counts, total: () => [...counts.values()].reduce((a, b) => a + b, 0), reset: () => counts.clear() };
}
