import { type StoredTeamMember, type TeamPermission, teamScope } from '../identity/team-directory';
import type { PermissionSource } from './authorizer';
import type { Permission, Subject } from './permissions';

/**
 * What a team permission grants on its team (the anchor's team permissions: a Member reads the team, an Admin of
 * the team also changes and deletes it and manages its members).
 *
 * @example
 *   teamActions('Member'); // ['teams:read']
 */
export function teamActions(permission: TeamPermission): readonly string[] {
  const member = ['teams:read'];
  return permission === 'Admin' ? [...member, 'teams:write', 'teams:delete', 'teams.permissions:read', 'teams.permissions:write'] : member;
}

/**
 * The permissions a user's team memberships give it in the subject's org, each on its team's scope: the authorizer's
 * source for them. Identity answers the memberships; what they grant is decided here.
 *
 * @example
 *   new AccessControl({ registry, teams, sources: [teamPermissions(teams)] });
 */
export function teamPermissions(teams: { checkedMemberships(orgId: number, userUid: string): Promise<StoredTeamMember[]> }): PermissionSource {
  return {
    async permissionsFor(subject: Subject): Promise<readonly Permission[]> {
      if (subject.kind !== 'user') return [];
      const out: Permission[] = [];
      for (const m of await teams.checkedMemberships(subject.orgId, subject.uid)) {
        for (const action of teamActions(m.permission)) out.push({ action, scope: teamScope(m.teamId) });
      }
      return out;
    },
  };
}
