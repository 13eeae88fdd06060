import type { Request } from 'express';
import type { RequestContext } from '../registry';
import { defaultFieldManager } from '../registry/managed-fields';
import { namespaceOf } from './namespaces';

/**
 * The registry context of a request: the caller, its permissions (`req.access`) and, for the legacy API, the
 * namespace of the org it acts in. Legacy adapters call the registry with this, so the registry's rules (and its
 * access checks) apply to them exactly as to `/apis`.
 *
 * @example
 *   const folder = await registry.get(requestContext(req), folderKind, uid);
 */
export function requestContext(req: Request, namespace = namespaceOf(req.user!.orgId), fieldManager = defaultFieldManager(req.get('user-agent'))): RequestContext {
  return { requester: { identity: req.user!.identity, login: req.user!.login }, namespace, fieldManager, access: req.access };
}
