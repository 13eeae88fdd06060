import type { Request, Response } from 'express';
import { homePath, loginPath, signIn, signOut } from '../../pkg/auth/authentication/login-session';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, idParam } from '../shared';
import { fromLoginBody, fromRevokeAuthTokenBody, toUserTokenDTO } from './sessions-conversions';

/**
 * The login form of a frontend and the session (auth token) endpoints of spec §4.11. A refused login is 401
 * "Invalid username or password" whether the password was wrong, the user unknown or disabled, or the login
 * throttled, as the anchor answers, so the answer tells an attacker nothing. The session of the request itself
 * cannot be revoked through the token endpoints (400, as the anchor): `GET /logout` ends it.
 */

const INVALID_LOGIN = 'Invalid username or password';
const userNotFound = () => new StatusError(404, 'NotFound', 'User not found');
const tokenNotFound = () => new StatusError(404, 'NotFound', 'User auth token not found');

export async function login(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { config, passwordCheck } = deps;
  const cmd = fromLoginBody(req.body);
  if (!cmd) throw new StatusError(400, 'BadRequest', 'bad login data');
  const user = cmd.user.trim() && cmd.password ? await passwordCheck(cmd.user.trim(), cmd.password, req.ip ?? '') : undefined;
  if (!user) throw new StatusError(401, 'Unauthorized', INVALID_LOGIN);
  await signIn(req, res, deps, user);
  res.json({ message: 'Logged in', redirectUrl: homePath(config) });
}

export async function logout(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  await signOut(req, res, deps);
  res.redirect(302, loginPath(deps.config));
}

async function existingUser({ users }: AdapterDeps, id: number): Promise<number> {
  if (!(await users.userById(id))) throw userNotFound();
  return id;
}

async function list(req: Request, res: Response, deps: AdapterDeps, userId: number): Promise<void> {
  const records = await deps.sessions.listOf(await existingUser(deps, userId));
  res.json(records.map((r) => toUserTokenDTO(r, req.user!.authTokenId)));
}

async function revoke(req: Request, res: Response, deps: AdapterDeps, userId: number): Promise<void> {
  const cmd = fromRevokeAuthTokenBody(req.body);
  if (!cmd) throw StatusError.badRequest('bad request data');
  await existingUser(deps, userId);
  if (cmd.authTokenId === req.user!.authTokenId) throw StatusError.badRequest('Cannot revoke active user auth token');
  if (!(await deps.sessions.revoke({ identity: req.user!.identity }, userId, cmd.authTokenId))) throw tokenNotFound();
  res.json({ message: 'User auth token revoked' });
}

export const getUserAuthTokens = (req: Request, res: Response, deps: AdapterDeps) => list(req, res, deps, req.user!.userId);
export const revokeUserAuthToken = (req: Request, res: Response, deps: AdapterDeps) => revoke(req, res, deps, req.user!.userId);
export const adminGetUserAuthTokens = (req: Request, res: Response, deps: AdapterDeps) => list(req, res, deps, idParam(req, 'id'));
export const adminRevokeUserAuthToken = (req: Request, res: Response, deps: AdapterDeps) => revoke(req, res, deps, idParam(req, 'id'));

export async function adminLogoutUser(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = idParam(req, 'id');
  if (id === req.user!.userId) throw StatusError.badRequest('You cannot logout yourself');
  await deps.sessions.revokeAll({ identity: req.user!.identity }, await existingUser(deps, id));
  res.json({ message: 'User logged out' });
}
