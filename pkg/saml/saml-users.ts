import { randomBytes } from 'node:crypto';
import type { OrgRole } from '../../apis/iam.svc.app/v0alpha1/orgmember/orgmember-schema';
import type { IdentityDirectory, StoredUser } from '../auth/identity/identity-directory';
import { StatusError } from '../errors';
import type { Logger } from '../log';
import type { Requester } from '../registry';
import type { SamlIdentity } from './saml-identity';

/** Who SAML sign-ins write as (createdBy/updatedBy). */
export const SAML_REQUESTER: Requester = { identity: 'service:saml' };

/** The anchor's refusal of a first login when `allow_sign_up` is false (user sync's errUserSignupDisabled). */
export const signUpDisabled = () => new StatusError(401, 'Unauthorized', 'Sign up is disabled');
const userDisabled = () => new StatusError(401, 'Unauthorized', 'User is disabled');

export interface SyncOptions {
  allowSignUp: boolean;
  skipOrgRoleSync: boolean;
  /** The org and role a user gets when the assertion maps none: org 1 with `users.auto_assign_org_role`. */
  defaultOrgId: number;
  defaultRole: OrgRole;
  log: Logger;
}

/**
 * The stored user a SAML identity signs in as, as the anchor's user sync: found by email, else by login; created
 * when there is none and sign-up is allowed (a random password it never learns), else 401 "Sign up is disabled".
 * A found user's login, email and name follow the assertion, and (unless `skip_org_role_sync`) its org roles and
 * server-admin flag where the assertion decides them; a change another user's login or email forbids, or that
 * would remove the last server admin, is left out (logged), not failed.
 */
export async function syncSamlUser(users: IdentityDirectory, id: SamlIdentity, opts: SyncOptions): Promise<StoredUser> {
  const found = (id.email !== '' ? await users.userByLoginOrEmail(id.email) : undefined) ?? (await users.userByLoginOrEmail(id.login));
  const roles = id.orgRoles.size > 0 ? id.orgRoles : new Map([[opts.defaultOrgId, opts.defaultRole]]);
  if (!found) {
    if (!opts.allowSignUp) throw signUpDisabled();
    const existing = new Map<number, OrgRole>();
    for (const [orgId, role] of roles) if (await users.orgById(orgId)) existing.set(orgId, role);
    const [home] = existing.keys();
    const orgId = home ?? opts.defaultOrgId;
    const created = await users.createUser(
      SAML_REQUESTER,
      { login: id.login, email: id.email, name: id.name, password: randomBytes(32).toString('base64url'), isSvcAdmin: id.isSvcAdmin ?? false, orgId },
      existing.get(orgId) ?? opts.defaultRole,
    );
    for (const [other, role] of existing) if (other !== orgId) await users.setRole(SAML_REQUESTER, other, created.id, role);
    return created;
  }
  if (found.isDisabled) throw userDisabled();
  let user = found;
  const changed = (id.login !== user.login && id.login !== '') || (id.email !== '' && id.email !== user.email) || (id.name !== '' && id.name !== user.name);
  const admin = !opts.skipOrgRoleSync && id.isSvcAdmin !== undefined && id.isSvcAdmin !== user.isSvcAdmin;
  if (changed || admin) {
    try {
      user = await users.updateUser(SAML_REQUESTER, user.id, (spec) => ({
        ...spec,
        login: id.login || spec.login,
        email: id.email || spec.email,
        name: id.name || spec.name,
        ...(admin ? { isSvcAdmin: id.isSvcAdmin! } : {}),
      }));
    } catch (err) {
      if (!(err instanceof StatusError) || err.code >= 500) throw err;
      opts.log.warn('SAML login: the user was not updated from the assertion', { user: user.uid, error: err.message });
    }
  }
  if (!opts.skipOrgRoleSync && id.orgRoles.size > 0) {
    for (const [orgId, role] of id.orgRoles) {
      if (!(await users.orgById(orgId))) continue;
      if ((await users.roleOf(orgId, user.id)) !== role) await users.setRole(SAML_REQUESTER, orgId, user.id, role);
    }
  }
  return user;
}
