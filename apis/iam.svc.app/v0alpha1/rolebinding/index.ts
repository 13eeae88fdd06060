import type { KindRegistration } from '../../../../pkg/meta';
import { type RoleBindingSpec, roleBindingSpecSchema } from './rolebinding-schema';

export { ROLE_SUBJECT_KINDS, type RoleBindingSpec, type RoleSubjectKind } from './rolebinding-schema';

/**
 * Custom role assignment, `iam.svc.app/v0alpha1`, in the organization's namespace. The object name is derived from
 * subject and role, so a role is assigned to a subject at most once.
 */
export const roleBindingKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  singular: 'rolebinding',
  specSchema: roleBindingSpecSchema,
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Role', type: 'string', jsonPath: '.spec.roleUid' },
    { name: 'Subject', type: 'string', jsonPath: '.spec.subject.kind' },
    { name: 'Id', type: 'integer', jsonPath: '.spec.subject.id' },
  ],
} satisfies KindRegistration<RoleBindingSpec>;
