import { anyKind, type KindRegistration } from '../../../../pkg/meta';
import { assignmentsOf, roleBindingKind } from '../rolebinding';
import { TEAM_BINDING_LABELS, teamBindingKind } from '../teambinding';
import { type OrgMemberSpec, orgMemberSpecSchema } from './orgmember-schema';

export { ORG_ROLES, type OrgMemberSpec } from './orgmember-schema';

/**
 * Organization membership, `iam.svc.app/v0alpha1`, in the organization's namespace (`default` for org 1,
 * `org-<id>`); the object name is the user id, so a user is a member of an org at most once.
 */
export const orgMemberKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'OrgMember',
  plural: 'orgmembers',
  singular: 'orgmember',
  specSchema: orgMemberSpecSchema,
  deleteResponse: 'status',
  // A user who leaves an organization leaves its teams there too, in the same transaction.
  cascades: [
    { kind: anyKind(teamBindingKind), dependents: (member) => ({ labels: { [TEAM_BINDING_LABELS.userId]: String(member.spec.userId) } }) },
    // And its custom roles there.
    { kind: anyKind(roleBindingKind), dependents: (member) => assignmentsOf('user', member.spec.userId) },
  ],
  printerColumns: [
    { name: 'User', type: 'integer', jsonPath: '.spec.userId' },
    { name: 'Role', type: 'string', jsonPath: '.spec.role' },
  ],
} satisfies KindRegistration<OrgMemberSpec>;
