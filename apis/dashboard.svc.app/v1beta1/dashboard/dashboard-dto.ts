import type { KindSubresource } from '../../../../pkg/meta';
import { dashboardRightsOf } from './dashboard-rights';
import { dashboardUrl, slugify } from './dashboard-url';

/**
 * Spec §4.3 `GET .../dashboards/{uid}/dto`: the dashboard plus an `access` section with the caller's rights on it
 * (the same answers as the legacy read's `meta`). Annotations are not stored by this server: their rights follow the
 * dashboard's.
 */
export const dashboardDto: KindSubresource = {
  name: 'dto',
  async get(req) {
    const dashboard = await req.object();
    const name = dashboard.metadata.name;
    const rights = await dashboardRightsOf(req.can, req.signedIn, name);
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
