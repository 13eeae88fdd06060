import type { Request } from 'express';
import { isAnonymous, isServiceAccount, permissionDeniedError } from '../../pkg/auth/authorization/org-access';
import { type OrgRole, roleIncludes } from '../../pkg/auth/authorization/permissions';
import { accessDeniedError } from '../../pkg/auth/authorization/require-access';
import { StatusError } from '../../pkg/errors';

/**
 * What a legacy route needs of its caller, declared beside the route: the mount enforces it before the handler
 * runs, and the OpenAPI description states it. `inHandler` marks a guard the handler checks itself, because the
 * anchor answers something else first (the object's 404, a 400 for a bad body); the mount then leaves it alone.
 */
export type Guard = (
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'notAnonymous' }
  | { kind: 'user' }
  | { kind: 'orgAdmin' }
  | { kind: 'serverAdmin' }
  | { kind: 'action'; actions: readonly string[]; scope?: string }
) & { inHandler?: string };

/**
 * The guards routes declare.
 *
 * @example
 *   guard.can('teams:read', 'teams:id:{teamId}')            // the action on the scope, `{teamId}` from the path
 *   guard.can(['dashboards:create', 'dashboards:write'])     // either action, on any scope
 *   guard.inHandler(guard.user, 'anonymous visitors get their profile')
 */
export const guard = {
  /** Reachable without credentials (the login form). */
  public: { kind: 'public' } as Guard,
  /** Any caller the authentication accepted; the registry checks each object it reads or writes. */
  signedIn: { kind: 'signedIn' } as Guard,
  /** Any caller but an anonymous visitor (401), as the anchor's reqSignedInNoAnonymous. */
  notAnonymous: { kind: 'notAnonymous' } as Guard,
  /** A signed-in user: a service account or an anonymous visitor is 403 "Endpoint only available for users". */
  user: { kind: 'user' } as Guard,
  /** The Admin role in the request's org, or a server admin: else 403 "Permission denied". */
  orgAdmin: { kind: 'orgAdmin' } as Guard,
  /** A server admin (never a service account, spec §5.3): else 403 "Permission denied". */
  serverAdmin: { kind: 'serverAdmin' } as Guard,
  /** One of `actions` on `scope` (`{param}` is the path parameter); without a scope, on any. */
  can: (actions: string | readonly string[], scope?: string): Guard => ({ kind: 'action', actions: typeof actions === 'string' ? [actions] : actions, scope }),
  /** `g`, checked by the handler itself, for the reason given. */
  inHandler: (g: Guard, why: string): Guard => ({ ...g, inHandler: why }),
};

/** Spec §5.3: only a user can be a server admin; a service account is refused whatever its org role. */
export function requireServerAdmin(req: Request): void {
  if (!req.user?.isServerAdmin || isServiceAccount(req.user)) throw permissionDeniedError();
}

/**
 * The signed-in *user's* endpoints: a service account is no user (its numeric id is not a user's), so these answer
 * it the anchor's 403 rather than reading or changing the user that happens to have the same number; nor is an
 * anonymous visitor.
 */
export function requireUser(req: Request): void {
  if (isServiceAccount(req.user!) || isAnonymous(req.user!)) throw new StatusError(403, 'Forbidden', 'Endpoint only available for users');
}

/** The org role an endpoint needs in the request's org (server admins pass, as the anchor's Grafana-admin role does). */
export function requireOrgAdmin(req: Request): void {
  if (!req.user!.isServerAdmin && req.user!.orgRole !== 'Admin') throw permissionDeniedError();
}

/**
 * Refuses the request (403, the anchor's "You'll need additional permissions…" naming them) unless the caller may
 * do one of `actions` on `scope`; with no scope, holding it on any scope is enough.
 */
/**
 * Refuses (403, the anchor's words) a caller handing out a role above its own in the organization it acts in, as
 * the anchor's RoleType.Includes: Admin includes every role, Editor includes Viewer, and anyone may hand out None,
 * which grants nothing. Server admins may hand out any role.
 */
export function requireRoleAtMostOwn(req: Request, role: OrgRole): void {
  const caller = req.user!;
  if (caller.isServerAdmin || role === 'None' || roleIncludes(caller.orgRole ?? 'None', role)) return;
  throw new StatusError(403, 'Forbidden', "Cannot assign a role higher than user's role");
}

export async function requireAnyAction(req: Request, actions: readonly string[], scope = ''): Promise<void> {
  for (const action of actions) if (await req.access?.can(action, scope)) return;
  throw accessDeniedError(actions);
}

/** `teams:id:{teamId}` with the request's `teamId`. */
export function scopeOf(template: string, req: Request): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => String(req.params[name] ?? ''));
}

/** Refuses the request unless it passes `g`. */
export async function enforce(g: Guard, req: Request): Promise<void> {
  if (g.inHandler) return;
  switch (g.kind) {
    case 'public':
    case 'signedIn':
      return;
    case 'notAnonymous':
      if (isAnonymous(req.user!)) throw StatusError.unauthorized();
      return;
    case 'user':
      return requireUser(req);
    case 'orgAdmin':
      return requireOrgAdmin(req);
    case 'serverAdmin':
      return requireServerAdmin(req);
    case 'action':
      return requireAnyAction(req, g.actions, g.scope === undefined ? '' : scopeOf(g.scope, req));
  }
}

/** The guard in a sentence of the route's OpenAPI description. */
export function describeGuard(g: Guard): string | undefined {
  switch (g.kind) {
    case 'public':
    case 'signedIn':
      return undefined;
    case 'notAnonymous':
      return 'Needs a signed-in caller (not an anonymous visitor).';
    case 'user':
      return 'Needs a signed-in user (not a service account).';
    case 'orgAdmin':
      return 'Needs the Admin role in the organization (or a server admin).';
    case 'serverAdmin':
      return 'Needs a server admin.';
    case 'action':
      return `Needs ${g.actions.map((a) => `\`${a}\``).join(' or ')}${g.scope ? ` on \`${g.scope}\`` : ''}.`;
  }
}
