import type { Request, Response } from 'express';
import type { StoredUser } from '../../pkg/auth/identity/identity-directory';
import type { TeamDirectory } from '../../pkg/auth/identity/team-directory';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, idParam } from '../shared';
import { toTeamDTO, type TeamDTO } from '../teams/teams-conversions';
import { parseUpdateUserCommand, toUserOrgDTO, toUserProfileDTO } from './users-conversions';

/**
 * A user by its id (`/api/users/:id`, the anchor's `users:read`/`users:write` on `global.users:id:<id>`: server
 * admins), and the teams of a user, which `GET /api/user/teams` shares.
 */

const userNotFound = () => new StatusError(404, 'NotFound', 'user not found');
const by = (req: Request) => ({ identity: req.user!.identity });

/** The user of the path's `:id`, else 400 "id is invalid" or 404 "user not found". */
async function userOfPath(req: Request, { users }: AdapterDeps): Promise<StoredUser> {
  const user = await users.userById(idParam(req, 'id'));
  if (!user) throw userNotFound();
  return user;
}

/**
 * The teams of `userUid` in `orgId` as TeamDTOs, with the user's permission in each, by name: three reads (the
 * user's memberships, those teams, their memberships to count), however many teams.
 */
export async function teamsOfUser(teams: TeamDirectory, orgId: number, userUid: string): Promise<TeamDTO[]> {
  const mine = await teams.membershipsOf(orgId, userUid);
  const found = await teams.teamsByUid(orgId, mine.map((m) => m.teamUid));
  const members = await teams.membershipsOfTeams(orgId, found.map((t) => t.id));
  const out = found.flatMap((team) => {
    const m = mine.find((x) => x.teamId === team.id);
    return m ? [toTeamDTO(team, members.filter((x) => x.teamId === team.id).length, m.permission)] : [];
  });
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

export async function getUserByID(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const user = await userOfPath(req, deps);
  res.json(toUserProfileDTO(user, user.orgId));
}

/**
 * `PUT /api/users/:id`: login, email and name (a blank login takes the email, as the anchor); a login or email
 * another user holds is 409, and nothing changes.
 */
export async function updateUser(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const current = await userOfPath(req, deps);
  const change = parseUpdateUserCommand(req.body);
  await deps.users.updateUser(by(req), current.id, (spec) => ({ ...spec, ...change })).catch(loginConflict);
  res.json({ message: 'User updated' });
}

/** The user kind's unique login/email refusal, in the anchor's words for an update. */
export function loginConflict(err: unknown): never {
  if (err instanceof StatusError && err.code === 412) throw new StatusError(409, 'Conflict', 'Update would result in user login conflict');
  throw err;
}

export async function getUserOrgList(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const user = await userOfPath(req, deps);
  res.json((await deps.users.orgsOf(user.id)).map(toUserOrgDTO));
}

/** The user's teams in the organization the request acts in, as the anchor lists them. */
export async function getUserTeams(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const user = await userOfPath(req, deps);
  res.json(await teamsOfUser(deps.teams, req.user!.orgId, user.uid));
}
