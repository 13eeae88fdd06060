import { type KindSubresource, labelKey } from '../../../../pkg/meta';
import { PUBLIC_DASHBOARD_LABELS, publicDashboardKind } from '../../../publicdashboard.svc.app/v1/publicdashboard';
import { dashboardRightsOf } from './dashboard-rights';
import { dashboardUrl, slugify } from './dashboard-url';

/**
 * Spec §4.3 `GET .../dashboards/{uid}/dto`: the dashboard plus an `access` section with the caller's rights on it
 * (the same answers as the legacy read's `meta`). Annotations are not stored by this server: their rights follow the
 * dashboard's. `isPublic`: the dashboard has an enabled public dashboard the caller may see.
 */
export const dashboardDto: KindSubresource = {
  name: 'dto',
  async get(req) {
    const dashboard = await req.object();
    const name = dashboard.metadata.name;
    const [rights, shares] = await Promise.all([
      dashboardRightsOf(req.can, req.signedIn, name),
      req.related(publicDashboardKind, { [PUBLIC_DASHBOARD_LABELS.dashboard]: labelKey(name) }),
    ]);
    const isPublic = shares.some((p) => p.spec.dashboardUid === name && p.spec.isEnabled);
    const annotations = { canAdd: rights.canEdit, canEdit: rights.canEdit, canDelete: rights.canEdit };
    const title = String((dashboard.spec as { title?: unknown }).title ?? '');
    return {
      ...dashboard,
      access: {
        slug: slugify(title),
        url: dashboardUrl(name, title),
        isPublic,
        ...rights,
        annotationsPermissions: { dashboard: annotations, organization: annotations },
      },
    };
  },
};
