import { z } from 'zod';
import type { Config } from '../../pkg/config';
import { defineArea, guard } from '../shared';
import type { LegacyParam } from '../shared/route-doc';
import { createReport, deleteReport, getReport, getReportSettings, listReports, saveReportSettings, updateReport } from './reports-routes';
import { renderReportPdfRoute, renderReportPdfs, sendReport, sendTestEmail } from './reports-send';

const tags = ['reports', 'enterprise'];
/** Reporting is the enterprise edition's (the anchor's Grafana Enterprise): 404 in the others. */
const enterprise = (config: Config) => config.server.edition === 'enterprise';
const enterpriseOnly = 'Enterprise edition only: 404 in the others.';
const message = z.object({ message: z.string() });
const id = { name: 'id', in: 'path', type: 'integer', required: true, description: "The report's id." } as const;

const timeRange = z.object({ from: z.string(), to: z.string() });
const schedule = z.object({
  startDate: z.string().nullable().optional(),
  endDate: z.string().nullable().optional(),
  frequency: z.string().describe('once, hourly, daily, weekly, monthly, last (day of the month), custom or never'),
  intervalFrequency: z.string().optional().describe('hours, days, weeks or months (custom)'),
  intervalAmount: z.number().int().optional(),
  workdaysOnly: z.boolean().optional(),
  dayOfMonth: z.string().optional(),
  timeZone: z.string().optional().describe('IANA time zone; default UTC'),
});
const options = z.object({ orientation: z.string().optional().describe('portrait or landscape'), layout: z.string().optional().describe('grid or simple'), timeRange: timeRange.optional() });
const dashboardRef = z.object({ id: z.number().int(), uid: z.string(), name: z.string() });
/** The anchor's CreateOrUpdateConfigCmd. */
const configCmd = z.object({
  name: z.string(),
  recipients: z.string().describe('comma-separated email addresses'),
  replyTo: z.string().optional(),
  message: z.string().optional(),
  schedule: schedule.optional(),
  options: options.optional(),
  enableDashboardUrl: z.boolean().optional(),
  enableCsv: z.boolean().optional(),
  state: z.string().optional().describe('scheduled, paused or draft'),
  dashboards: z.array(z.object({ dashboard: z.object({ uid: z.string() }), timeRange: timeRange.optional(), reportVariables: z.record(z.string(), z.unknown()).optional() })).optional(),
  dashboardUid: z.string().optional().describe('deprecated: one dashboard, instead of dashboards'),
  formats: z.array(z.string()).optional().describe('pdf (default), csv, image'),
  scaleFactor: z.number().int().optional(),
  templateVars: z.record(z.string(), z.unknown()).optional(),
});
/** The anchor's ConfigDTO. */
const configDTO = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  orgId: z.number().int(),
  dashboardId: z.number().int(),
  dashboardName: z.string(),
  dashboardUid: z.string(),
  name: z.string(),
  recipients: z.string(),
  replyTo: z.string(),
  message: z.string(),
  schedule,
  options,
  templateVars: z.record(z.string(), z.unknown()),
  enableDashboardUrl: z.boolean(),
  enableCsv: z.boolean(),
  state: z.string(),
  dashboards: z.array(z.object({ dashboard: dashboardRef, timeRange, reportVariables: z.record(z.string(), z.unknown()) })),
  formats: z.array(z.string()),
  scaleFactor: z.number().int(),
  created: z.string(),
  updated: z.string(),
});
const branding = z.object({ reportLogoUrl: z.string(), emailLogoUrl: z.string(), emailFooterMode: z.string().describe('sent-by or none'), emailFooterText: z.string(), emailFooterLink: z.string() });
const settingsDTO = z.object({ id: z.number().int(), userId: z.number().int(), orgId: z.number().int(), branding });
const invalid = '400 `{message}` naming the first invalid field (nothing is stored).';
const noSmtp = 'Without `[smtp] enabled`: 412 "SMTP not configured, check your config file\'s [smtp] section".';
const emailDTO = z.object({
  id: z.string().describe("the report's id"),
  emails: z.string().optional().describe('comma-separated addresses, instead of the report\'s recipients'),
  useEmailsFromReport: z.boolean().optional(),
});
const renderNotes = "Any signed-in caller who may read the dashboards (else 403, or 404 \"Dashboard not found\"); each panel's saved queries run through the data source query pipeline as the caller, over `from`/`to` (default the dashboard's time).";
const renderParams = [
  { name: 'from', in: 'query', type: 'string' },
  { name: 'to', in: 'query', type: 'string' },
  { name: 'orientation', in: 'query', type: 'string', enum: ['landscape', 'portrait'], default: 'landscape' },
  { name: 'layout', in: 'query', type: 'string', enum: ['grid', 'simple'], default: 'grid' },
  { name: 'title', in: 'query', type: 'string' },
  { name: 'timezone', in: 'query', type: 'string', default: 'UTC' },
  { name: 'variables', in: 'query', type: 'string', description: 'a JSON object of template variable values, e.g. {"host":"web-1"}' },
] as const satisfies readonly LegacyParam[];

/**
 * The enterprise edition's reporting (the anchor's Reporting API): reports of dashboards emailed as PDFs, as the
 * Report kind of each organization, with its branding settings (ReportSettings).
 */
export const reportsArea = defineArea({
  name: 'reports',
  routes: [
    {
      method: 'get', path: '/api/reports/settings', guard: guard.can('reports.settings:read'), servedIn: enterprise, handler: getReportSettings,
      operationId: 'getReportSettings', tags, summary: "The organization's report branding (defaults until saved).", description: enterpriseOnly,
      responses: { 200: { description: 'The settings.', schema: settingsDTO, name: 'SettingsDTO' }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/reports/settings', guard: guard.can('reports.settings:write'), servedIn: enterprise, handler: saveReportSettings,
      operationId: 'saveReportSettings', tags, summary: "Create or replace the organization's report branding.", description: `${enterpriseOnly} ${invalid}`,
      body: { schema: z.object({ branding: branding.partial() }) },
      responses: { 200: { description: 'Report settings saved.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/reports/email', guard: guard.can('reports:send'), servedIn: enterprise, handler: sendReport,
      operationId: 'sendReport', tags, summary: 'Render a stored report now and email it (to `emails`, or its own recipients with `useEmailsFromReport`).',
      description: `${enterpriseOnly} Waits until the email is handed to the mail server. ${noSmtp} 404 "Report not found"; 502 when the mail server refuses the email.`,
      body: { schema: emailDTO, name: 'ReportEmailDTO' },
      responses: { 200: { description: 'Report was sent.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {}, 412: { description: noSmtp }, 502: { description: 'The mail server did not take the email.' } },
    },
    {
      method: 'post', path: '/api/reports/test-email', guard: guard.can('reports:send'), servedIn: enterprise, handler: sendTestEmail,
      operationId: 'sendTestEmail', tags, summary: 'Render the report described in the body and email it to its recipients, storing nothing.',
      description: `${enterpriseOnly} ${invalid} ${noSmtp}`,
      body: { schema: configCmd, name: 'CreateOrUpdateConfigCmd' },
      responses: { 200: { description: 'Test email sent.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {}, 412: { description: noSmtp }, 502: { description: 'The mail server did not take the email.' } },
    },
    {
      method: 'get', path: '/api/reports/render/pdfs', guard: guard.signedIn, servedIn: enterprise, handler: renderReportPdfs,
      operationId: 'renderReportPDFs', tags, summary: 'A PDF of several dashboards (`dashboardID`: comma-separated ids or uids), each panel drawn with the data of its queries.',
      description: `${enterpriseOnly} ${renderNotes}`, params: [{ name: 'dashboardID', in: 'query', type: 'string', required: true }, ...renderParams],
      responses: { 200: { description: 'The PDF (application/pdf).' }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/reports/render/pdf/:dashboardID', guard: guard.signedIn, servedIn: enterprise, handler: renderReportPdfRoute,
      operationId: 'renderReportPDF', tags, summary: 'A PDF of one dashboard, by its numeric id.', description: `${enterpriseOnly} ${renderNotes}`,
      params: [{ name: 'dashboardID', in: 'path', type: 'integer', required: true }, ...renderParams], deprecated: { replacedBy: 'GET /api/reports/render/pdfs' },
      responses: { 200: { description: 'The PDF (application/pdf).' }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/reports', guard: guard.can('reports:read'), servedIn: enterprise, handler: listReports,
      operationId: 'getReports', tags, summary: 'The reports of the organization the caller may read (reports:read on reports:id:<id>), by id.', description: enterpriseOnly,
      responses: { 200: { description: 'The reports.', schema: z.array(configDTO) }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/reports', guard: guard.can('reports:create'), servedIn: enterprise, handler: createReport,
      operationId: 'createReport', tags, summary: 'Create a report.',
      description: `${enterpriseOnly} ${invalid} 404 "Dashboard not found" for a dashboard the organization does not have; 403 for one the caller may not read.`,
      body: { schema: configCmd, name: 'CreateOrUpdateConfigCmd' },
      responses: { 200: { description: 'Report created.', schema: z.object({ id: z.number().int(), message: z.string() }) }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/reports/:id', guard: guard.can('reports:read', 'reports:id:{id}'), servedIn: enterprise, handler: getReport,
      operationId: 'getReport', tags, summary: 'One report.', description: `${enterpriseOnly} 404 "Report not found" for an id the organization does not have.`, params: [id],
      responses: { 200: { description: 'The report.', schema: configDTO, name: 'ConfigDTO' }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'put', path: '/api/reports/:id', guard: guard.can('reports:write', 'reports:id:{id}'), servedIn: enterprise, handler: updateReport,
      operationId: 'updateReport', tags, summary: 'Replace a report.', description: `${enterpriseOnly} ${invalid}`, params: [id],
      body: { schema: configCmd, name: 'CreateOrUpdateConfigCmd' },
      responses: { 200: { description: 'Report updated.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'delete', path: '/api/reports/:id', guard: guard.can('reports:delete', 'reports:id:{id}'), servedIn: enterprise, handler: deleteReport,
      operationId: 'deleteReport', tags, summary: 'Delete a report.', description: enterpriseOnly, params: [id],
      responses: { 200: { description: 'Report config was removed.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
  ],
});
