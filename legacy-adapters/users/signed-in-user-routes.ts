import type { Request, Response } from 'express';
import { verifyPassword } from '../../pkg/auth/identity/password';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, bodyObject } from '../shared';
import { loginConflict, teamsOfUser } from './user-by-id-routes';
import { parseUpdateUserCommand } from './users-conversions';

/**
 * The signed-in user's own account (`/api/user/...`): a user only (the route guard refuses service accounts and
 * anonymous visitors with the anchor's 403), acting on itself.
 */

/** The anchor's minimum password length for local users. */
const MIN_PASSWORD = 4;
/** Help flags are one int64 of bits in the anchor; JavaScript numbers hold 53 of them exactly. */
const MAX_HELP_FLAG = Number.MAX_SAFE_INTEGER;

const by = (req: Request) => ({ identity: req.user!.identity });

async function me(req: Request, { users }: AdapterDeps) {
  const user = await users.userById(req.user!.userId);
  if (!user) throw new StatusError(404, 'NotFound', 'user not found');
  return user;
}

export async function updateSignedInUser(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const change = parseUpdateUserCommand(req.body);
  const user = await me(req, deps);
  await deps.users.updateUser(by(req), user.id, (spec) => ({ ...spec, ...change })).catch(loginConflict);
  res.json({ message: 'User updated' });
}

/** `PUT /api/user/password`: the old password must match (401 otherwise, as the anchor), the new one be long enough. */
export async function changeUserPassword(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const b = bodyObject(req);
  if (typeof b.oldPassword !== 'string' || typeof b.newPassword !== 'string') throw StatusError.badRequest('bad request data');
  const user = await me(req, deps);
  const hash = await deps.users.passwordHashOf(user.id);
  if (!hash || !(await verifyPassword(b.oldPassword, hash))) throw new StatusError(401, 'Unauthorized', 'Invalid old password');
  if (b.newPassword.length < MIN_PASSWORD) throw StatusError.badRequest('New password is too short');
  await deps.users.setPassword(by(req), user.id, b.newPassword);
  res.json({ message: 'User password changed' });
}

export async function getSignedInUserTeamList(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const user = await me(req, deps);
  res.json(await teamsOfUser(deps.teams, req.user!.orgId, user.uid));
}

/** `PUT /api/user/helpflags/:id`: sets the bits of `id` (the anchor's AddFlag), answers the flags. */
export async function setHelpFlag(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const raw = String(req.params.id ?? '');
  const flag = /^[0-9]{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(flag) || flag > MAX_HELP_FLAG) throw StatusError.badRequest('Invalid flag id');
  const user = await me(req, deps);
  const updated = await deps.users.updateUser(by(req), user.id, (spec) => ({ ...spec, helpFlags1: orBits(spec.helpFlags1 ?? 0, flag) }));
  res.json({ message: 'Help flag set', helpFlags1: updated.helpFlags1 ?? 0 });
}

export async function clearHelpFlags(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const user = await me(req, deps);
  await deps.users.updateUser(by(req), user.id, (spec) => ({ ...spec, helpFlags1: 0 }));
  res.json({ message: 'Help flag set', helpFlags1: 0 });
}

/** `a | b` over 53 bits (JavaScript's `|` keeps 32). @example orBits(2 ** 40, 1) // 2 ** 40 + 1 */
export function orBits(a: number, b: number): number {
  return Number(BigInt(a) | BigInt(b));
}
