import type { StoredUser } from '../../pkg/auth/identity/identity-directory';
import type { StoredTeam, StoredTeamMember } from '../../pkg/auth/identity/team-directory';
import {
  fromSetTeamMembershipsCommand,
  fromTeamCommand,
  fromTeamDTO,
  fromTeamMemberDTO,
  parseTeamPermission,
  teamAvatarUrl,
  teamPermissionNumber,
  toTeamDTO,
  toSetTeamMembershipsCommand,
  toTeamMemberDTO,
} from './teams-conversions';

const team: StoredTeam = { id: 5, uid: 'tm5abc', orgId: 2, name: 'Ops', email: 'ops@example.com', created: '2026-01-02T03:04:05Z', updated: '2026-01-02T03:04:05Z' };
const user: StoredUser = {
  id: 3, uid: 'u-3', login: 'cy', email: 'cy@example.com', name: 'Cy', isSvcAdmin: false, isDisabled: false, orgId: 2,
  created: '2026-01-02T03:04:05Z', updated: '2026-01-02T03:04:05Z',
};

describe('teams conversions', () => {
  it('round-trips a team through TeamDTO', () => {
    const dto = toTeamDTO(team, 3, 'Admin');
    expect(dto).toEqual({ id: 5, uid: 'tm5abc', orgId: 2, name: 'Ops', email: 'ops@example.com', avatarUrl: expect.stringMatching(/^\/avatar\/[0-9a-f]{32}$/), memberCount: 3, permission: 4 });
    expect(fromTeamDTO(dto)).toEqual({ id: 5, uid: 'tm5abc', orgId: 2, name: 'Ops', email: 'ops@example.com' });
    expect(toTeamDTO(team, 0).permission).toBe(0);
  });

  it('round-trips a membership through TeamMemberDTO', () => {
    const member: StoredTeamMember = { orgId: 2, teamId: 5, teamUid: 'tm5abc', userId: 3, userUid: 'u-3', permission: 'Admin' };
    const dto = toTeamMemberDTO(member, user);
    expect(dto).toMatchObject({ orgId: 2, teamId: 5, teamUID: 'tm5abc', userId: 3, login: 'cy', email: 'cy@example.com', name: 'Cy', permission: 4, labels: [] });
    expect(fromTeamMemberDTO(dto, 'u-3')).toEqual(member);
  });

  it('numbers team permissions as the anchor does', () => {
    expect(teamPermissionNumber('Member')).toBe(0);
    expect(teamPermissionNumber(undefined)).toBe(0);
    expect(parseTeamPermission(4)).toBe('Admin');
    expect(parseTeamPermission(0)).toBe('Member');
    expect(parseTeamPermission(2)).toBeUndefined();
    expect(parseTeamPermission('4')).toBeUndefined();
  });

  it('binds create and update commands, in either case of field names', () => {
    expect(fromTeamCommand({ name: 'A', email: 'a@x' })).toEqual({ name: 'A', email: 'a@x' });
    expect(fromTeamCommand({ Name: 'B' })).toEqual({ name: 'B' });
    expect(fromTeamCommand({ name: 7 })).toBeUndefined();
  });

  it('gives a team without email the avatar of its name', () => {
    expect(teamAvatarUrl({ email: '', name: 'Ops' })).toBe(teamAvatarUrl({ email: 'ops', name: 'x' }));
  });

  it('round-trips SetTeamMembershipsCommand, admins winning over members', () => {
    const wanted = fromSetTeamMembershipsCommand({ members: ['a@x', 'b@x'], admins: ['b@x'] })!;
    expect([...wanted]).toEqual([['a@x', 'Member'], ['b@x', 'Admin']]);
    expect(toSetTeamMembershipsCommand(wanted)).toEqual({ members: ['a@x'], admins: ['b@x'] });
    expect(fromSetTeamMembershipsCommand({ members: 'a@x' })).toBeUndefined();
    expect(fromSetTeamMembershipsCommand({})!.size).toBe(0);
  });
});
