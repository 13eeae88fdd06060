import type { KindRegistration } from '../../../../pkg/meta';
import { type TeamBindingSpec, teamBindingSpecSchema } from './teambinding-schema';

export { TEAM_PERMISSIONS, type TeamBindingSpec, type TeamPermission } from './teambinding-schema';

/**
 * Team membership, `iam.svc.app/v0alpha1`, in the organization's namespace. The object name is
 * `<teamId>-<userId>`, so a user is a member of a team at most once.
 */
/** Labels that find memberships by team or user without reading them all (and a team's or member's cascades). */
export const TEAM_BINDING_LABELS = { teamId: 'svc.app/team-id', userId: 'svc.app/user-id', userKey: 'svc.app/user-key' } as const;

export const teamBindingKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'TeamBinding',
  plural: 'teambindings',
  singular: 'teambinding',
  specSchema: teamBindingSpecSchema,
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Team', type: 'integer', jsonPath: '.spec.teamId' },
    { name: 'User', type: 'integer', jsonPath: '.spec.userId' },
    { name: 'Permission', type: 'string', jsonPath: '.spec.permission' },
  ],
} satisfies KindRegistration<TeamBindingSpec>;
