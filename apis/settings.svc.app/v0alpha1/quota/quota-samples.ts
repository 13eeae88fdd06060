import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Quota objects. */
export const samples: KindSamples = {
  spec: () => ({ scope: 'org', id: 1, target: 'dashboard', limit: 10 }),
  changed: () => ({ scope: 'org', id: 1, target: 'dashboard', limit: 20 }),
  invalid: { scope: 'org', id: 1, target: 'dashboard', limit: -2 },
  invalidField: 'spec.limit',
};
