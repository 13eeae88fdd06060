import type { Request, Response } from 'express';
import type { Config } from '../../config';
import type { StoredUser } from '../identity/identity-directory';
import { cookieOf } from './cookies';
import type { LastSeenTracker } from './last-seen';
import { normaliseIp } from './login-throttle';
import type { AuthTokenRecord, ExternalSession, SessionStore } from './sessions';

/** What signing a browser in and out needs: the configuration (cookie name, lifetime), the sessions, activity. */
export interface LoginSessionDeps {
  config: Config;
  sessions: SessionStore;
  lastSeen: LastSeenTracker;
}

/** The session cookie's attributes. */
function cookieOptions(config: Config) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: config.server.protocol === 'https' };
}

/** Where a signed-in browser goes: the path of `server.root_url`. */
export const homePath = (config: Config): string => new URL(config.server.root_url).pathname;

/** The login page: `<root path>login`. */
export const loginPath = (config: Config): string => `${homePath(config).replace(/\/$/, '')}/login`;

/**
 * Signs the browser of `req` in as `user`: a session starts and its secret goes into the HttpOnly session cookie
 * of `res`, and the user's activity is recorded. Every way of signing in with a browser (the login form, a SAML
 * login) goes through here, so their sessions are alike.
 *
 * @example
 *   await signIn(req, res, deps, user);
 *   res.json({ message: 'Logged in', redirectUrl: homePath(deps.config) });
 */
export async function signIn(req: Request, res: Response, { config, sessions, lastSeen }: LoginSessionDeps, user: Pick<StoredUser, 'id' | 'uid'>, external?: ExternalSession): Promise<void> {
  // `::ffff:192.0.2.1` (IPv4 on a dual-stack socket) is shown as the client's IPv4 address.
  const { token } = await sessions.create(user.id, normaliseIp(req.ip ?? ''), req.get('user-agent'), { identity: `user:${user.uid}` }, external);
  try {
    res.cookie(config.auth.login_cookie_name, token, { ...cookieOptions(config), maxAge: config.auth.login_maximum_lifetime_duration });
  } catch (err) {
    // A session no client holds would only clutter the user's list until it expires.
    await sessions.end(token);
    throw err;
  }
  await lastSeen.seen(user.uid);
}

/**
 * Signs the browser of `req` out: the session of its cookie ends and the cookie is cleared. Returns the session as
 * it was stored (a SAML logout goes on to the identity provider with its external session), if there was one.
 */
export async function signOut(req: Request, res: Response, { config, sessions }: Pick<LoginSessionDeps, 'config' | 'sessions'>): Promise<AuthTokenRecord | undefined> {
  const token = cookieOf(req, config.auth.login_cookie_name);
  const record = token ? await sessions.peek(token) : undefined;
  if (token) await sessions.end(token);
  clearSessionCookie(res, config);
  return record;
}

/** Clears the session cookie of the browser (its session was ended otherwise: an identity provider's logout). */
export function clearSessionCookie(res: Response, config: Config): void {
  res.clearCookie(config.auth.login_cookie_name, cookieOptions(config));
}
