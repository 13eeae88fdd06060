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
