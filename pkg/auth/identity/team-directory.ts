import { teamBindingKind, teamKind } from '../../../apis';
import type { TeamSpec } from '../../../apis/iam.svc.app/v0alpha1/team';
import { TEAM_BINDING_LABELS, type TeamBindingSpec, type TeamPermission } from '../../../apis/iam.svc.app/v0alpha1/teambinding';
import { StatusError } from '../../errors';
import { Annotations, type KindRegistration, Labels, randomUid, type Resource, type SpecOf } from '../../meta';
import type { AccessCheck, Requester, RequestContext } from '../../registry';
import { type IdentityDirectory, keyOf, type StoredUser, SYSTEM } from './identity-directory';

export type { TeamPermission } from '../../../apis/iam.svc.app/v0alpha1/teambinding';

export interface StoredTeam {
  id: number;
  uid: string;
  orgId: number;
  name: string;
  email: string;
  created: string;
  updated: string;
}

export interface StoredTeamMember {
  orgId: number;
  teamId: number;
  teamUid: string;
  userId: number;
  userUid: string;
  permission: TeamPermission;
}

export interface TeamFields {
  name: string;
  email?: string;
}

const { teamId: TEAM_ID, userId: USER_ID, userKey: USER_KEY } = TEAM_BINDING_LABELS;

const TEAMS = teamKind;
const BINDINGS = teamBindingKind;

/** The scope of one team, as the anchor's team permissions name it. */
export function teamScope(teamId: number): string {
  return `teams:id:${teamId}`;
}

export const teamNotFound = () => new StatusError(404, 'NotFound', 'Team not found');

/** A team's numeric id: its `deprecatedInternalID` label. */
const teamIdOf = ({ metadata }: Pick<Resource, 'metadata'>) => Number(metadata.labels?.[Labels.deprecatedInternalID]);

function toTeam(orgId: number, obj: Resource<TeamSpec>): StoredTeam {
  const s = obj.spec;
  return {
    id: teamIdOf(obj),
    uid: obj.metadata.name,
    orgId,
    name: s.name,
    email: s.email,
    created: obj.metadata.creationTimestamp!,
    updated: obj.metadata.annotations?.[Annotations.updatedTimestamp] ?? obj.metadata.creationTimestamp!,
  };
}

function toMember(orgId: number, { spec: s }: Resource<TeamBindingSpec>): StoredTeamMember {
  return { orgId, teamId: s.teamId, teamUid: s.teamUid, userId: s.userId, userUid: s.userUid, permission: s.permission };
}

/**
 * Teams and team memberships, stored as `iam.svc.app/v0alpha1` Team and TeamBinding kinds in each organization's
 * namespace, by the identity registry. Team ids are unique across organizations, as the anchor's; names are unique
 * within an organization. It is also what the authorizer asks about teams: which teams a user is in (custom roles
 * and managed permissions granted to a team reach its members) and with which team permission (what that grants is
 * authorization's: pkg/auth/authorization/team-permissions.ts).
 *
 * @example
 *   const teams = new TeamDirectory(users);
 *   const team = await teams.createTeam(by, 1, { name: 'Ops', email: 'ops@example.com' });
 *   await teams.setMember(by, 1, team, user, 'Member');
 *   await teams.teamUidsOf(1, user.uid); // [team.uid]
 */
export class TeamDirectory {

  // A user who leaves an organization leaves its teams there (the membership kind's cascades).
  constructor(private readonly users: IdentityDirectory) {}

  private get registry() {
    return this.users.registry;
  }

  private ctx(by: Requester, orgId: number): RequestContext {
    return this.users.inOrg(by, orgId);
  }

  private listIn<S>(orgId: number, kind: KindRegistration<S>, labelSelector?: string): Promise<Resource<SpecOf<S>>[]> {
    return this.users.listInOrg(orgId, kind, labelSelector);
  }

  // Teams

  async teamById(orgId: number, id: number): Promise<StoredTeam | undefined> {
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    const [obj] = await this.listIn(orgId, TEAMS, `${Labels.deprecatedInternalID}=${id}`);
    return obj && toTeam(orgId, obj);
  }

  async teamByUid(orgId: number, uid: string): Promise<StoredTeam | undefined> {
    try {
      return toTeam(orgId, await this.registry.get(this.ctx(SYSTEM, orgId), TEAMS, uid));
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 400)) return undefined;
      throw err;
    }
  }

  /** The org's teams whose uids are `uids` (unknown ones absent): one read. */
  async teamsByUid(orgId: number, uids: readonly string[]): Promise<StoredTeam[]> {
    if (!uids.length) return [];
    const page = await this.registry.page(this.ctx(SYSTEM, orgId), TEAMS, { names: uids });
    return page.items.map((o) => toTeam(orgId, o));
  }

  /**
   * One page of the org's teams whose name holds `query` (any case) and is exactly `name` when given, by name, with
   * how many match in all; with `access`, only the teams it may read (`teams:read` on the team), paged by the
   * database when it may read every team.
   *
   * @example await teams.searchTeams(1, { query: 'ops', offset: 0, limit: 50, access: req.access });
   */
  async searchTeams(orgId: number, q: { query: string; name?: string; offset: number; limit: number; access?: AccessCheck }): Promise<{ teams: StoredTeam[]; totalCount: number }> {
    const ctx: RequestContext = { ...this.ctx(SYSTEM, orgId), access: q.access };
    const page = await this.registry.page(ctx, TEAMS, {
      query: { text: q.query, fields: ['name'] },
      ...(q.name ? { where: { name: q.name } } : {}),
      orderBy: ['name', 'id'],
      offset: q.offset,
      limit: q.limit,
      visibleTo: { action: 'teams:read', every: 'teams:id:*', scope: (obj) => teamScope(teamIdOf(obj)) },
    });
    return { teams: page.items.map((o) => toTeam(orgId, o)), totalCount: page.totalCount };
  }

  /**
   * Creates a team, numbered by the registry: 409 "Team name taken" when the org has one of that name, in any case
   * (the team kind's unique field, so of concurrent creates of one name exactly one wins).
   */
  async createTeam(by: Requester, orgId: number, fields: TeamFields): Promise<StoredTeam> {
    const spec: TeamSpec = { name: fields.name.trim(), email: (fields.email ?? '').trim() };
    const obj = await this.registry.create(this.ctx(by, orgId), TEAMS, { metadata: { name: randomUid() }, spec });
    return toTeam(orgId, obj);
  }

  /** Renames or re-addresses a team: 404 "Team not found", 400 "Team name taken" (the anchor's update answers). */
  async updateTeam(by: Requester, current: StoredTeam, fields: Partial<TeamFields>): Promise<StoredTeam> {
    const name = fields.name?.trim() || current.name;
    const email = fields.email !== undefined ? fields.email.trim() : current.email;
    try {
      const obj = await this.registry.patch(this.ctx(by, current.orgId), TEAMS, current.uid, (o) => ({ ...o, spec: { ...o.spec, name, email } }));
      return toTeam(current.orgId, obj);
    } catch (err) {
      // The anchor's update answers a taken name with 400 where its create answers 409.
      if (err instanceof StatusError && err.message === 'Team name taken') throw new StatusError(400, 'BadRequest', err.message);
      throw err;
    }
  }

  /**
   * Deletes a team and, in its transaction (the team kind's cascades), its memberships, custom roles, preferences
   * and managed permission items.
   */
  async deleteTeam(by: Requester, team: StoredTeam): Promise<void> {
    await this.registry.delete(this.ctx(by, team.orgId), TEAMS, team.uid);
  }

  // Memberships

  async membersOf(orgId: number, teamId: number): Promise<StoredTeamMember[]> {
    const list = await this.listIn(orgId, BINDINGS, `${TEAM_ID}=${teamId}`);
    return list.map((o) => toMember(orgId, o)).sort((a, b) => a.userId - b.userId);
  }

  /** Every membership of the org: to count members of many teams with one read. */
  async allMemberships(orgId: number): Promise<StoredTeamMember[]> {
    return (await this.listIn(orgId, BINDINGS)).map((o) => toMember(orgId, o));
  }

  /** The memberships of these teams: one read. */
  async membershipsOfTeams(orgId: number, teamIds: readonly number[]): Promise<StoredTeamMember[]> {
    if (!teamIds.length) return [];
    const page = await this.registry.page(this.ctx(SYSTEM, orgId), BINDINGS, { labels: { [TEAM_ID]: teamIds.map(String) } });
    return page.items.map((o) => toMember(orgId, o));
  }

  /** The teams of the org a user is a member of, by its uid (the caller's identity is `user:<uid>`). */
  async membershipsOf(orgId: number, userUid: string): Promise<StoredTeamMember[]> {
    return (await this.listIn(orgId, BINDINGS, `${USER_KEY}=${keyOf(userUid)}`)).map((o) => toMember(orgId, o)).filter((m) => m.userUid === userUid);
  }

  async memberOf(orgId: number, teamId: number, userId: number): Promise<StoredTeamMember | undefined> {
    return (await this.membersOf(orgId, teamId)).find((m) => m.userId === userId);
  }

  /** Adds the user to the team with `permission`, or changes its permission there. */
  async setMember(by: Requester, orgId: number, team: StoredTeam, user: StoredUser, permission: TeamPermission): Promise<void> {
    const ctx = this.ctx(by, orgId);
    const name = `${team.id}-${user.id}`;
    const spec: TeamBindingSpec = { teamId: team.id, teamUid: team.uid, userId: user.id, userUid: user.uid, permission };
    const labels = { [TEAM_ID]: String(team.id), [USER_ID]: String(user.id), [USER_KEY]: keyOf(user.uid) };
    await this.registry.upsert(ctx, BINDINGS, name, (current) => ({ ...(current ?? { metadata: { name, labels } }), spec }));
  }

  /** Removes one membership (404 "Team member not found" when there is none). */
  async removeMember(by: Requester, orgId: number, teamId: number, userId: number): Promise<void> {
    try {
      await this.registry.delete(this.ctx(by, orgId), BINDINGS, `${teamId}-${userId}`);
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) throw new StatusError(404, 'NotFound', 'Team member not found');
      throw err;
    }
  }

  // What the authorizer asks

  async teamUidsOf(orgId: number, userUid: string): Promise<string[]> {
    return (await this.checkedMemberships(orgId, userUid)).map((m) => m.teamUid);
  }

  /** Memberships as the authorizer reads them on every request: kept while no team binding anywhere has changed. */
  private readonly checked = new Map<string, { version: number; members: Promise<StoredTeamMember[]> }>();

  async checkedMemberships(orgId: number, userUid: string): Promise<StoredTeamMember[]> {
    const { current } = await this.registry.versions(BINDINGS);
    const key = `${orgId}/${userUid}`;
    const hit = this.checked.get(key);
    if (hit && hit.version === current) return hit.members;
    if (this.checked.size >= 10_000) this.checked.clear();
    const members = this.membershipsOf(orgId, userUid);
    this.checked.set(key, { version: current, members });
    members.catch(() => this.checked.delete(key));
    return members;
  }
}
