import { type Request, Router } from 'express';
import type { IdentityDirectory, StoredUser } from '../../pkg/auth/identity-directory';
import { isServiceAccount } from '../../pkg/auth/org-access';
import { requireAccess } from '../../pkg/auth/require-access';
import { type StoredTeam, type TeamDirectory, teamNotFound, type TeamPermission, teamScope } from '../../pkg/auth/team-directory';
import { StatusError } from '../../pkg/errors';
import { idParam, object } from '../users/users-routes';
import { fromSetTeamMembershipsCommand, fromTeamCommand, parseTeamPermission, type SearchTeamQueryResult, toTeamDTO, toTeamMemberDTO } from './teams-conversions';

const bad = (message: string) => new StatusError(400, 'BadRequest', message);

/** A positive integer query parameter, else `def` (the anchor's QueryInt reads anything else as 0). */
function queryInt(v: unknown, def: number): number {
  const n = Number(Array.isArray(v) ? v[0] : v);
  return Number.isSafeInteger(n) && n > 0 ? n : def;
}

function queryString(v: unknown): string {
  return String((Array.isArray(v) ? v[0] : v) ?? '');
}

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

/**
 * Teams of the caller's organization and their members (the anchor's /api/teams), as clients of the Team and
 * TeamBinding kinds. Every endpoint asks the authorizer for the anchor's action on `teams:id:<id>`: org Admins hold
 * them on every team, a team's members read it and its team Admins manage it.
 */
export function legacyTeamsRouter(users: IdentityDirectory, teams: TeamDirectory): Router {
  const router = Router();
  const by = (req: Request) => ({ identity: req.user!.identity });

  const teamOf = (req: Request, action: string, notFound = teamNotFound) => teamOfPath(teams, req, action, notFound);

  /** A user of the caller's organization, else 404 "User not found". */
  async function orgUser(req: Request, userId: number): Promise<StoredUser> {
    const user = await users.userById(userId);
    if (!user || !(await users.roleOf(req.user!.orgId, userId))) throw new StatusError(404, 'NotFound', 'User not found');
    return user;
  }

  router.post('/api/teams', async (req, res) => {
    await requireAccess(req, 'teams:create');
    const fields = fromTeamCommand(object(req.body));
    if (!fields) throw bad('bad request data');
    if (!fields.name?.trim()) throw bad('Team name is required');
    const orgId = req.user!.orgId;
    const team = await teams.createTeam(by(req), orgId, { name: fields.name, email: fields.email });
    // As the anchor: a user who creates a team becomes its Admin.
    const creator = req.user!.identity.startsWith('user:') ? await users.userById(req.user!.userId) : undefined;
    if (creator) await teams.setMember(by(req), orgId, team, creator, 'Admin');
    res.json({ message: 'Team created', teamId: team.id, uid: team.uid });
  });

  router.get('/api/teams/search', async (req, res) => {
    await requireAccess(req, 'teams:read');
    const orgId = req.user!.orgId;
    const perPage = queryInt(req.query.perpage, 1000);
    const page = queryInt(req.query.page, 1);
    const query = queryString(req.query.query).toLowerCase();
    const name = queryString(req.query.name);
    const matching = (await teams.listTeams(orgId)).filter((t) => t.name.toLowerCase().includes(query) && (!name || t.name === name));
    const visible = await req.access!.filter('teams:read', matching, (t) => teamScope(t.id));
    const memberships = await teams.allMemberships(orgId);
    const mine = req.user!.identity.slice('user:'.length);
    const teamsOnPage = [];
    for (const t of visible.slice((page - 1) * perPage, page * perPage)) {
      const members = memberships.filter((m) => m.teamId === t.id);
      teamsOnPage.push({ ...toTeamDTO(t, members.length, members.find((m) => m.userUid === mine)?.permission), ...(await accessControlOf(req, t)) });
    }
    const result: SearchTeamQueryResult = { totalCount: visible.length, teams: teamsOnPage, page, perPage };
    res.json(result);
  });

  router.get('/api/teams/:teamId', async (req, res) => {
    const team = await teamOf(req, 'teams:read');
    const members = await teams.membersOf(team.orgId, team.id);
    // A service account's numeric id is not a user's: it is no member, whoever has the same number.
    const me = isServiceAccount(req.user!) ? undefined : members.find((m) => m.userId === req.user!.userId);
    res.json({ ...toTeamDTO(team, members.length, me?.permission), ...(await accessControlOf(req, team)) });
  });

  router.put('/api/teams/:teamId', async (req, res) => {
    const team = await teamOf(req, 'teams:write');
    const fields = fromTeamCommand(object(req.body));
    if (!fields) throw bad('bad request data');
    await teams.updateTeam(by(req), team, fields);
    res.json({ message: 'Team updated' });
  });

  router.delete('/api/teams/:teamId', async (req, res) => {
    const team = await teamOf(req, 'teams:delete', () => new StatusError(404, 'NotFound', 'Failed to delete Team. ID not found'));
    await teams.deleteTeam(by(req), team);
    res.json({ message: 'Team deleted' });
  });

  router.get('/api/teams/:teamId/members', async (req, res) => {
    const team = await teamOf(req, 'teams.permissions:read');
    const out = [];
    for (const m of await teams.membersOf(team.orgId, team.id)) {
      const user = await users.userById(m.userId);
      if (user) out.push(toTeamMemberDTO(m, user));
    }
    res.json(out);
  });

  router.post('/api/teams/:teamId/members', async (req, res) => {
    const team = await teamOf(req, 'teams.permissions:write');
    const userId = object(req.body).userId;
    if (typeof userId !== 'number' || !Number.isSafeInteger(userId) || userId < 1) throw bad('bad request data');
    const user = await orgUser(req, userId);
    if (await teams.memberOf(team.orgId, team.id, user.id)) throw bad('User is already added to this team');
    await teams.setMember(by(req), team.orgId, team, user, 'Member');
    res.json({ message: 'Member added to Team' });
  });

  /** The anchor's bulk form: these emails become exactly the team's members and admins (admins win over members). */
  router.put('/api/teams/:teamId/members', async (req, res) => {
    const team = await teamOf(req, 'teams.permissions:write');
    const wanted = fromSetTeamMembershipsCommand(object(req.body));
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
  });

  router.put('/api/teams/:teamId/members/:userId', async (req, res) => {
    const team = await teamOf(req, 'teams.permissions:write');
    const userId = idParam(req, 'userId');
    const permission = parseTeamPermission(object(req.body).permission);
    if (!permission) throw bad('bad request data');
    if (!(await teams.memberOf(team.orgId, team.id, userId))) throw new StatusError(404, 'NotFound', 'Team member not found.');
    await teams.setMember(by(req), team.orgId, team, await orgUser(req, userId), permission);
    res.json({ message: 'Team member updated' });
  });

  router.delete('/api/teams/:teamId/members/:userId', async (req, res) => {
    const team = await teamOf(req, 'teams.permissions:write');
    const userId = idParam(req, 'userId');
    await teams.removeMember(by(req), team.orgId, team.id, userId);
    res.json({ message: 'Team Member removed' });
  });

  return router;
}
