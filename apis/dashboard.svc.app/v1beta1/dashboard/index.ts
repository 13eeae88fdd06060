import { anyKind, CREATOR_ADMIN_ROLES_AT_ROOT, type KindRegistration, labelKey } from '../../../../pkg/meta';
import { ANNOTATION_LABELS, annotationKind } from '../../../annotation.svc.app/v1beta1/annotation';
import { type DashboardSpec, dashboardSpecSchema } from './dashboard-schema';
import { dashboardStrategy } from './dashboard-strategy';
import { dashboardDto } from './dashboard-dto';
import { libraryPanelConnections, libraryPanelKind } from '../librarypanel';
import { PUBLIC_DASHBOARD_LABELS, publicDashboardKind } from '../../../publicdashboard.svc.app/v1/publicdashboard';

export { MIN_REFRESH_INTERVAL, ProvisionedDashboardMessages } from './dashboard-strategy';

const ANNOTATION_ACTIONS = ['annotations:read', 'annotations:write', 'annotations:create', 'annotations:delete'];

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
  access: {
    resource: 'dashboards',
    // fixed:dashboards:creator (Editors, at the root), fixed:dashboards:writer and dashboards.permissions:writer (Admins).
    // Viewers and Editors see dashboards through the managed permissions a new one gets, not through their role.
    roles: {
      Editor: [{ verbs: ['create'], on: 'root' }],
      Admin: [{ verbs: ['read', 'write', 'delete', 'create', 'permissions:read', 'permissions:write'], on: 'all' }],
    },
    managed: {
      // The anchor's DashboardViewActions, DashboardEditActions, DashboardAdminActions (ossaccesscontrol/dashboard.go),
      // with the annotation actions its annotationPermissionUpdate adds (the dashboard's annotations: apis/annotation.svc.app).
      levels: {
        View: ['dashboards:read', 'annotations:read'],
        Edit: ['dashboards:read', 'dashboards:write', 'dashboards:delete', ...ANNOTATION_ACTIONS],
        Admin: ['dashboards:read', 'dashboards:write', 'dashboards:delete', 'dashboards.permissions:read', 'dashboards.permissions:write', ...ANNOTATION_ACTIONS],
      },
      defaults: CREATOR_ADMIN_ROLES_AT_ROOT,
    },
  },
  search: { title: (d) => d.spec.title, tags: (d) => d.spec.tags ?? [] },
  printerColumns: [{ name: 'Title', type: 'string', jsonPath: '.spec.title' }],
  subresources: [dashboardDto],
  // Its connections to the library panels its panels use, kept with every write and delete of it.
  references: [libraryPanelConnections(libraryPanelKind)],
  // Its annotations and its public dashboard go with it (and with its folder).
  cascades: [
    { kind: anyKind(annotationKind), dependents: (d) => ({ labels: { [ANNOTATION_LABELS.dashboard]: labelKey(d.metadata.name) } }) },
    { kind: anyKind(publicDashboardKind), dependents: (d) => ({ labels: { [PUBLIC_DASHBOARD_LABELS.dashboard]: labelKey(d.metadata.name) } }) },
  ],
} satisfies KindRegistration<DashboardSpec>;
