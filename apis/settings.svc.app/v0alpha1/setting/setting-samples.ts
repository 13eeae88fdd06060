import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Setting objects. */
export const samples: KindSamples = {
  spec: () => ({ section: 'auth.saml', values: { enabled: 'true' } }),
  changed: () => ({ section: 'auth.saml', values: { enabled: 'false' } }),
  invalid: { section: 'Auth SAML', values: {} },
  invalidField: 'spec.section',
};
