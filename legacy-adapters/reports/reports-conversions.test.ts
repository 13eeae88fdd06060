import type { ReportSpec } from '../../apis';
import type { StoredReport, StoredReportSettings } from '../../pkg/reports';
import { toConfigDTO, toReportEmailCommand, toReportSpec, toSettingsDTO, toSettingsSpec } from './reports-conversions';

const stored = (spec: ReportSpec): StoredReport =>
  ({ apiVersion: 'reporting.svc.app/v0alpha1', kind: 'Report', metadata: { name: '7', creationTimestamp: '2026-11-26T08:00:00Z', labels: { 'svc.app/deprecatedInternalID': '7', 'reporting.svc.app/user-id': '3' } }, spec }) as unknown as StoredReport;
const dashboard = (uid: string) => ({ id: 12, uid, name: `Title of ${uid}` });

test('a CreateOrUpdateConfigCmd round-trips through the spec to the ConfigDTO and back', () => {
  const cmd = {
    name: 'Weekly',
    recipients: 'a@example.org; b@example.org',
    replyTo: 'ops@example.org',
    message: 'Hi',
    schedule: { frequency: 'custom', intervalFrequency: 'weeks', intervalAmount: 2, startDate: '2026-10-02T10:00:00+02:00', endDate: null, timeZone: 'Europe/Warsaw' },
    options: { orientation: 'portrait', layout: 'simple', timeRange: { from: 'now-7d', to: 'now' } },
    dashboards: [{ dashboard: { uid: 'api' }, timeRange: { from: '', to: '' }, reportVariables: { env: 'prod' } }],
    formats: ['pdf', 'csv'],
    state: 'paused',
  };
  const spec = toReportSpec(cmd);
  const dto = toConfigDTO(stored(spec), 1, dashboard);
  expect(dto).toMatchObject({ id: 7, userId: 3, orgId: 1, dashboardId: 12, dashboardUid: 'api', dashboardName: 'Title of api', recipients: 'a@example.org,b@example.org', state: 'paused', created: '2026-11-26T08:00:00Z', updated: '2026-11-26T08:00:00Z' });
  expect(dto.schedule).toMatchObject({ frequency: 'custom', intervalFrequency: 'weeks', intervalAmount: 2, endDate: null });
  // What GET answers, PUT takes back unchanged.
  expect(toReportSpec(dto)).toEqual(spec);
});

test('the older one-dashboard form names the dashboard by dashboardUid; defaults fill the rest', () => {
  const spec = toReportSpec({ name: 'n', recipients: 'a@example.org', dashboardUid: 'api' });
  expect(spec).toMatchObject({ dashboards: [{ uid: 'api', timeRange: { from: '', to: '' }, reportVariables: {} }], formats: ['pdf'], state: 'scheduled', schedule: { frequency: 'never', timeZone: 'UTC' }, scaleFactor: 2 });
});

test('binding refuses what is no report body', () => {
  for (const bad of [null, [], 'x', 3]) expect(() => toReportSpec(bad)).toThrow('bad request data');
  expect(() => toReportSpec({ name: 'n', recipients: 'a@example.org', dashboards: [{ dashboard: { uid: 'a' }, timeRange: { from: 'now', to: 'now-1d' } }] })).toThrow('from is after to');
});

test('settings round-trip; an organization without any gets the defaults', () => {
  const spec = toSettingsSpec({ branding: { emailFooterMode: 'sent-by', emailFooterText: 'Ops', emailFooterLink: 'https://ops.example.org/' } });
  const s = { metadata: { name: 'default', labels: { 'svc.app/deprecatedInternalID': '2', 'reporting.svc.app/user-id': '1' } }, spec } as unknown as StoredReportSettings;
  const dto = toSettingsDTO(s, 4);
  expect(dto).toEqual({ id: 2, userId: 1, orgId: 4, branding: { reportLogoUrl: '', emailLogoUrl: '', emailFooterMode: 'sent-by', emailFooterText: 'Ops', emailFooterLink: 'https://ops.example.org/' } });
  expect(toSettingsSpec(dto)).toEqual(spec);
  expect(toSettingsDTO(undefined, 4)).toMatchObject({ id: 0, userId: 0, orgId: 4 });
});

test('a ReportEmailDTO names the report and its addresses, or the report\'s own', () => {
  expect(toReportEmailCommand({ id: '3', useEmailsFromReport: true })).toEqual({ id: 3 });
  expect(toReportEmailCommand({ id: 3, emails: 'a@example.org, b@example.org' })).toEqual({ id: 3, emails: ['a@example.org', 'b@example.org'] });
  expect(() => toReportEmailCommand({ id: 'x', useEmailsFromReport: true })).toThrow('invalid report id');
  expect(() => toReportEmailCommand({ id: '3' })).toThrow('emails or useEmailsFromReport is required');
  expect(() => toReportEmailCommand({ id: '3', emails: 'nobody' })).toThrow('emails: must be comma-separated email addresses');
});
