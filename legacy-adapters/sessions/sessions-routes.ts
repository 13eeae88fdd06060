import type { Request, Response } from 'express';
import { cookieOf } from '../../pkg/auth/authentication/cookies';
import { normaliseIp } from '../../pkg/auth/authentication/login-throttle';
import type { Config } from '../../pkg/config';
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

/** The session cookie's attributes, and where a signed-in browser goes (the path of `server.root_url`). */
function cookieOptions(config: Config) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: config.server.protocol === 'https' };
}
const redirectUrl = (config: Config) => new URL(config.server.root_url).pathname;

export async function login(req: Request, res: Response, { config, passwordCheck, sessions, lastSeen }: AdapterDeps): Promise<void> {
  const cmd = fromLoginBody(req.body);
  if (!cmd) throw new StatusError(400, 'BadRequest', 'bad login data');
  const user = cmd.user.trim() && cmd.password ? await passwordCheck(cmd.user.trim(), cmd.password, req.ip ?? '') : undefined;
  if (!user) throw new StatusError(401, 'Unauthorized', INVALID_LOGIN);
  // `::ffff:192.0.2.1` (IPv4 on a dual-stack socket) is shown as the client's IPv4 address.
  const { token } = await sessions.create(user.id, normaliseIp(req.ip ?? ''), req.get('user-agent'), { identity: `user:${user.uid}` });
  try {
    res.cookie(config.auth.login_cookie_name, token, { ...cookieOptions(config), maxAge: config.auth.login_maximum_lifetime_duration });
  } catch (err) {
    // A session no client holds would only clutter the user's list until it expires.
    await sessions.end(token);
    throw err;
  }
  await lastSeen.seen(user.uid);
  res.json({ message: 'Logged in', redirectUrl: redirectUrl(config) });
}

export async function logout(req: Request, res: Response, { config, sessions }: AdapterDeps): Promise<void> {
  const token = cookieOf(req, config.auth.login_cookie_name);
  if (token) await sessions.end(token);
  res.clearCookie(config.auth.login_cookie_name, cookieOptions(config));
  res.redirect(302, `${redirectUrl(config).replace(/\/$/, '')}/login`);
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
