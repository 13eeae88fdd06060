import type { KindRegistration } from '../../../../pkg/meta';
import { type DashboardSpec, dashboardSpecSchema } from './dashboard-schema';
import { dashboardStrategy } from './dashboard-strategy';

export { MIN_REFRESH_INTERVAL } from './dashboard-strategy';

/** Dashboard, `dashboard.svc.app/v1beta1` (spec §2.5, §4.3). Every version is kept: it is the version history. */
export const dashboardKind = {
  group: 'dashboard.svc.app',
  version: 'v1beta1',
  kind: 'Dashboard',
  plural: 'dashboards',
  singular: 'dashboard',
  categories: ['svc'],
  specSchema: dashboardSpecSchema,
  // The dashboard JSON is larger than the schema names and frontends add to it: kept as sent.
  preserveUnknownFields: true,
  strategy: dashboardStrategy,
  inFolder: true,
  deleteResponse: 'status',
  keepsHistory: true,
  internalIds: true,
  access: { resource: 'dashboards' },
  search: { title: (d) => d.spec.title, tags: (d) => d.spec.tags ?? [] },
  printerColumns: [{ name: 'Title', type: 'string', jsonPath: '.spec.title' }],
} satisfies KindRegistration<DashboardSpec>;
