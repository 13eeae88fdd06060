import type { RequestHandler } from 'express';
import { StatusError } from '../../errors';
import { subjectKindOf } from './access-control';
import { permissionDenied } from './authorizer';
import type { Identity } from '../authentication/basic-auth';
import type { KindRegistration } from '../../meta';
import { storedOrgs } from '../../registry/namespaces';
import type { IdentityDirectory } from '../identity/identity-directory';
import { type OrgRole, roleIncludes } from './permissions';

/** The anchor's answer when the caller lacks the org role an endpoint needs: `{message: "Permission denied"}`. */
export const permissionDeniedError = () => new StatusError(403, 'Forbidden', permissionDenied().message);

/** Whether the caller is a service account: it acts in its one org with its own role, never a user membership's. */
export const isServiceAccount = (user: Identity) => subjectKindOf(user.identity) === 'service-account';

/** Whether the caller is an anonymous visitor (`[auth.anonymous]`): the configured role in the configured org only. */
export const isAnonymous = (user: Identity) => subjectKindOf(user.identity) === 'anonymous';

/** Callers whose one org and role come from authentication, not from memberships. */
const hasOneOrg = (user: Identity) => isServiceAccount(user) || isAnonymous(user);

/**
 * A positive org id from `X-Svc-Org-Id`, or undefined when the header is absent or blank. A header that is no org
 * id at all is 400: it names no organization the caller could be refused.
 */
function headerOrgId(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(header.trim())) throw StatusError.badRequest('invalid X-Svc-Org-Id header: expected an organization id');
  return Number(header.trim());
}

/**
 * Legacy API (`/api`): the organization a request acts in. `X-Svc-Org-Id` selects one the caller must be a member
 * of (else 403 "Permission denied"; a header that is no org id, 400); without it, the user's current org, or, when the user was removed from that
 * one, the first org it still belongs to. Server admins are not members of every org (as in the anchor); the
 * admin endpoints do not depend on the org. A service account or an anonymous visitor has its one org and role from
 * authentication; the header may only name that org.
 */
export function selectLegacyOrg(users: IdentityDirectory): RequestHandler {
  return async (req, _res, next) => {
    const user = req.user!;
    const wanted = headerOrgId(req.get('x-svc-org-id'));
    if (hasOneOrg(user)) return next(wanted === undefined || wanted === user.orgId ? undefined : permissionDeniedError());
    if (wanted !== undefined) {
      const role = await users.roleOf(wanted, user.userId);
      if (!role) return next(permissionDeniedError());
      user.orgId = wanted;
      user.orgRole = role;
      return next();
    }
    let role = await users.roleOf(user.orgId, user.userId);
    if (!role) {
      const first = (await users.orgsOf(user.userId))[0];
      if (first) {
        user.orgId = first.org.id;
        role = first.role;
      }
    }
    user.orgRole = role;
    next();
  };
}

/** The caller's role in an org: a user's membership; a service account's or anonymous visitor's own role in its own org only. */
export async function roleInOrg(users: IdentityDirectory, user: Identity, orgId: number): Promise<OrgRole | undefined> {
  if (hasOneOrg(user)) return orgId === user.orgId ? user.orgRole : undefined;
  return users.roleOf(orgId, user.userId);
}

const READ_VERBS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who may act in an `/apis` namespace: members of its organization only (403 Forbidden Status otherwise; server
 * admins need a membership like anyone, the anchor's rule; a service account reaches only its own org). A namespace
 * of no organization is 404 `namespaces "org-7" not found`. Kinds that declare `access` are then authorized per
 * object by the registry (see pkg/registry/access.ts); for the others the org role decides here: Viewer may get,
 * list and watch, Editor and Admin may also write, None nothing.
 */
export function apisOrgAccess(users: IdentityDirectory, kinds: readonly KindRegistration[] = []): RequestHandler {
  const declared = new Set(kinds.filter((k) => k.access).map((k) => `${k.group}/${k.plural}`));
  const orgs = storedOrgs(users);
  const { namespaces } = users.registry;
  return async (req, _res, next) => {
    const across = /^\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(req.path);
    if (across && across[3] !== 'namespaces') {
      // A list across namespaces shows the organizations the caller belongs to (server admins included: like any
      // user, they see an org's objects by a membership), each where its role may list the kind.
      const perObject = declared.has(`${across[1]}/${across[3]}`);
      const user = req.user!;
      const memberships = hasOneOrg(user) ? (user.orgRole ? [{ orgId: user.orgId, role: user.orgRole }] : []) : (await users.orgsOf(user.userId)).map((m) => ({ orgId: m.org.id, role: m.role }));
      req.orgMemberships = memberships;
      req.orgScopes = memberships.filter((m) => perObject || roleIncludes(m.role, 'Viewer'));
      return next();
    }
    const m = /^\/([^/]+)\/([^/]+)\/namespaces\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?/.exec(req.path);
    if (!m) return next();
    const [, group, , namespace, resource = '', name = ''] = m;
    if (namespaces.orgIdOf(namespace) === undefined) return next(); // the router answers its own 404
    const orgId = await namespaces.resolve(namespace, orgs);
    const user = req.user!;
    const role = await roleInOrg(users, user, orgId);
    const gr = { group, resource: resource || 'namespaces' };
    const perObject = declared.has(`${group}/${resource}`);
    if (!role || (role === 'None' && !perObject)) {
      return next(StatusError.forbidden(gr, name, `user is not a member of organization ${orgId}`, user.login));
    }
    const needs: OrgRole = READ_VERBS.has(req.method) ? 'Viewer' : 'Editor';
    if (!perObject && !roleIncludes(role, needs)) {
      return next(StatusError.forbidden(gr, name, `the ${role} role of organization ${orgId} may not ${req.method.toLowerCase()} it`, user.login));
    }
    user.orgId = orgId;
    user.orgRole = role;
    next();
  };
}
