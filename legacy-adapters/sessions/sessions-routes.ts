import { type Request, type Response, Router } from 'express';
import type { PasswordCheck } from '../../pkg/auth/basic-auth';
import { cookieOf } from '../../pkg/auth/cookies';
import type { IdentityDirectory } from '../../pkg/auth/identity-directory';
import { normaliseIp } from '../../pkg/auth/login-throttle';
import type { LastSeenTracker } from '../../pkg/auth/last-seen';
import type { SessionStore } from '../../pkg/auth/sessions';
import { StatusError } from '../../pkg/errors';
import { idParam, requireServerAdmin, requireUser } from '../users/users-routes';
import { fromLoginBody, fromRevokeAuthTokenBody, toUserTokenDTO } from './sessions-conversions';

export interface LoginRouterOptions {
  sessions: SessionStore;
  /** The password check basic authentication uses too: one throttle counts both. */
  check: PasswordCheck;
  cookieName: string;
  /** The session cookie's lifetime (`[auth] login_maximum_lifetime_duration`). */
  maxAgeMs: number;
  /** `Secure` cookies, when the server speaks https. */
  secure: boolean;
  /** Where a signed-in browser goes: the path of `server.root_url`. */
  redirectUrl: string;
  /** A sign-in is activity: the user's `lastSeenAt` moves. */
  lastSeen?: LastSeenTracker;
}

const INVALID_LOGIN = 'Invalid username or password';
const userNotFound = () => new StatusError(404, 'NotFound', 'User not found');
const tokenNotFound = () => new StatusError(404, 'NotFound', 'User auth token not found');
const badRequestData = () => new StatusError(400, 'BadRequest', 'bad request data');

/**
 * The login form of a frontend, outside `/api` and reachable without credentials: `POST /login {user, password}`
 * starts a session (an HttpOnly cookie holding its secret), `GET /logout` ends it. A refused login is 401
 * "Invalid username or password" whether the password was wrong, the user unknown or disabled, or the login
 * throttled, as the anchor answers, so the answer tells an attacker nothing.
 */
export function loginRouter(opts: LoginRouterOptions): Router {
  const router = Router();
  const cookie = { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: opts.secure };

  router.post('/login', async (req, res) => {
    const cmd = fromLoginBody(req.body);
    if (!cmd) throw new StatusError(400, 'BadRequest', 'bad login data');
    const user = cmd.user.trim() && cmd.password ? await opts.check(cmd.user.trim(), cmd.password, req.ip ?? '') : undefined;
    if (!user) throw new StatusError(401, 'Unauthorized', INVALID_LOGIN);
    // `::ffff:192.0.2.1` (IPv4 on a dual-stack socket) is shown as the client's IPv4 address.
    const { token } = await opts.sessions.create(user.id, normaliseIp(req.ip ?? ''), req.get('user-agent'), { identity: `user:${user.uid}` });
    try {
      res.cookie(opts.cookieName, token, { ...cookie, maxAge: opts.maxAgeMs });
    } catch (err) {
      // A session no client holds would only clutter the user's list until it expires.
      await opts.sessions.end(token);
      throw err;
    }
    await opts.lastSeen?.seen(user.uid);
    res.json({ message: 'Logged in', redirectUrl: opts.redirectUrl });
  });

  router.get('/logout', async (req: Request, res: Response) => {
    const token = cookieOf(req, opts.cookieName);
    if (token) await opts.sessions.end(token);
    res.clearCookie(opts.cookieName, cookie);
    res.redirect(302, `${opts.redirectUrl.replace(/\/$/, '')}/login`);
  });

  return router;
}

/** The user endpoints need a signed-in user: service accounts and anonymous visitors have no sessions. */
function signedInUser(req: Request): number {
  requireUser(req);
  return req.user!.userId;
}

/**
 * The session (auth token) endpoints of spec §4.11: a server admin lists, revokes and ends a user's sessions; a
 * signed-in user lists and revokes its own. The session of the request itself cannot be revoked this way (400, as
 * the anchor): `GET /logout` ends it.
 */
export function authTokensRouter(users: IdentityDirectory, sessions: SessionStore): Router {
  const router = Router();

  async function existingUser(id: number): Promise<number> {
    if (!(await users.userById(id))) throw userNotFound();
    return id;
  }

  async function list(req: Request, res: Response, userId: number) {
    const records = await sessions.listOf(await existingUser(userId));
    res.json(records.map((r) => toUserTokenDTO(r, req.user!.authTokenId)));
  }

  async function revoke(req: Request, res: Response, userId: number) {
    const cmd = fromRevokeAuthTokenBody(req.body);
    if (!cmd) throw badRequestData();
    await existingUser(userId);
    if (cmd.authTokenId === req.user!.authTokenId) throw new StatusError(400, 'BadRequest', 'Cannot revoke active user auth token');
    if (!(await sessions.revoke({ identity: req.user!.identity }, userId, cmd.authTokenId))) throw tokenNotFound();
    res.json({ message: 'User auth token revoked' });
  }

  router.get('/api/user/auth-tokens', (req, res) => list(req, res, signedInUser(req)));
  router.post('/api/user/revoke-auth-token', (req, res) => revoke(req, res, signedInUser(req)));

  router.get('/api/admin/users/:id/auth-tokens', (req, res) => {
    requireServerAdmin(req);
    return list(req, res, idParam(req, 'id'));
  });

  router.post('/api/admin/users/:id/revoke-auth-token', (req, res) => {
    requireServerAdmin(req);
    return revoke(req, res, idParam(req, 'id'));
  });

  router.post('/api/admin/users/:id/logout', async (req, res) => {
    requireServerAdmin(req);
    const id = idParam(req, 'id');
    if (id === req.user!.userId) throw new StatusError(400, 'BadRequest', 'You cannot logout yourself');
    await sessions.revokeAll({ identity: req.user!.identity }, await existingUser(id));
    res.json({ message: 'User logged out' });
  });

  return router;
}
