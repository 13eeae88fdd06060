import type { CascadeSelection, KindRegistration } from '../../../../pkg/meta';
import { type ResourcePermissionSpec, resourcePermissionSpecSchema } from './resourcepermission-schema';

export { GRANTEE_KINDS, PERMISSION_VERBS, type ResourcePermissionSpec } from './resourcepermission-schema';

/**
 * A grantee's items in managed permissions, for its kind's cascades: each ResourcePermission of the owner's
 * namespace, or of `namespace` (`'*'`: a deleted user's in every organization), that names it loses the items naming
 * it, as the anchor removes them with a user leaving an organization or a deleted team. Only those lists are read (an
 * indexed containment query); none without a uid.
 */
export function grantsTo(kind: 'User' | 'Team', uid: string | undefined, namespace?: string): CascadeSelection {
  if (!uid) return {};
  return {
    ...(namespace ? { namespace } : {}),
    contains: { path: ['spec', 'permissions'], value: [{ kind, name: uid }] },
    prune: (perm) => {
      const spec = perm.spec as unknown as ResourcePermissionSpec;
      return { ...spec, permissions: spec.permissions.filter((p) => !(p.kind === kind && p.name === uid)) };
    },
  };
}

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
