import type { Request } from 'express';
import type { Registry, RequestContext } from '../../pkg/registry';
import { defaultFieldManager } from '../../pkg/registry/managed-fields';

/**
 * The registry context of a legacy request: the caller, its permissions (`req.access`) and the namespace of the org
 * it acts in, named by the registry's own scheme. Adapters call the registry with this, so the registry's rules
 * (and its access checks) apply to them exactly as to `/apis`.
 *
 * @example
 *   const folder = await deps.registry.get(requestContext(req, deps.registry), folderKind, uid);
 */
export function requestContext(req: Request, registry: Pick<Registry, 'namespaces'>): RequestContext {
  const user = req.user!;
  return { requester: { identity: user.identity, login: user.login }, namespace: registry.namespaces.of(user.orgId), fieldManager: defaultFieldManager(req.get('user-agent')), access: req.access };
}
