import { type KindRegistration, labelKey } from '../../../../pkg/meta';
import { type RoleBindingSpec, roleBindingSpecSchema, type RoleSubjectKind } from './rolebinding-schema';

export { ROLE_SUBJECT_KINDS, type RoleBindingSpec, type RoleSubjectKind } from './rolebinding-schema';

/** Labels that find a role by name and assignments by role or subject without reading them all. */
export const ROLE_BINDING_LABELS = { roleKey: 'svc.app/role-key', subjectKey: 'svc.app/subject-key', subjectId: 'svc.app/subject-id' } as const;

/** The value of an assignment's subject-id label: `user-7`, `team-3`, `service-account-2`. */
export const roleSubjectId = (kind: RoleSubjectKind, id: number | string) => `${kind}-${id}`;

/** A subject's assignments, for its kind's cascades: none when it has no id yet. */
export function assignmentsOf(kind: RoleSubjectKind, id: number | string | undefined) {
  return id === undefined || id === '' ? {} : { labels: { [ROLE_BINDING_LABELS.subjectId]: roleSubjectId(kind, id) } };
}

/** The value of an assignment's role-key label: a digest of the role's uid (its object name). */
export const roleKeyOf = (roleUid: string) => labelKey(roleUid);

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
