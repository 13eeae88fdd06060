import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as LastSeen objects. */
export const samples: KindSamples = {
  spec: () => ({ seenAt: '2024-01-01T00:00:00.000Z' }),
  changed: () => ({ seenAt: '2024-01-01T00:01:00.000Z' }),
  invalid: { seenAt: 'yesterday' },
  invalidField: 'spec.seenAt',
};
