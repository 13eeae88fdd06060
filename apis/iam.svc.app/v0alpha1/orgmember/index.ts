import { anyKind, type CascadeRead, type KindRegistration, type Resource } from '../../../../pkg/meta';
import { preferencesKind, preferencesOf } from '../../../preferences.svc.app/v1alpha1/preferences';
import { grantsTo, resourcePermissionKind } from '../resourcepermission';
import { assignmentsOf, roleBindingKind } from '../rolebinding';
import { TEAM_BINDING_LABELS, teamBindingKind } from '../teambinding';
import { type OrgMemberSpec, orgMemberSpecSchema } from './orgmember-schema';

export { ORG_ROLES, type OrgMemberSpec, type OrgRole } from './orgmember-schema';

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
    // And its preferences and its items in managed permissions there (a deleted user's go with the user).
    { kind: anyKind(preferencesKind), dependents: async (member, read) => preferencesOf('user', await userUidOf(member, read)) },
    { kind: anyKind(resourcePermissionKind), dependents: async (member, read) => grantsTo('User', await userUidOf(member, read)) },
  ],
  printerColumns: [
    { name: 'User', type: 'integer', jsonPath: '.spec.userId' },
    { name: 'Role', type: 'string', jsonPath: '.spec.role' },
  ],
} satisfies KindRegistration<OrgMemberSpec>;

/** The user kind's type (its registration imports this one), as a cascade reads a member's user. */
const USERS = { group: 'iam.svc.app', plural: 'users' };

/** The uid of a member's user (objects named by the user's id); none when the user is gone. */
async function userUidOf(member: Resource<OrgMemberSpec>, read: CascadeRead): Promise<string | undefined> {
  return ((await read(USERS, String(member.spec.userId)))?.spec as { uid?: string } | undefined)?.uid;
}
