import type { Request } from 'express';
import { dashboardKind as typedDashboardKind } from '../../apis';
import { dashboardUrl, slugify } from '../../apis/dashboard.svc.app/v1beta1/dashboard/dashboard-url';
import { anyKind, type KindRegistration } from '../meta';
import type { Registry, RequestContext } from '../registry';

const dashboardKind = anyKind(typedDashboardKind);

/** A read-only subresource: GET .../<resource>/<name>/<subresource>. */
export interface Subresource {
  kind: KindRegistration;
  name: string;
  get(ctx: RequestContext, name: string, req: Request): Promise<unknown>;
}

/**
 * Spec §4.3 `GET .../dashboards/{uid}/dto`: the dashboard plus an `access` section. Every caller is the server
 * administrator until identities and permissions are stored, so every right is granted; the permission checks
 * replace these constants when they exist.
 */
export function dashboardDto(registry: Registry): Subresource {
  return {
    kind: dashboardKind,
    name: 'dto',
    async get(ctx, name) {
      const dashboard = await registry.get(ctx, dashboardKind, name);
      const title = String((dashboard.spec as { title?: unknown }).title ?? '');
      return {
        ...dashboard,
        access: {
          slug: slugify(title),
          url: dashboardUrl(name, title),
          isPublic: false,
          canSave: true,
          canEdit: true,
          canAdmin: true,
          canStar: true,
          canDelete: true,
          annotationsPermissions: {
            dashboard: { canAdd: true, canEdit: true, canDelete: true },
            organization: { canAdd: true, canEdit: true, canDelete: true },
          },
        },
      };
    },
  };
}
