import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as RoleBinding objects. */
export const samples: KindSamples = {
  spec: () => ({ roleUid: 'dash-reader', subject: { kind: 'user', uid: 'ana', id: 2 } }),
  changed: () => ({ roleUid: 'dash-reader', subject: { kind: 'team', uid: 'platform', id: 1 } }),
  invalid: { roleUid: 'dash-reader', subject: { kind: 'robot', uid: 'r2', id: 3 } },
  invalidField: 'spec.subject.kind',
};
