import { StatusError } from '../../pkg/errors';
import { type KindRegistration, Labels, type Resource } from '../../pkg/meta';
import type { Registry, RequestContext } from '../../pkg/registry';
import type { LegacyRoute } from './declare';
import { enforce, guard } from './guards';
import { idParam } from './params';
import { requestContext } from './request-context';

/** The object of `kind` with the legacy numeric id `id` (its `svc.app/deprecatedInternalID` label), among those `ctx` may read. */
export async function findByInternalId(registry: Registry, ctx: RequestContext, kind: KindRegistration, id: number): Promise<Resource | undefined> {
  return (await findByInternalIds(registry, ctx, kind, [id]))[0];
}

/** The objects of `kind` with these legacy numeric ids, among those `ctx` may read; ids that are no positive integer name none. */
export async function findByInternalIds(registry: Registry, ctx: RequestContext, kind: KindRegistration, ids: readonly number[]): Promise<Resource[]> {
  const wanted = ids.filter((id) => Number.isSafeInteger(id) && id > 0);
  if (!wanted.length) return [];
  const page = await registry.list(ctx, kind, { labelSelector: `${Labels.deprecatedInternalID} in (${wanted.join(',')})`, limit: wanted.length });
  return page.items;
}

export interface IdFormOptions {
  /** Express path of the id form: `/api/dashboards/id/:dashboardId/versions`. */
  path: string;
  /** The path parameter holding the id; a value that is no positive integer is 400 `<idParam> is invalid`. */
  idParam: string;
  kind: KindRegistration;
  /** The uid route's parameter the resolved name is given as (default `uid`). */
  uidParam?: string;
  /** The area's 404 for an id that names nothing in the caller's org. */
  notFound: () => StatusError;
  operationId: string;
}

/**
 * The deprecated numeric-id form of a uid route (the anchor's `/id/:id/...` routes), a thin client of it: the id
 * is turned into the object's name within the caller's org, then the uid route runs unchanged (its guard and its
 * handler), so both forms answer alike, messages, permissions and all. The id is resolved without the caller's
 * checks so that an object it may not act on is the uid route's 403, not a 404 the uid form would not give; only
 * the org's own objects are looked at.
 *
 * @example deprecatedIdForm(versionsRoute, { path: '/api/dashboards/id/:dashboardId/versions', idParam: 'dashboardId', kind, notFound, operationId: 'getDashboardVersionsByID' })
 */
export function deprecatedIdForm(uidRoute: LegacyRoute, opts: IdFormOptions): LegacyRoute {
  const uidParam = opts.uidParam ?? 'uid';
  const replacedBy = `${uidRoute.method.toUpperCase()} ${uidRoute.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
  return {
    ...uidRoute,
    path: opts.path,
    operationId: opts.operationId,
    guard: guard.inHandler(uidRoute.guard, `the id is resolved to the object first; then the guard of ${replacedBy} applies`),
    params: [
      { name: opts.idParam, in: 'path', type: 'integer', required: true },
      ...(uidRoute.params ?? []).filter((p) => !(p.in === 'path' && p.name === uidParam)),
    ],
    responses: { ...uidRoute.responses, 400: uidRoute.responses[400] ?? { description: `${opts.idParam} is invalid` } },
    deprecated: { replacedBy },
    handler: async (req, res, deps) => {
      const id = idParam(req, opts.idParam);
      const ctx: RequestContext = { ...requestContext(req, deps.registry), access: undefined };
      const found = await findByInternalId(deps.registry, ctx, opts.kind, id);
      if (!found) throw opts.notFound();
      req.params[uidParam] = found.metadata.name;
      await enforce(uidRoute.guard, req);
      await uidRoute.handler(req, res, deps);
    },
  };
}
