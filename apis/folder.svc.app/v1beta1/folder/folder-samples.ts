import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Folder objects. */
export const samples: KindSamples = {
  spec: () => ({ title: 'Operations' }),
  changed: () => ({ title: 'Operations (renamed)', description: 'moved' }),
  invalid: { title: '   ' },
  invalidField: 'spec.title',
};
