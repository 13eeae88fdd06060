import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { MAX_GROUP_ID_LENGTH, TEAM_GROUP_TEAM_LABEL, teamGroupKind, type TeamGroupSpec } from '../../apis/iam.svc.app/v0alpha1/teamgroup';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import type { StoredTeam } from '../../pkg/auth/identity/team-directory';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, positiveQueryInt, queryString } from '../shared';
import { teamOfPath } from '../teams/teams-routes';

/** The anchor's TeamGroupDTO. */
export interface TeamGroupDTO {
  orgId: number;
  teamId: number;
  groupId: string;
}

const KIND = teamGroupKind;

/**
 * The object name of a team's group: the team id and 96 bits of a digest of the group id (any text: a DN has commas
 * and spaces; names are at most 40 characters), so a group is mapped to a team at most once and a second add finds
 * the first.
 */
function teamGroupName(teamId: number, groupId: string): string {
  return `${teamId}-${createHash('sha256').update(groupId).digest('hex').slice(0, 24)}`;
}
const groupNotFound = () => new StatusError(404, 'NotFound', 'Group not found');
const by = (req: Request) => ({ identity: req.user!.identity });

/** A group id as sent: a non-empty string of at most the kind's length, else undefined. */
function groupIdOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_GROUP_ID_LENGTH ? value : undefined;
}

/** The team's groups, in group id order. */
async function groupsOf(deps: AdapterDeps, team: StoredTeam): Promise<TeamGroupDTO[]> {
  const { items } = await deps.users.registry.list(deps.users.inOrg(SYSTEM, team.orgId), KIND, { labelSelector: `${TEAM_GROUP_TEAM_LABEL}=${team.id}` });
  return items
    .map(({ spec: s }) => ({ orgId: team.orgId, teamId: s.teamId, groupId: s.groupId }))
    .sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));
}

/** GET /api/teams/:teamId/groups: the team's external groups (teams.permissions:read on the team). */
export async function getTeamGroups(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const team = await teamOfPath(deps.teams, req, 'teams.permissions:read');
  res.json(await groupsOf(deps, team));
}

/**
 * POST /api/teams/:teamId/groups `{groupId}`: maps an external group to the team (teams.permissions:write). The
 * object's name is derived from the pair, so of two adds of one group exactly one stores it; the other is the anchor's
 * 400.
 */
export async function addTeamGroup(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const team = await teamOfPath(deps.teams, req, 'teams.permissions:write');
  const body: unknown = req.body;
  const groupId = body && typeof body === 'object' && !Array.isArray(body) ? groupIdOf((body as Record<string, unknown>).groupId) : undefined;
  if (groupId === undefined) throw StatusError.badRequest('bad request data');
  const name = teamGroupName(team.id, groupId);
  const spec: TeamGroupSpec = { teamId: team.id, groupId };
  try {
    await deps.users.registry.create(deps.users.inOrg(by(req), team.orgId), KIND, { metadata: { name, labels: { [TEAM_GROUP_TEAM_LABEL]: String(team.id) } }, spec });
  } catch (err) {
    if (err instanceof StatusError && err.code === 409) throw StatusError.badRequest('Group is already added to this team');
    throw err;
  }
  res.json({ message: 'Group added to Team' });
}

/** DELETE /api/teams/:teamId/groups?groupId=<url-encoded>: removes the mapping (teams.permissions:write). */
export async function removeTeamGroup(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const team = await teamOfPath(deps.teams, req, 'teams.permissions:write');
  const groupId = groupIdOf(queryString(req.query.groupId));
  if (groupId === undefined) throw StatusError.badRequest('groupId is required');
  try {
    await deps.users.registry.delete(deps.users.inOrg(by(req), team.orgId), KIND, teamGroupName(team.id, groupId));
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) throw groupNotFound();
    throw err;
  }
  res.json({ message: 'Team Group removed' });
}

/**
 * GET /api/teams/:teamId/groups/search?name=&query=&page=&perpage=: the team's groups whose id is `name` (exactly)
 * and holds `query` (case-insensitively), a page of them; one of `name` and `query` must be given (400).
 */
export async function searchTeamGroups(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const team = await teamOfPath(deps.teams, req, 'teams.permissions:read');
  const name = queryString(req.query.name);
  const query = queryString(req.query.query);
  if (name === undefined && query === undefined) throw StatusError.badRequest('query or name is required');
  const page = positiveQueryInt(req.query.page, 1);
  const perPage = Math.min(positiveQueryInt(req.query.perpage, 1000), 1000);
  const needle = (query ?? '').toLowerCase();
  const matching = (await groupsOf(deps, team)).filter((g) => (!name || g.groupId === name) && g.groupId.toLowerCase().includes(needle));
  res.json([{ totalCount: matching.length, teamGroups: matching.slice((page - 1) * perPage, page * perPage), page, perPage }]);
}
