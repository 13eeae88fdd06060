import type { Request } from 'express';
import type { RequestContext } from '../registry';

/**
 * The registry context of an `/apis` request in one namespace: the caller, its permissions (`req.access`) and the
 * field manager its writes are recorded under. (Legacy adapters build theirs in legacy-adapters/shared.)
 *
 * @example
 *   const ctx = requestContext(req, 'default', 'kubectl-client-side-apply');
 */
export function requestContext(req: Request, namespace: string, fieldManager: string): RequestContext {
  return { requester: { identity: req.user!.identity, login: req.user!.login }, namespace, fieldManager, access: req.access };
}
