import { StatusError } from '../errors';
import type { KindRegistration, Resource, ResourceList } from '../meta';
import { decodeContinue, encodeContinue } from './continue-token';
import type { ListOptions, RequestContext } from './context';
import type { Registry } from './store';

/**
 * A list across namespaces (`/apis/<group>/<version>/<resource>`, `kubectl get -A`): each namespace's list in
 * namespace order (byte order, as names), each filtered as a list of that namespace alone would be, with the
 * caller's rights there (`contexts`: one per namespace it may list). Every namespace after the first page's first
 * is read at that page's resourceVersion, so the pages together are one consistent snapshot. The continue token is
 * the registry's, its position `<namespace>/<last name>` (neither holds a `/`).
 *
 * @example
 *   const all = await listAcross(registry, [ctxOf('default'), ctxOf('org-2')], dashboardKind, { limit: 50 });
 */
export async function listAcross(registry: Registry, contexts: readonly RequestContext[], kind: KindRegistration, opts: ListOptions): Promise<ResourceList> {
  const sorted = [...contexts].sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0));
  let resourceVersion: number | undefined;
  let start = { namespace: '', name: '' };
  if (opts.continue) {
    const position = decodeContinue(opts.continue);
    const slash = position.after.indexOf('/');
    if (slash < 0) throw StatusError.badRequest('continue key is not valid: it continues a list of one namespace');
    resourceVersion = position.resourceVersion;
    start = { namespace: position.after.slice(0, slash), name: position.after.slice(slash + 1) };
  }
  const items: Resource[] = [];
  const done = (cont?: string): ResourceList => ({
    apiVersion: `${kind.group}/${kind.version}`,
    kind: `${kind.kind}List`,
    metadata: { resourceVersion: String(resourceVersion), ...(cont ? { continue: cont } : {}) },
    items,
  });
  const rest = sorted.filter((ctx) => ctx.namespace >= start.namespace);
  for (const ctx of rest) {
    const remaining = opts.limit === undefined ? undefined : opts.limit - items.length;
    if (remaining === 0) return done(encodeContinue(resourceVersion!, `${ctx.namespace}/`));
    const after = ctx.namespace === start.namespace ? start.name : '';
    const position = resourceVersion === undefined ? undefined : { resourceVersion, after };
    const page = await registry.list(ctx, kind, { ...opts, continue: undefined, position, limit: remaining });
    resourceVersion ??= Number(page.metadata.resourceVersion);
    items.push(...page.items);
    if (page.metadata.continue) return done(encodeContinue(resourceVersion, `${ctx.namespace}/${decodeContinue(page.metadata.continue).after}`));
  }
  // No namespace at all: the collection's version still says where a watch would start.
  resourceVersion ??= (await registry.versions(kind)).current;
  return done();
}
