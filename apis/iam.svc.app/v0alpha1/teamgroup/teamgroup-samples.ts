import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as TeamGroup objects. */
export const samples: KindSamples = {
  spec: () => ({ teamId: 1, groupId: 'cn=editors,ou=groups,dc=example,dc=org' }),
  changed: () => ({ teamId: 1, groupId: 'cn=admins,ou=groups,dc=example,dc=org' }),
  invalid: { teamId: 0, groupId: 'x' },
  invalidField: 'spec.teamId',
};
