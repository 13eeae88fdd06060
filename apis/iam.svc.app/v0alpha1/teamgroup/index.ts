import type { KindRegistration } from '../../../../pkg/meta';
import { type TeamGroupSpec, teamGroupSpecSchema } from './teamgroup-schema';

export { MAX_GROUP_ID_LENGTH, type TeamGroupSpec } from './teamgroup-schema';

/**
 * The label that finds a team's groups without reading them all (and the team's cascade). The object name is the
 * team id and a digest of the group id (legacy-adapters/team-sync), so a group is mapped to a team at most once.
 */
export const TEAM_GROUP_TEAM_LABEL = 'svc.app/team-id';

/**
 * TeamGroup, `iam.svc.app/v0alpha1`: an external group mapped to a team (team sync, the enterprise edition), in the
 * team's organization namespace, labelled with the team's id; deleted with the team (the Team kind's cascades).
 */
export const teamGroupKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'TeamGroup',
  plural: 'teamgroups',
  singular: 'teamgroup',
  specSchema: teamGroupSpecSchema,
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Team', type: 'integer', jsonPath: '.spec.teamId' },
    { name: 'Group', type: 'string', jsonPath: '.spec.groupId' },
  ],
} satisfies KindRegistration<TeamGroupSpec>;
