import { StatusError } from '../../../../pkg/errors';
import type { KindRegistration } from '../../../../pkg/meta';
import { type PublicDashboardSpec, publicDashboardSpecSchema } from './publicdashboard-schema';
import { publicDashboardStrategy } from './publicdashboard-strategy';

export { ACCESS_TOKEN, type PublicDashboardSpec, SHARE_TYPES } from './publicdashboard-schema';
export { newAccessToken, PUBLIC_DASHBOARD_LABELS } from './publicdashboard-strategy';

/** The anchor's errutil body (`{statusCode, messageId, message}`) of its public dashboard errors. */
export function publicDashboardError(status: 400 | 403 | 404, messageId: string, message: string): StatusError {
  const reason = status === 404 ? 'NotFound' : status === 403 ? 'Forbidden' : 'BadRequest';
  return new StatusError(status, reason, message, undefined, 'Failure', { statusCode: status, messageId: `publicdashboards.${messageId}`, message });
}

/** The dashboard a public dashboard names, as its checks read it: a spec of any shape (create checks precede validation). */
const dashboardOf = (spec: unknown): string => {
  const uid = (spec as { dashboardUid?: unknown } | null)?.dashboardUid;
  return typeof uid === 'string' ? uid : '';
};

/**
 * PublicDashboard, `publicdashboard.svc.app/v1` (the anchor's public dashboards): at most one per dashboard,
 * named by its uid. Access is the anchor's, on the dashboard's scope: who may read the dashboard reads its public
 * dashboard (`dashboards:read`), and `dashboards.public:write` (org Admins, the anchor's fixed:dashboards.public:writer)
 * creates, changes and deletes it. A dashboard's delete, or its folder's, takes its public dashboard along (the
 * Dashboard kind's cascades). The dashboard is not a checked reference: the legacy create checks it exists, as the
 * anchor does, and an object whose dashboard is gone shows nothing (its anonymous routes answer "Dashboard not found").
 */
export const publicDashboardKind = {
  group: 'publicdashboard.svc.app',
  version: 'v1',
  kind: 'PublicDashboard',
  plural: 'publicdashboards',
  singular: 'publicdashboard',
  categories: ['svc'],
  specSchema: publicDashboardSpecSchema,
  strategy: publicDashboardStrategy,
  deleteResponse: 'status',
  // Every legacy GET of a dashboard asks whether it has one (meta.publicDashboardEnabled).
  readOften: true,
  // The token is no secret from who may read the dashboard (the anchor shows it to them): kept as any field.
  unique: [
    { field: 'dashboardUid', value: (spec) => spec.dashboardUid, error: () => publicDashboardError(400, 'dashboardIsPublic', 'Dashboard is already public') },
    { field: 'accessToken', value: (spec) => spec.accessToken.toLowerCase(), scope: 'cluster', error: () => publicDashboardError(400, 'accessTokenExists', 'Public Dashboard Access Token already exists') },
  ],
  access: {
    resource: 'dashboards.public',
    actions: { read: 'dashboards:read', create: 'dashboards.public:write', write: 'dashboards.public:write', delete: 'dashboards.public:write' },
    scope: (spec) => `dashboards:uid:${dashboardOf(spec)}`,
    // fixed:dashboards.public:writer, granted to Admins; reading follows the dashboard's own permissions.
    roles: { Admin: [{ verbs: ['create', 'write', 'delete'], on: { scope: 'dashboards:*' } }] },
  },
  printerColumns: [
    { name: 'Dashboard', type: 'string', jsonPath: '.spec.dashboardUid' },
    { name: 'Enabled', type: 'boolean', jsonPath: '.spec.isEnabled' },
  ],
} satisfies KindRegistration<PublicDashboardSpec>;
