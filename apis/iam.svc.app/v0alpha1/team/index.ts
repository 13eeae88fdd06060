import { StatusError } from '../../../../pkg/errors';
import { anyKind, type KindRegistration, Labels } from '../../../../pkg/meta';
import { preferencesKind, preferencesOf } from '../../../preferences.svc.app/v1alpha1/preferences';
import { grantsTo, resourcePermissionKind } from '../resourcepermission';
import { assignmentsOf, roleBindingKind } from '../rolebinding';
import { TEAM_BINDING_LABELS, teamBindingKind } from '../teambinding';
import { TEAM_GROUP_TEAM_LABEL, teamGroupKind } from '../teamgroup';
import { type TeamSpec, teamSpecSchema } from './team-schema';

export type { TeamSpec } from './team-schema';

/**
 * Team, `iam.svc.app/v0alpha1`, in its organization's namespace (`default`, `org-<id>`). The object name is the
 * team's uid; its numeric id (the `svc.app/deprecatedInternalID` label) is unique across organizations, as in the
 * anchor. Names are unique in the organization, compared case-insensitively.
 */
export const teamKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'Team',
  plural: 'teams',
  singular: 'team',
  specSchema: teamSpecSchema,
  deleteResponse: 'status',
  internalIds: true,
  unique: [{ field: 'name', value: (spec) => spec.name.trim().toLowerCase(), error: () => new StatusError(409, 'Conflict', 'Team name taken') }],
  // fixed:teams:creator and fixed:teams:writer (Admins). Checked by the teams area on `teams:id:<id>`: the identity
  // registry is called by the server's services, never with a caller's access, so this declares the roles only.
  access: { resource: 'teams', roles: { Admin: [{ verbs: ['create', 'read', 'write', 'delete', 'permissions:read', 'permissions:write'], on: 'all' }] } },
  // Its memberships, external groups and custom roles go with it (found by its numeric id; one not yet numbered has
  // none), its preferences, and its items in managed permissions (both by its uid, the object name).
  cascades: [
    { kind: anyKind(teamBindingKind), dependents: (team) => byLabel(TEAM_BINDING_LABELS.teamId, team.metadata.labels?.[Labels.deprecatedInternalID]) },
    { kind: anyKind(teamGroupKind), dependents: (team) => byLabel(TEAM_GROUP_TEAM_LABEL, team.metadata.labels?.[Labels.deprecatedInternalID]) },
    { kind: anyKind(roleBindingKind), dependents: (team) => assignmentsOf('team', team.metadata.labels?.[Labels.deprecatedInternalID]) },
    { kind: anyKind(preferencesKind), dependents: (team) => preferencesOf('team', team.metadata.name) },
    { kind: anyKind(resourcePermissionKind), dependents: (team) => grantsTo('Team', team.metadata.name) },
  ],
  // What the legacy team search matches and sorts by.
  fields: { name: { path: ['spec', 'name'] }, id: { path: ['metadata', 'labels', Labels.deprecatedInternalID], as: 'number' } },
  printerColumns: [
    { name: 'Name', type: 'string', jsonPath: '.spec.name' },
    { name: 'Email', type: 'string', jsonPath: '.spec.email' },
  ],
} satisfies KindRegistration<TeamSpec>;

/** The dependents labelled `key=value`; none when there is no value. */
function byLabel(key: string, value: string | undefined) {
  return value ? { labels: { [key]: value } } : {};
}
