import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as TeamBinding objects. */
export const samples: KindSamples = {
  spec: () => ({ teamId: 1, teamUid: 'platform', userId: 2, userUid: 'ana', permission: 'Member' }),
  changed: () => ({ teamId: 1, teamUid: 'platform', userId: 2, userUid: 'ana', permission: 'Admin' }),
  invalid: { teamId: 1, teamUid: 'platform', userId: 2, userUid: 'ana', permission: 'Owner' },
  invalidField: 'spec.permission',
};
