import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as ResourcePermission objects. */
export const samples: KindSamples = {
  spec: () => ({ resource: { apiGroup: 'folder.svc.app', resource: 'folders', name: 'ops' }, permissions: [{ kind: 'BasicRole', name: 'Viewer', verb: 'view' }] }),
  changed: () => ({ resource: { apiGroup: 'folder.svc.app', resource: 'folders', name: 'ops' }, permissions: [{ kind: 'BasicRole', name: 'Viewer', verb: 'edit' }] }),
  invalid: { resource: { apiGroup: 'playlist.svc.app', resource: 'Not a resource', name: 'p' }, permissions: [] },
  invalidField: 'spec.resource.resource',
};
