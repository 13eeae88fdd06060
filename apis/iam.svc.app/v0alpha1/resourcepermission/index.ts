import type { KindRegistration } from '../../../../pkg/meta';
import { type ResourcePermissionSpec, resourcePermissionSpecSchema } from './resourcepermission-schema';

export { GRANTEE_KINDS, PERMISSION_VERBS, type ResourcePermissionSpec } from './resourcepermission-schema';

/**
 * ResourcePermission, `iam.svc.app/v0alpha1`: the managed permissions of one folder or dashboard, in its
 * organization's namespace. Names are at most 40 characters, so the object name is a digest of the guarded
 * resource and uid (pkg/auth/authorization/stored-permissions.ts `permissionObjectName`); `spec.resource` says what it guards.
 */
export const resourcePermissionKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'ResourcePermission',
  plural: 'resourcepermissions',
  singular: 'resourcepermission',
  specSchema: resourcePermissionSpecSchema,
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Resource', type: 'string', jsonPath: '.spec.resource.resource' },
    { name: 'Name', type: 'string', jsonPath: '.spec.resource.name' },
  ],
} satisfies KindRegistration<ResourcePermissionSpec>;
