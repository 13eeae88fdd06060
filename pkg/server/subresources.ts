import type { Request } from 'express';
import { dashboardKind as typedDashboardKind } from '../../apis';
import { dashboardUrl, slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import { anyKind, type KindRegistration } from '../meta';
import type { Registry, RequestContext } from '../registry';
import { dashboardRights } from '../auth/dashboard-rights';

const dashboardKind = anyKind(typedDashboardKind);

/** A read-only subresource: GET .../<resource>/<name>/<subresource>. */
export interface Subresource {
  kind: KindRegistration;
  name: string;
  get(ctx: RequestContext, name: string, req: Request): Promise<unknown>;
}

/**
 * Spec §4.3 `GET .../dashboards/{uid}/dto`: the dashboard plus an `access` section with the caller's rights on it
 * (the same answers as the legacy read's `meta`). Annotations are not stored by this server: their rights follow the
 * dashboard's.
 */
export function dashboardDto(registry: Registry): Subresource {
  return {
    kind: dashboardKind,
    name: 'dto',
    async get(ctx, name) {
      const dashboard = await registry.get(ctx, dashboardKind, name);
      const rights = await dashboardRights(ctx.access, ctx.requester.identity, name);
      const annotations = { canAdd: rights.canEdit, canEdit: rights.canEdit, canDelete: rights.canEdit };
      const title = String((dashboard.spec as { title?: unknown }).title ?? '');
      return {
        ...dashboard,
        access: {
          slug: slugify(title),
          url: dashboardUrl(name, title),
          isPublic: false,
          ...rights,
          annotationsPermissions: { dashboard: annotations, organization: annotations },
        },
      };
    },
  };
}
