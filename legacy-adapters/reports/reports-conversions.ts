import { EMAIL_ADDRESS, REPORT_USER_LABEL, type ReportBranding, type ReportSettingsSpec, reportSettingsSpecSchema, type ReportSpec, reportSpecSchema } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { Annotations, type JsonObject } from '../../pkg/meta';
import { parseTime } from '../../pkg/plugins/time-range';
import { reportIdOf, type StoredReport, type StoredReportSettings } from '../../pkg/reports';

/**
 * The anchor's reporting bodies (CreateOrUpdateConfigCmd, ConfigDTO, SettingsDTO, ReportEmailDTO) and the Report and
 * ReportSettings kinds, both ways. Pure: the dashboards' ids and titles are looked up by the routes and handed in.
 */

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The anchor's words for a body that is no JSON object. */
export const BAD_REQUEST_DATA = 'bad request data';

/** A dashboard of a report as ConfigDTO shows it (DashboardReportDTO). */
export interface DashboardRef {
  id: number;
  uid: string;
  name: string;
}

/** The anchor's ConfigDTO. */
export interface ConfigDTO {
  id: number;
  userId: number;
  orgId: number;
  dashboardId: number;
  dashboardName: string;
  dashboardUid: string;
  name: string;
  recipients: string;
  replyTo: string;
  message: string;
  schedule: JsonObject;
  options: { orientation: string; layout: string; timeRange: { from: string; to: string } };
  templateVars: Record<string, unknown>;
  enableDashboardUrl: boolean;
  enableCsv: boolean;
  state: string;
  dashboards: { dashboard: DashboardRef; timeRange: { from: string; to: string }; reportVariables: Record<string, unknown> }[];
  formats: string[];
  scaleFactor: number;
  created: string;
  updated: string;
}

/**
 * A time of a report's range: an RFC 3339 date-time (as the anchor's examples write them), epoch milliseconds, a
 * duration or date math (`now-7d`); undefined for none of these.
 *
 * @example reportTime('2022-08-08T15:00:00+02:00', false, Date.now()) // 1659963600000
 */
export function reportTime(value: string, roundUp: boolean, now: number): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return parseTime(value, roundUp, now);
}

/** A range's check: both bounds empty (the dashboard's own), or both valid with from before to. */
function checkRange(range: { from: string; to: string }, field: string, now: number): void {
  if (range.from === '' && range.to === '') return;
  const from = reportTime(range.from, false, now);
  const to = reportTime(range.to, true, now);
  if (from === undefined || to === undefined) throw StatusError.badRequest(`${field}: invalid time range ${JSON.stringify(`${range.from} to ${range.to}`)}`);
  if (from > to) throw StatusError.badRequest(`${field}: from is after to`);
}

const validTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** The first problem zod found, as one `{message}` line: `recipients[0]: must be an email address`. */
function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]!;
  const field = issue.path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), '');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** A comma- (or semicolon-) separated list of addresses as a list, blanks dropped. */
export function splitAddresses(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return v.split(/[,;]/).map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * The report a CreateOrUpdateConfigCmd describes, as the Report kind's spec: 400 `{message}` naming the first bad
 * field (nothing is stored). Dashboards are named by uid (`dashboards[].dashboard.uid`, or the older top-level
 * `dashboardUid`).
 *
 * @example toReportSpec({ name: 'Weekly', recipients: 'a@x.org', schedule: { frequency: 'weekly' }, dashboards: [{ dashboard: { uid: 'api' } }] })
 */
export function toReportSpec(body: unknown, now = Date.now()): ReportSpec {
  if (!isObject(body)) throw StatusError.badRequest(BAD_REQUEST_DATA);
  let dashboards: unknown = body.dashboards;
  if (dashboards === undefined || dashboards === null || (Array.isArray(dashboards) && dashboards.length === 0 && typeof body.dashboardUid === 'string' && body.dashboardUid !== '')) {
    dashboards = typeof body.dashboardUid === 'string' && body.dashboardUid !== '' ? [{ dashboard: { uid: body.dashboardUid } }] : [];
  }
  if (!Array.isArray(dashboards)) throw StatusError.badRequest('dashboards: must be a list');
  const options = isObject(body.options) ? body.options : body.options === undefined || body.options === null ? {} : body.options;
  const candidate = {
    name: body.name ?? '',
    recipients: splitAddresses(body.recipients ?? ''),
    replyTo: typeof body.replyTo === 'string' ? body.replyTo.trim() : body.replyTo ?? '',
    message: body.message ?? '',
    schedule: body.schedule ?? { frequency: 'never' },
    options,
    enableDashboardUrl: body.enableDashboardUrl ?? true,
    enableCsv: body.enableCsv ?? false,
    state: body.state === undefined || body.state === null || body.state === '' ? 'scheduled' : body.state,
    dashboards: dashboards.map((d: unknown) => {
      if (!isObject(d)) return d;
      const dashboard = isObject(d.dashboard) ? d.dashboard : {};
      return { uid: dashboard.uid ?? '', timeRange: d.timeRange ?? {}, reportVariables: d.reportVariables ?? {} };
    }),
    formats: body.formats === undefined || body.formats === null || (Array.isArray(body.formats) && body.formats.length === 0) ? ['pdf'] : body.formats,
    scaleFactor: body.scaleFactor === undefined || body.scaleFactor === null || body.scaleFactor === 0 ? 2 : body.scaleFactor,
    templateVars: body.templateVars ?? {},
  };
  if (isObject(candidate.schedule)) {
    // The anchor's JSON writes `endDate: null` for none, and `intervalFrequency: ""`.
    const s = { ...candidate.schedule };
    for (const k of ['startDate', 'endDate'] as const) if (s[k] === null || s[k] === '') delete s[k];
    candidate.schedule = s;
  }
  const parsed = reportSpecSchema.safeParse(candidate);
  if (!parsed.success) throw StatusError.badRequest(firstIssue(parsed.error));
  const spec = parsed.data;
  if (!validTimeZone(spec.schedule.timeZone)) throw StatusError.badRequest(`schedule.timeZone: unknown time zone ${JSON.stringify(spec.schedule.timeZone)}`);
  checkRange(spec.options.timeRange, 'options.timeRange', now);
  spec.dashboards.forEach((d, i) => checkRange(d.timeRange, `dashboards[${i}].timeRange`, now));
  return spec;
}

/** The ConfigDTO of a stored report; `dashboard(uid)` is what the organization's dashboard of that uid is now. */
export function toConfigDTO(report: StoredReport, orgId: number, dashboard: (uid: string) => DashboardRef): ConfigDTO {
  const s = report.spec;
  const dashboards = s.dashboards.map((d) => ({ dashboard: dashboard(d.uid), timeRange: { from: d.timeRange.from, to: d.timeRange.to }, reportVariables: d.reportVariables }));
  const first = dashboards[0]?.dashboard ?? { id: 0, uid: '', name: '' };
  const created = report.metadata.creationTimestamp ?? '';
  return {
    id: reportIdOf(report),
    userId: Number(report.metadata.labels?.[REPORT_USER_LABEL] ?? 0),
    orgId,
    dashboardId: first.id,
    dashboardName: first.name,
    dashboardUid: first.uid,
    name: s.name,
    recipients: s.recipients.join(','),
    replyTo: s.replyTo,
    message: s.message,
    schedule: {
      startDate: s.schedule.startDate ?? null,
      endDate: s.schedule.endDate ?? null,
      frequency: s.schedule.frequency,
      intervalFrequency: s.schedule.intervalFrequency,
      intervalAmount: s.schedule.intervalAmount,
      workdaysOnly: s.schedule.workdaysOnly,
      dayOfMonth: s.schedule.dayOfMonth,
      timeZone: s.schedule.timeZone,
    },
    options: { orientation: s.options.orientation, layout: s.options.layout, timeRange: { from: s.options.timeRange.from, to: s.options.timeRange.to } },
    templateVars: s.templateVars,
    enableDashboardUrl: s.enableDashboardUrl,
    enableCsv: s.enableCsv,
    state: s.state,
    dashboards,
    formats: [...s.formats],
    scaleFactor: s.scaleFactor,
    created,
    updated: report.metadata.annotations?.[Annotations.updatedTimestamp] ?? created,
  };
}

/** The branding a SettingsDTO shows before an organization saved its own. */
export const DEFAULT_BRANDING: ReportBranding = { reportLogoUrl: '', emailLogoUrl: '', emailFooterMode: 'sent-by', emailFooterText: 'Svc', emailFooterLink: '' };

/** The anchor's SettingsDTO. */
export interface SettingsDTO {
  id: number;
  userId: number;
  orgId: number;
  branding: ReportBranding;
}

/** The SettingsDTO of an organization's stored settings (id 0 and the defaults when it saved none). */
export function toSettingsDTO(stored: StoredReportSettings | undefined, orgId: number): SettingsDTO {
  if (!stored) return { id: 0, userId: 0, orgId, branding: { ...DEFAULT_BRANDING } };
  const labels = stored.metadata.labels ?? {};
  return { id: Number(labels['svc.app/deprecatedInternalID'] ?? 0), userId: Number(labels[REPORT_USER_LABEL] ?? 0), orgId, branding: { ...stored.spec.branding } };
}

/** The settings a SettingsDTO body saves: 400 naming the first bad field. */
export function toSettingsSpec(body: unknown): ReportSettingsSpec {
  if (!isObject(body)) throw StatusError.badRequest(BAD_REQUEST_DATA);
  const branding = body.branding ?? {};
  const parsed = reportSettingsSpecSchema.safeParse({ branding });
  if (!parsed.success) throw StatusError.badRequest(firstIssue(parsed.error));
  return parsed.data;
}

/** What POST /api/reports/email asks (the anchor's ReportEmailDTO): the report, and who to send it to. */
export interface ReportEmailCommand {
  id: number;
  /** The addresses given instead of the report's; undefined with `useEmailsFromReport`. */
  emails?: string[];
}

/** The ReportEmailDTO of a body: 400 for a missing or bad id, or neither addresses nor `useEmailsFromReport`. */
export function toReportEmailCommand(body: unknown): ReportEmailCommand {
  if (!isObject(body)) throw StatusError.badRequest(BAD_REQUEST_DATA);
  const raw = typeof body.id === 'number' ? String(body.id) : body.id;
  if (typeof raw !== 'string' || !/^[1-9][0-9]{0,14}$/.test(raw.trim())) throw StatusError.badRequest('invalid report id');
  const id = Number(raw.trim());
  const given = body.emails ?? body.email;
  if (given !== undefined && given !== null && given !== '') {
    const emails = splitAddresses(given);
    if (!Array.isArray(emails) || emails.some((e) => typeof e !== 'string' || !EMAIL_ADDRESS.test(e))) throw StatusError.badRequest('emails: must be comma-separated email addresses');
    if (emails.length) return { id, emails: emails as string[] };
  }
  if (body.useEmailsFromReport === true) return { id };
  throw StatusError.badRequest('emails or useEmailsFromReport is required');
}
