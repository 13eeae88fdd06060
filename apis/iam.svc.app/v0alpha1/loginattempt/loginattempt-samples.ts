import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as LoginAttempt objects. */
export const samples: KindSamples = {
  spec: () => ({ failedAt: 1_700_000_000_000 }),
  changed: () => ({ failedAt: 1_700_000_060_000 }),
  invalid: { failedAt: -1 },
  invalidField: 'spec.failedAt',
};
