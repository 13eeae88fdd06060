import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as OrgInvite objects. */
export const samples: KindSamples = {
  spec: () => ({ email: 'ana@example.org', name: 'Ana', role: 'Viewer', invitedBy: 'user:admin', status: 'InvitePending' }),
  changed: () => ({ email: 'ana@example.org', name: 'Ana', role: 'Viewer', invitedBy: 'user:admin', status: 'Revoked' }),
  invalid: { email: 'ana@example.org', name: 'Ana', role: 'Owner', invitedBy: 'user:admin', status: 'InvitePending' },
  invalidField: 'spec.role',
};
