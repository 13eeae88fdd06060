import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Role objects. */
export const samples: KindSamples = {
  spec: (name) => ({ name: `custom:${name}`, permissions: [{ action: 'dashboards:read', scope: 'dashboards:*' }] }),
  changed: (name) => ({ name: `custom:${name}`, displayName: 'Dashboard readers', version: 2, permissions: [{ action: 'dashboards:read', scope: 'dashboards:*' }] }),
  invalid: { name: ' ' },
  invalidField: 'spec.name',
};
