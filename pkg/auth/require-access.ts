import type { Request } from 'express';
import { StatusError } from '../errors';
import { accessDenied } from './authorizer';

/** The anchor's RBAC refusal, as an error the one error handler renders (its message names the missing action). */
export const accessDeniedError = (action: string) => new StatusError(403, 'Forbidden', accessDenied(action).message);

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
