import type { Request } from 'express';
import type { Strategy } from 'passport';
import { strategyOf } from './authenticate';
import { type Identity, identityOf } from './basic-auth';
import { cookieOf } from './cookies';
import type { IdentityDirectory } from '../identity/identity-directory';
import type { OrgRole } from '../authorization/permissions';
import type { SessionStore } from './sessions';

export interface SessionAuthOptions {
  users: IdentityDirectory;
  sessions: SessionStore;
  /** `[auth] login_cookie_name`. */
  cookieName: string;
  ready?: () => Promise<void>;
}

/**
 * The session cookie strategy: the cookie's live session signs its user in (unless the user was disabled or
 * deleted meanwhile). Requests without the cookie are left to the next strategy.
 *
 * @example
 *   authenticate({ session: sessionStrategy({ users, sessions, cookieName: 'svc_session' }), basic: basicStrategy(opts) });
 */
export function sessionStrategy(opts: SessionAuthOptions): Strategy {
  return strategyOf('session', async (req) => {
    const token = cookieOf(req, opts.cookieName);
    if (!token) return undefined;
    await opts.ready?.();
    const record = await opts.sessions.lookup(token);
    const user = record && (await opts.users.userById(record.userId));
    if (!record || !user || user.isDisabled) return undefined;
    return { ...identityOf(user), authTokenId: record.id };
  });
}

export interface AnonymousAuthOptions {
  users: IdentityDirectory;
  /** `[auth.anonymous] org_name`: the organization anonymous callers see. */
  orgName: string;
  /** `[auth.anonymous] org_role`. */
  orgRole: OrgRole;
  /** A request presenting this cookie is not anonymous, even when its session is gone: it must sign in again. */
  cookieName: string;
  ready?: () => Promise<void>;
}

/** Whether a request presents credentials of any kind (then it is never treated as anonymous). */
function presentsCredentials(req: Request, cookieName: string): boolean {
  return req.get('authorization') !== undefined || cookieOf(req, cookieName) !== undefined;
}

/**
 * Anonymous access (`[auth.anonymous] enabled`): a request without credentials acts as `anonymous:<orgId>`, with
 * the configured role in the configured organization and nothing else. Wrong credentials stay a 401. When the
 * organization does not exist, nobody is anonymous.
 *
 * @example
 *   authenticate({ ..., anonymous: anonymousStrategy({ users, orgName: 'Main Org.', orgRole: 'Viewer', cookieName }) });
 */
export function anonymousStrategy(opts: AnonymousAuthOptions): Strategy {
  const wanted = opts.orgName.trim().toLowerCase();
  return strategyOf('anonymous', async (req): Promise<Identity | undefined> => {
    if (presentsCredentials(req, opts.cookieName)) return undefined;
    await opts.ready?.();
    const org = (await opts.users.listOrgs()).find((o) => o.name.trim().toLowerCase() === wanted);
    if (!org) return undefined;
    return { identity: `anonymous:${org.id}`, login: 'anonymous', userId: 0, orgId: org.id, isServerAdmin: false, orgRole: opts.orgRole };
  });
}
