/**
 * ScopedReads (storage/scoped-reads.ts) over real storage: the label of kept answers (stamp) and derived values
 * (derive), which must move with any write to what they depend on and never with anything else.
 */
import { ScopedReads, type Storage } from '../../storage';
import { type Backend, createTestStorage } from '../support/backend';

const CACHED = { group: 'scoped.test', resource: 'cached' };
const OTHER = { group: 'scoped.test', resource: 'other' };
const noFolder = { folder: '' };
const key = (t: typeof CACHED, name: string) => ({ ...t, namespace: 'default', name });
const obj = (name: string, n = 1) => ({ metadata: { name }, spec: { n } });

describe.each<Backend>(['postgres', 'embedded'])('ScopedReads (%s)', (backend) => {
  let inner: Storage;
  let close: () => Promise<void>;
  let storage: ScopedReads;
  beforeAll(async () => {
    ({ storage: inner, close } = await createTestStorage(backend));
    await inner.registerTypes([CACHED, OTHER]);
    storage = new ScopedReads(inner, [CACHED]);
  }, 120_000);
  afterAll(() => close());

  /** `fn` in a read scope of its own, as one request. */
  const inScope = <T>(fn: () => Promise<T>): Promise<T> => storage.run(fn);

  it('derive: the same value while its types did not move; computed again after a write to them, not after one elsewhere', async () => {
    await inner.transact((tx) => tx.create(key(CACHED, 'a'), obj('a'), noFolder));
    let computed = 0;
    const read = () =>
      inScope(() =>
        storage.derive('a', [CACHED], async () => {
          computed++;
          return { n: ((await storage.get(key(CACHED, 'a')))!.value.spec as { n: number }).n };
        }),
      );
    const first = await read();
    expect(await read()).toBe(first);
    expect(computed).toBe(1);
    await inner.transact((tx) => tx.create(key(OTHER, 'x'), obj('x'), noFolder));
    expect(await read()).toBe(first);
    const current = (await inner.get(key(CACHED, 'a')))!;
    await inner.transact((tx) => tx.update(key(CACHED, 'a'), obj('a', 2), current.resourceVersion, noFolder));
    expect(await read()).toEqual({ n: 2 });
    expect(computed).toBe(2);
  });

  it('derive computes every time outside a scope and for a type that is not cached', async () => {
    let computed = 0;
    const compute = async () => ++computed;
    await storage.derive('b', [CACHED], compute);
    await storage.derive('b', [CACHED], compute);
    await inScope(() => storage.derive('c', [OTHER], compute));
    await inScope(() => storage.derive('c', [OTHER], compute));
    expect(computed).toBe(4);
  });

  it('stamp: the same label while nothing was written, another after a write to any type; none outside a scope', async () => {
    const first = await inScope(() => storage.stamp());
    expect(first).toEqual(expect.any(String));
    expect(await inScope(() => storage.stamp())).toBe(first);
    await inner.transact((tx) => tx.create(key(OTHER, `s${Date.now()}`), obj('s'), noFolder));
    expect(await inScope(() => storage.stamp())).not.toBe(first);
    expect(await storage.stamp()).toBeUndefined();
  });
});
