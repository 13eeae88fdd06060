import { StatusError } from '../../../../pkg/errors';
import { anyKind, type KindRegistration } from '../../../../pkg/meta';
import { ROLE_BINDING_LABELS, roleBindingKind, roleKeyOf } from '../rolebinding';
import { type RoleSpec, roleSpecSchema } from './role-schema';

export type { RolePermission, RoleSpec } from './role-schema';

/**
 * Custom role, `iam.svc.app/v0alpha1`, in its organization's namespace; the object name is the role's uid. Names
 * are unique in the organization, compared case-insensitively.
 */
export const roleKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  specSchema: roleSpecSchema,
  deleteResponse: 'status',
  unique: [{ field: 'name', value: (spec) => spec.name.trim().toLowerCase(), error: () => new StatusError(409, 'Conflict', 'A role with the same name already exists') }],
  // Its assignments go with it, in the same transaction.
  cascades: [{ kind: anyKind(roleBindingKind), dependents: (role) => ({ labels: { [ROLE_BINDING_LABELS.roleKey]: roleKeyOf(role.metadata.name) } }) }],
  printerColumns: [
    { name: 'Name', type: 'string', jsonPath: '.spec.name' },
    { name: 'Version', type: 'integer', jsonPath: '.spec.version' },
  ],
} satisfies KindRegistration<RoleSpec>;
