import type { Request } from 'express';
import { StatusError } from '../../errors';
import { accessDenied } from './authorizer';

/**
 * The anchor's RBAC refusal, as an error the one error handler renders: under /api the anchor's body
 * `{title: 'Access denied', message: "... Permissions needed: <action>", accessErrorId}`.
 *
 * @example
 *   throw accessDeniedError('teams:write');
 *   throw accessDeniedError(['dashboards:create', 'dashboards:write']); // "... Permissions needed: any of dashboards:create, dashboards:write"
 */
export function accessDeniedError(action: string | readonly string[]): StatusError {
  const body = accessDenied(action);
  return new StatusError(403, 'Forbidden', body.message, undefined, 'Failure', { ...body });
}

/**
 * Refuses the request (403, the anchor's "You'll need additional permissions…" message) unless the caller may do
 * `action` on `scope`; with no scope, holding the action on any scope is enough (`teams:read` to search teams).
 *
 * @example
 *   await requireAccess(req, 'teams:write', teamScope(id));
 */
export async function requireAccess(req: Request, action: string, scope = ''): Promise<void> {
  if (!req.access || !(await req.access.can(action, scope))) throw accessDeniedError(action);
}
