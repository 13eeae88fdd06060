import type { Request, Response } from 'express';
import type { IdentityDirectory, StoredUser } from '../../pkg/auth/identity/identity-directory';
import { isServiceAccount } from '../../pkg/auth/authorization/org-access';
import { requireAccess } from '../../pkg/auth/authorization/require-access';
import { type StoredTeam, type TeamDirectory, teamNotFound, type TeamPermission, teamScope } from '../../pkg/auth/identity/team-directory';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, bodyObject, idParam, positiveQueryInt, queryString as firstQuery } from '../shared';
import { fromSetTeamMembershipsCommand, fromTeamCommand, parseTeamPermission, type SearchTeamQueryResult, toTeamDTO, toTeamMemberDTO } from './teams-conversions';

/**
 * Teams of the caller's organization and their members (the anchor's /api/teams), as clients of the Team and
 * TeamBinding kinds. Every endpoint asks the authorizer for the anchor's action on `teams:id:<id>`: org Admins hold
 * them on every team, a team's members read it and its team Admins manage it.
 */

const bad = (message: string) => new StatusError(400, 'BadRequest', message);

const queryString = (v: unknown): string => firstQuery(v) ?? '';

/** The actions a team's `accessControl` metadata reports (`?accesscontrol=true`), as the anchor's team pages ask. */
const TEAM_ACTIONS = ['teams:read', 'teams:write', 'teams:delete', 'teams.permissions:read', 'teams.permissions:write', 'teams.roles:read', 'teams.roles:add', 'teams.roles:remove'];

/** `{action: true}` for each team action the caller holds on the team, when the request asks for it. */
async function accessControlOf(req: Request, team: StoredTeam): Promise<{ accessControl?: Record<string, boolean> }> {
  if (queryString(req.query.accesscontrol) !== 'true') return {};
  const held: Record<string, boolean> = {};
  for (const action of TEAM_ACTIONS) {
    const scope = action.startsWith('teams.roles:') && !action.endsWith(':read') ? 'permissions:type:delegate' : teamScope(team.id);
    if (await req.access!.can(action, scope)) held[action] = true;
  }
  return { accessControl: held };
}

/**
 * The team of the path (`:teamId`), by numeric id or (as the anchor's team resolver allows) by uid, once the caller
 * may do `action` on it: 403 before 404, as the anchor's middleware answers.
 *
 * @example
 *   const team = await teamOfPath(teams, req, 'teams:write'); // team Admins and org Admins pass
 */
export async function teamOfPath(teams: TeamDirectory, req: Request, action: string, notFound = teamNotFound): Promise<StoredTeam> {
  const param = String(req.params.teamId);
  const byUid = /^[A-Za-z0-9_-]*[A-Za-z_-][A-Za-z0-9_-]*$/.test(param) ? await teams.teamByUid(req.user!.orgId, param) : undefined;
  const id = byUid?.id ?? idParam(req, 'teamId');
  await requireAccess(req, action, teamScope(id));
  const team = byUid ?? (await teams.teamById(req.user!.orgId, id));
  if (!team) throw notFound();
  return team;
}

const by = (req: Request) => ({ identity: req.user!.identity });

/** A user of the caller's organization, else 404 "User not found". */
async function orgUser(users: IdentityDirectory, req: Request, userId: number): Promise<StoredUser> {
  const user = await users.userById(userId);
  if (!user || !(await users.roleOf(req.user!.orgId, userId))) throw new StatusError(404, 'NotFound', 'User not found');
  return user;
}

export async function createTeam(req: Request, res: Response, { users, teams }: AdapterDeps): Promise<void> {
  const fields = fromTeamCommand(bodyObject(req));
  if (!fields) throw bad('bad request data');
  if (!fields.name?.trim()) throw bad('Team name is required');
  const orgId = req.user!.orgId;
  const team = await teams.createTeam(by(req), orgId, { name: fields.name, email: fields.email });
  // As the anchor: a user who creates a team becomes its Admin.
  const creator = req.user!.identity.startsWith('user:') ? await users.userById(req.user!.userId) : undefined;
  if (creator) await teams.setMember(by(req), orgId, team, creator, 'Admin');
  res.json({ message: 'Team created', teamId: team.id, uid: team.uid });
}

export async function searchTeams(req: Request, res: Response, { teams }: AdapterDeps): Promise<void> {
  const orgId = req.user!.orgId;
  const perPage = positiveQueryInt(req.query.perpage, 1000);
  const page = positiveQueryInt(req.query.page, 1);
  const q = { query: queryString(req.query.query), name: queryString(req.query.name), offset: (page - 1) * perPage, limit: perPage };
  const found = await teams.searchTeams(orgId, { ...q, access: req.access });
  const memberships = await teams.membershipsOfTeams(orgId, found.teams.map((t) => t.id));
  const mine = req.user!.identity.slice('user:'.length);
  const teamsOnPage = [];
  for (const t of found.teams) {
    const members = memberships.filter((m) => m.teamId === t.id);
    teamsOnPage.push({ ...toTeamDTO(t, members.length, members.find((m) => m.userUid === mine)?.permission), ...(await accessControlOf(req, t)) });
  }
  const result: SearchTeamQueryResult = { totalCount: found.totalCount, teams: teamsOnPage, page, perPage };
  res.json(result);
}

export async function getTeamByID(req: Request, res: Response, { teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams:read');
  const members = await teams.membersOf(team.orgId, team.id);
  // A service account's numeric id is not a user's: it is no member, whoever has the same number.
  const me = isServiceAccount(req.user!) ? undefined : members.find((m) => m.userId === req.user!.userId);
  res.json({ ...toTeamDTO(team, members.length, me?.permission), ...(await accessControlOf(req, team)) });
}

export async function updateTeam(req: Request, res: Response, { teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams:write');
  const fields = fromTeamCommand(bodyObject(req));
  if (!fields) throw bad('bad request data');
  await teams.updateTeam(by(req), team, fields);
  res.json({ message: 'Team updated' });
}

export async function deleteTeamByID(req: Request, res: Response, { teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams:delete', () => new StatusError(404, 'NotFound', 'Failed to delete Team. ID not found'));
  await teams.deleteTeam(by(req), team);
  res.json({ message: 'Team deleted' });
}

export async function getTeamMembers(req: Request, res: Response, { users, teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams.permissions:read');
  const out = [];
  for (const m of await teams.membersOf(team.orgId, team.id)) {
    const user = await users.userById(m.userId);
    if (user) out.push(toTeamMemberDTO(m, user));
  }
  res.json(out);
}

export async function addTeamMember(req: Request, res: Response, { users, teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams.permissions:write');
  const userId = bodyObject(req).userId;
  if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId < 1) throw bad('bad request data');
  const user = await orgUser(users, req, userId);
  if (await teams.memberOf(team.orgId, team.id, user.id)) throw bad('User is already added to this team');
  await teams.setMember(by(req), team.orgId, team, user, 'Member');
  res.json({ message: 'Member added to Team' });
}

/** The anchor's bulk form: these emails become exactly the team's members and admins (admins win over members). */
export async function setTeamMemberships(req: Request, res: Response, { users, teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams.permissions:write');
  const wanted = fromSetTeamMembershipsCommand(bodyObject(req));
  if (!wanted) throw bad('bad request data');
  const desired = new Map<number, { user: StoredUser; permission: TeamPermission }>();
  for (const [email, permission] of wanted) {
    const user = await users.userByLoginOrEmail(email);
    if (!user || !(await users.roleOf(team.orgId, user.id))) throw new StatusError(404, 'NotFound', 'user not found');
    desired.set(user.id, { user, permission });
  }
  for (const m of await teams.membersOf(team.orgId, team.id)) {
    if (!desired.has(m.userId)) await teams.removeMember(by(req), team.orgId, team.id, m.userId);
  }
  for (const { user, permission } of desired.values()) await teams.setMember(by(req), team.orgId, team, user, permission);
  res.json({ message: 'Team memberships have been updated' });
}

export async function updateTeamMember(req: Request, res: Response, { users, teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams.permissions:write');
  const userId = idParam(req, 'userId');
  const permission = parseTeamPermission(bodyObject(req).permission);
  if (!permission) throw bad('bad request data');
  if (!(await teams.memberOf(team.orgId, team.id, userId))) throw new StatusError(404, 'NotFound', 'Team member not found.');
  await teams.setMember(by(req), team.orgId, team, await orgUser(users, req, userId), permission);
  res.json({ message: 'Team member updated' });
}

export async function removeTeamMember(req: Request, res: Response, { teams }: AdapterDeps): Promise<void> {
  const team = await teamOfPath(teams, req, 'teams.permissions:write');
  const userId = idParam(req, 'userId');
  await teams.removeMember(by(req), team.orgId, team.id, userId);
  res.json({ message: 'Team Member removed' });
}
