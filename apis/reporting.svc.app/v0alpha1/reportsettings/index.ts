import type { KindRegistration } from '../../../../pkg/meta';
import { type ReportSettingsSpec, reportSettingsSpecSchema } from './reportsettings-schema';

export * from './reportsettings-schema';

/** The one ReportSettings object of an organization's namespace. */
export const REPORT_SETTINGS_NAME = 'default';

/**
 * ReportSettings, `reporting.svc.app/v0alpha1`: the branding of an organization's reports (`GET/POST
 * /api/reports/settings`), one object named `default` per namespace, with the anchor's numeric id. Not served under
 * /apis; the actions guarding it (`reports.settings:read|write`) are in the basic roles.
 */
export const reportSettingsKind = {
  group: 'reporting.svc.app',
  version: 'v0alpha1',
  kind: 'ReportSettings',
  plural: 'reportsettings',
  singular: 'reportsettings',
  specSchema: reportSettingsSpecSchema,
  deleteResponse: 'status',
  internalIds: true,
} satisfies KindRegistration<ReportSettingsSpec>;
