import { StatusError } from '../../../../pkg/errors';
import type { KindRegistration } from '../../../../pkg/meta';
import { type SnapshotSpec, snapshotSpecSchema } from './snapshot-schema';
import { snapshotStrategy } from './snapshot-strategy';

export { SECURE_DASHBOARD } from './snapshot-schema';
export { SNAPSHOT_KEY } from './snapshot-schema';
export { DELETE_KEY_LABEL, deleteKeyLabel, EXPIRES_LABEL, expiresAt, isExpired, KEY_LABEL, randomSnapshotKey } from './snapshot-strategy';

const SNAPSHOT_ACTIONS = ['snapshots:read', 'snapshots:write', 'snapshots:delete'];

/**
 * Snapshot, `dashboard.svc.app/v1beta1` (spec §2.9, §4.7): a dashboard frozen with its data, shared by its key
 * (the object's name, unique across organizations). Its dashboard JSON is encrypted at rest (`secureValues`).
 */
export const snapshotKind = {
  group: 'dashboard.svc.app',
  version: 'v1beta1',
  kind: 'Snapshot',
  plural: 'snapshots',
  singular: 'snapshot',
  categories: ['svc'],
  specSchema: snapshotSpecSchema,
  strategy: snapshotStrategy,
  deleteResponse: 'status',
  internalIds: true,
  unique: [{ field: 'key', scope: 'cluster', value: (spec) => spec.key ?? '', error: () => new StatusError(409, 'AlreadyExists', 'A snapshot with this key already exists') }],
  secureValues: [{ path: 'spec.secure', reportAs: 'spec.secureFields' }],
  access: {
    resource: 'snapshots',
    // Every member may take snapshots (snapshots:create); its creator alone manages one, and org Admins all of them.
    roles: { Viewer: [{ verbs: ['create'], on: 'all' }], Admin: [{ verbs: ['read', 'write', 'delete'], on: 'all' }] },
    managed: { levels: { View: ['snapshots:read'], Edit: SNAPSHOT_ACTIONS, Admin: SNAPSHOT_ACTIONS }, defaults: [{ grantee: 'creator', permission: 'Admin' }] },
  },
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.name' },
    { name: 'Expires', type: 'date', jsonPath: '.spec.expires' },
  ],
} satisfies KindRegistration<SnapshotSpec>;
