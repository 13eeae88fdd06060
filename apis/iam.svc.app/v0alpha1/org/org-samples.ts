import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Org objects. */
export const samples: KindSamples = {
  spec: (name) => ({ name: `Org ${name}` }),
  changed: (name) => ({ name: `Org ${name} (renamed)` }),
  invalid: { name: '  ' },
  invalidField: 'spec.name',
};
