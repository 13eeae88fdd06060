import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as ServiceAccount objects. */
export const samples: KindSamples = {
  spec: (name) => ({ title: `Bot ${name}`, login: `sa-1-${name}`, role: 'Viewer' }),
  changed: (name) => ({ title: `Bot ${name} (renamed)`, login: `sa-1-${name}`, role: 'Editor', isDisabled: true }),
  invalid: { title: ' ', login: 'sa-1-x', role: 'Viewer' },
  invalidField: 'spec.title',
};
