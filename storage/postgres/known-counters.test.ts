import { KnownCounters } from './known-counters';

const T = 'dashboard.svc.app/dashboards';

test('a counter is assumable once a transaction of this process committed it, and never goes back', () => {
  const known = new KnownCounters();
  expect(known.assumable(T)).toBeUndefined();
  known.committed(T, { version: 20, internalId: 3 });
  // A transaction of another group that locked the type earlier and ended later.
  known.committed(T, { version: 17, internalId: 2 });
  expect(known.assumable(T)).toEqual({ version: 20, internalId: 3 });
});

test('a lock that reads the counter where this process left it changes nothing', () => {
  const known = new KnownCounters();
  known.committed(T, { version: 20, internalId: 0 });
  known.observed(T, 20);
  expect(known.assumable(T)).toEqual({ version: 20, internalId: 0 });
});

test('a counter another process moved is not assumed for a while, then again once committed', async () => {
  const known = new KnownCounters(30);
  known.committed(T, { version: 20, internalId: 0 });
  known.observed(T, 25);
  expect(known.assumable(T)).toBeUndefined();
  // Committed again while contended: still not assumed until the time is out.
  known.committed(T, { version: 26, internalId: 0 });
  expect(known.assumable(T)).toBeUndefined();
  await new Promise((resolve) => setTimeout(resolve, 40));
  expect(known.assumable(T)).toEqual({ version: 26, internalId: 0 });
});
