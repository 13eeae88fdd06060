import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { authTokenKind, orgKind, orgMemberKind, serviceAccountKind, serviceAccountTokenKind, teamBindingKind, teamKind, userKind } from '../../../apis';
import { StatusError } from '../../errors';
import { anyKind, type KindRegistration } from '../../meta';
import type { AccessControl } from '../authorization/access-control';
import { type Identity, identityOf, type PasswordCheck } from './basic-auth';
import { cookieOf } from './cookies';
import type { IdentityDirectory } from '../identity/identity-directory';
import { isAnonymous, isServiceAccount, roleInOrg } from '../authorization/org-access';
import type { OrgRole, Subject } from '../authorization/permissions';
import type { ServiceAccounts } from '../identity/service-accounts';
import type { SessionStore } from './sessions';

export interface CallerCheckOptions {
  users: IdentityDirectory;
  accounts: ServiceAccounts;
  access: AccessControl;
  /** Session cookies, when the edition takes them. */
  sessions?: { store: SessionStore; cookieName: string };
  /** Basic credentials, when the edition takes them. */
  password?: PasswordCheck;
}

/** Every kind whose change may change who a credential signs in, or as what: versions of these gate re-checks. */
const IDENTITY_KINDS: readonly KindRegistration[] = [
  anyKind(userKind),
  anyKind(orgKind),
  anyKind(orgMemberKind),
  anyKind(teamKind),
  anyKind(teamBindingKind),
  anyKind(serviceAccountKind),
  anyKind(serviceAccountTokenKind),
  anyKind(authTokenKind),
];

/**
 * Whether the credential an open request came with still signs in the same caller, as it would now (a token revoked
 * or expired, a service account disabled, a session ended, a password changed, a user deleted, a role or team
 * changed): what open watches ask, since they outlive the checks of their start (see pkg/server/watch-credentials).
 * The credential is checked the way a new request's is (the same stores, the same login throttle), by the kind of
 * caller it signed in: a service account by its bearer token, a user by its session cookie or basic credentials.
 *
 * @example
 *   const check = new CallerCheck({ users, accounts, access, sessions: { store: sessions, cookieName }, password });
 *   const ended = await check.recheck(req); // undefined while nothing changed; else the Status ending its watches
 */
export class CallerCheck {
  private readonly baselines = new WeakMap<Request, Promise<string>>();

  constructor(private readonly opts: CallerCheckOptions) {}

  /** Requests that share it get the same answer: one re-check serves all the watches of one caller. */
  keyOf(req: Request): string | undefined {
    const user = req.user;
    if (!user) return undefined;
    const session = this.opts.sessions ? (cookieOf(req, this.opts.sessions.cookieName) ?? '') : '';
    // A watch across namespaces is checked against all of the caller's organizations, not the one it signed in to.
    const across = req.orgMemberships ? 'across' : '';
    return createHash('sha256').update([user.identity, user.orgId, user.orgRole, req.get('authorization') ?? '', session, across].join('\u0000')).digest('hex');
  }

  /** Changes whenever identity data may have changed (one cheap version read per identity kind). */
  async version(): Promise<string> {
    const { registry } = this.opts.users;
    const versions = await Promise.all(IDENTITY_KINDS.map((k) => registry.versions(k)));
    return versions.map((v) => v.current).join('.');
  }

  /**
   * Undefined while the request's credential signs in the same caller with the same rights in its org; else why
   * its watches end: 401 when the credential no longer signs anyone in, 403 when the caller left the org, 410
   * Expired when its role or teams changed (a client lists again, with what it may now see). A watch across
   * namespaces ends with 410 Expired when the caller's organizations, or its rights in any, changed.
   */
  async recheck(req: Request): Promise<StatusError | undefined> {
    const before = req.user;
    if (!before) return undefined;
    const baseline = this.begin(req);
    const now = await this.identify(req, before);
    if (now === null) return undefined; // a caller this server cannot check again (a fixed test administrator)
    if (!now || now.identity !== before.identity) return StatusError.unauthorized();
    if (req.orgMemberships) {
      // A watch across namespaces (apisOrgAccess noted its memberships) shows every organization of the caller, each
      // with its rights there: one joined or left, or a role or teams changed in any, changes what it may see.
      if ((await this.organizations(now)) !== (await baseline)) return StatusError.expired(`the organizations of ${before.login} changed: list again`);
      return undefined;
    }
    const role = await roleInOrg(this.opts.users, now, before.orgId);
    if (!role) {
      // A user's deletion takes its memberships in the same transaction, but the user and the membership were read
      // in two statements: the first may have seen the user before that commit, the second its membership after.
      // Signing in again tells a deleted user (401) from one removed from the organization (403).
      const again = await this.identify(req, before);
      if (!again || again.identity !== before.identity) return StatusError.unauthorized();
      return new StatusError(403, 'Forbidden', `${before.login} is no longer a member of organization ${before.orgId}`);
    }
    const subject = fingerprint(await this.opts.access.subjectOf({ ...now, orgId: before.orgId, orgRole: role }));
    if (subject !== (await baseline)) return StatusError.expired(`the permissions of ${before.login} changed: list again`);
    return undefined;
  }

  /** Notes the rights the request started with (its teams are read now), which later re-checks compare against. */
  begin(req: Request): Promise<string> {
    let p = this.baselines.get(req);
    if (!p && req.user) {
      // Across namespaces: the memberships the request was authorized with, not as they are by now.
      p = req.orgMemberships ? this.organizations(req.user, req.orgMemberships) : this.opts.access.subjectOf(req.user).then(fingerprint);
      p.catch(() => this.baselines.delete(req));
      this.baselines.set(req, p);
    }
    return p ?? Promise.resolve('');
  }

  /**
   * The caller's rights in each of its organizations (`memberships`, else as they are now: a user's memberships, a
   * service account's one org), as one string.
   */
  private async organizations(user: Identity, memberships?: readonly { orgId: number; role: OrgRole }[]): Promise<string> {
    const orgs = memberships
      ? [...memberships]
      : isServiceAccount(user) || isAnonymous(user)
        ? user.orgRole
          ? [{ orgId: user.orgId, role: user.orgRole }]
          : []
        : (await this.opts.users.orgsOf(user.userId)).map((m) => ({ orgId: m.org.id, role: m.role }));
    orgs.sort((a, b) => a.orgId - b.orgId);
    const subjects = await Promise.all(orgs.map((m) => this.opts.access.subjectOf({ ...user, orgId: m.orgId, orgRole: m.role })));
    return JSON.stringify(subjects.map(fingerprint));
  }

  /** The identity the request's credential signs in now; undefined: nobody; null: not checkable. */
  private async identify(req: Request, before: Identity): Promise<Identity | undefined | null> {
    if (isAnonymous(before)) return before;
    if (isServiceAccount(before)) {
      const key = /^bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
      return key ? this.opts.accounts.authenticate(key) : undefined;
    }
    if (before.authTokenId !== undefined) {
      const sessions = this.opts.sessions;
      const token = sessions && cookieOf(req, sessions.cookieName);
      const record = token ? await sessions.store.lookup(token) : undefined;
      const user = record && (await this.opts.users.userById(record.userId));
      return record && user && !user.isDisabled ? { ...identityOf(user), authTokenId: record.id } : undefined;
    }
    const basic = /^basic\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '')?.[1];
    if (!basic || !this.opts.password) return null;
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    const user = await this.opts.password(decoded.slice(0, colon), decoded.slice(colon + 1), req.ip ?? '');
    return user && identityOf(user);
  }
}

/** What decides a caller's rights in an org, as one comparable string. */
function fingerprint(s: Subject): string {
  return JSON.stringify([s.kind, s.uid, s.orgId, s.orgRole, s.isServerAdmin, [...s.teamUids].sort()]);
}
