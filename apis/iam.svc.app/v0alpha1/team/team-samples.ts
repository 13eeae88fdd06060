import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Team objects. */
export const samples: KindSamples = {
  spec: (name) => ({ name: `Team ${name}` }),
  changed: (name) => ({ name: `Team ${name} (renamed)`, email: 'team@example.com' }),
  invalid: { name: '  ' },
  invalidField: 'spec.name',
};
