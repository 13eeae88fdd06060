import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as OrgMember objects. */
export const samples: KindSamples = {
  spec: () => ({ userId: 7, role: 'Viewer' }),
  changed: () => ({ userId: 7, role: 'Editor' }),
  invalid: { userId: 7, role: 'Owner' },
  invalidField: 'spec.role',
};
