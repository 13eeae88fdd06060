import type { KindRegistration } from '../../../../pkg/meta';
import { type ReportSpec, reportSpecSchema } from './report-schema';

export * from './report-schema';

/** The label of a report's owner (the anchor's `userId`): legacy data, set by the reporting routes. */
export const REPORT_USER_LABEL = 'reporting.svc.app/user-id';

/**
 * Report, `reporting.svc.app/v0alpha1` (the enterprise edition's reporting): named by its numeric id, one
 * organization's (its namespace). Not served under /apis: the reporting routes (legacy-adapters/reports) are its
 * clients, and they check the anchor's actions on `reports:id:<id>` themselves before calling the registry. The
 * roles below are the anchor's fixed reports roles, which basic Admins hold (reports:send and the settings'
 * actions are in the basic roles: they are about no one report).
 */
export const reportKind = {
  group: 'reporting.svc.app',
  version: 'v0alpha1',
  kind: 'Report',
  plural: 'reports',
  singular: 'report',
  specSchema: reportSpecSchema,
  deleteResponse: 'status',
  internalIds: 'name',
  access: { resource: 'reports', roles: { Admin: [{ verbs: ['read', 'create', 'write', 'delete'], on: { scope: 'reports:*' } }] } },
  fields: { name: { path: ['spec', 'name'] } },
  printerColumns: [
    { name: 'Name', type: 'string', jsonPath: '.spec.name' },
    { name: 'Frequency', type: 'string', jsonPath: '.spec.schedule.frequency' },
    { name: 'State', type: 'string', jsonPath: '.spec.state' },
  ],
} satisfies KindRegistration<ReportSpec>;
