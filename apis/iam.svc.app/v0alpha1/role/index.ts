import type { KindRegistration } from '../../../../pkg/meta';
import { type RoleSpec, roleSpecSchema } from './role-schema';

export type { RolePermission, RoleSpec } from './role-schema';

/** Custom role, `iam.svc.app/v0alpha1`, in its organization's namespace; the object name is the role's uid. */
export const roleKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  specSchema: roleSpecSchema,
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Name', type: 'string', jsonPath: '.spec.name' },
    { name: 'Version', type: 'integer', jsonPath: '.spec.version' },
  ],
} satisfies KindRegistration<RoleSpec>;
