import type { Request } from 'express';
import type { KindRegistration } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { StatusError } from '../errors';
import { subjectKindOf } from '../auth/authorization/access-control';

/** A read-only subresource: GET .../<resource>/<name>/<subresource>. */
export interface Subresource {
  kind: KindRegistration;
  name: string;
  get(ctx: RequestContext, name: string, req: Request): Promise<unknown>;
}

/**
 * The subresources the registry's kinds declare (`KindRegistration.subresources`, the dashboard's `dto`), each
 * given the object read as the caller and the caller's access checks.
 *
 * @example kindSubresources(registry) // [{ kind: dashboardKind, name: 'dto', get }]
 */
export function kindSubresources(registry: Registry): Subresource[] {
  return registry.kinds.flatMap((kind) =>
    (kind.subresources ?? []).map((s) => ({
      kind,
      name: s.name,
      get: (ctx: RequestContext, name: string) =>
        s.get({
          object: () => registry.get(ctx, kind, name),
          can: (action, scope) => ctx.access?.can(action, scope) ?? Promise.resolve(false),
          signedIn: subjectKindOf(ctx.requester.identity) !== 'anonymous',
          related: async <Spec>(other: KindRegistration<Spec>, labels: Readonly<Record<string, string>>) => {
            const labelSelector = Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',');
            try {
              return (await registry.list(ctx, other, { labelSelector })).items;
            } catch (err) {
              if (err instanceof StatusError && err.code === 403) return [];
              throw err;
            }
          },
        }),
    })),
  );
}
