import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as ServiceAccountToken objects. */
export const samples: KindSamples = {
  spec: (name) => ({ title: `token ${name}`, orgId: 1, serviceAccountUid: 'bot', hashedKey: 'a'.repeat(64) }),
  changed: (name) => ({ title: `token ${name} (renamed)`, orgId: 1, serviceAccountUid: 'bot', expires: '2030-01-01T00:00:00Z' }),
  invalid: { title: ' ', orgId: 1, serviceAccountUid: 'bot' },
  invalidField: 'spec.title',
};
