import type { Request, Response } from 'express';
import type { ReportSpec } from '../../apis';
import { StatusError } from '../../pkg/errors';
import type { Resource } from '../../pkg/meta';
import { type MailAttachment, MailError, SMTP_NOT_CONFIGURED } from '../../pkg/mail';
import type { RequestContext } from '../../pkg/registry';
import { type ReportDelivery, reportEmail, renderReportPdf } from '../../pkg/reports';
import { type AdapterDeps, findByInternalId, queryString, requestContext } from '../shared';
import { DEFAULT_BRANDING, toReportEmailCommand, toReportSpec } from './reports-conversions';
import { csvAttachments, rangeOf, renderDashboard } from './reports-render';
import { dashboardKind, readableDashboards, ReportMessages, reportNotFound } from './reports-routes';

/** A file name from a title: what mail clients and browsers keep of it. */
const fileName = (title: string, ext: string) => `${title.replace(/[^A-Za-z0-9 _.-]/g, '_').trim() || 'report'}.${ext}`;

/** The PDF (one for all the report's dashboards) and, with the `csv` format, a CSV of each table panel. */
async function reportAttachments(deps: AdapterDeps, ctx: RequestContext, spec: ReportSpec, dashboards: readonly Resource[], login?: string): Promise<{ attachments: MailAttachment[]; links: { title: string; url: string }[] }> {
  const rendered = [];
  for (const [i, d] of dashboards.entries()) {
    rendered.push(await renderDashboard(deps, ctx, d, rangeOf(d.spec as Record<string, unknown> as never, spec.dashboards[i]?.timeRange, spec.options.timeRange), spec.schedule.timeZone, login, spec.templateVars, spec.dashboards[i]?.reportVariables));
  }
  const attachments: MailAttachment[] = [];
  if (spec.formats.includes('pdf')) {
    const pdf = await renderReportPdf(rendered.map((r) => r.pdf), { orientation: spec.options.orientation, layout: spec.options.layout, title: spec.name });
    attachments.push({ filename: fileName(spec.name, 'pdf'), content: Buffer.from(pdf), contentType: 'application/pdf' });
  }
  if (spec.formats.includes('csv') || spec.enableCsv) attachments.push(...csvAttachments(rendered));
  return { attachments, links: rendered.map((r) => ({ title: r.pdf.title, url: r.pdf.url ?? '' })) };
}

/** Renders the report as the caller and emails it to `to`: 412 without SMTP, 502 when the mail server refuses it. */
async function emailReport(req: Request, deps: AdapterDeps, spec: ReportSpec, to: readonly string[], failure: string): Promise<void> {
  if (!deps.mailer.enabled) throw new StatusError(412, 'Conflict', SMTP_NOT_CONFIGURED);
  const dashboards = await readableDashboards(deps, req, spec);
  const ctx = requestContext(req, deps.registry);
  const { attachments, links } = await reportAttachments(deps, ctx, spec, dashboards, req.user!.login);
  const branding = (await deps.reports.settings(req.user!.orgId))?.spec.branding ?? DEFAULT_BRANDING;
  try {
    await deps.mailer.send(reportEmail(spec, to, links, branding, attachments));
  } catch (err) {
    if (err instanceof MailError) {
      deps.log.warn('a report email was not sent', { error: err.message });
      throw new StatusError(502, 'ServiceUnavailable', `${failure}: ${err.message}`);
    }
    throw err;
  }
}

/**
 * POST /api/reports/email `{id, emails | useEmailsFromReport}`: renders the stored report now and emails it, to the
 * given addresses or the report's recipients (reports:send).
 */
export async function sendReport(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const cmd = toReportEmailCommand(req.body);
  const report = await deps.reports.get(req.user!.orgId, cmd.id);
  if (!report) throw reportNotFound();
  await emailReport(req, deps, report.spec, cmd.emails ?? report.spec.recipients, 'Failed to send report');
  res.json({ message: ReportMessages.sent });
}

/** POST /api/reports/test-email `CreateOrUpdateConfigCmd`: emails the report described, storing nothing (reports:send). */
export async function sendTestEmail(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const spec = toReportSpec(req.body);
  await emailReport(req, deps, spec, spec.recipients, 'Failed to send test email');
  res.json({ message: ReportMessages.testSent });
}

const ORIENTATIONS = ['portrait', 'landscape'] as const;
const LAYOUTS = ['grid', 'simple'] as const;

/** The rendering options of a query string: 400 for an orientation or layout the anchor does not have. */
function renderOptions(req: Request): { orientation: (typeof ORIENTATIONS)[number]; layout: (typeof LAYOUTS)[number]; from?: string; to?: string; title?: string; timeZone: string; variables?: Record<string, unknown> } {
  const orientation = queryString(req.query.orientation) || 'landscape';
  const layout = queryString(req.query.layout) || 'grid';
  if (!(ORIENTATIONS as readonly string[]).includes(orientation)) throw StatusError.badRequest('orientation: expected portrait or landscape');
  if (!(LAYOUTS as readonly string[]).includes(layout)) throw StatusError.badRequest('layout: expected grid or simple');
  const from = queryString(req.query.from);
  const to = queryString(req.query.to);
  if ((from === undefined) !== (to === undefined)) throw StatusError.badRequest('from and to go together');
  const timeZone = queryString(req.query.timezone) || 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw StatusError.badRequest(`unknown time zone ${JSON.stringify(timeZone)}`);
  }
  const rawVariables = queryString(req.query.variables);
  let variables: Record<string, unknown> | undefined;
  if (rawVariables !== undefined && rawVariables !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawVariables);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw StatusError.badRequest('variables: expected a JSON object of variable values');
    variables = parsed as Record<string, unknown>;
  }
  return { ...(variables ? { variables } : {}), orientation: orientation as never, layout: layout as never, ...(from !== undefined ? { from, to } : {}), ...(queryString(req.query.title) ? { title: queryString(req.query.title) } : {}), timeZone };
}

/** The dashboard a render names (its numeric id, or its uid), read as the caller: 404 "Dashboard not found". */
async function dashboardNamed(deps: AdapterDeps, ctx: RequestContext, idOrUid: string): Promise<Resource> {
  const notFound = () => new StatusError(404, 'NotFound', ReportMessages.dashboardNotFound);
  if (/^[0-9]{1,15}$/.test(idOrUid)) {
    const found = await findByInternalId(deps.registry, ctx, dashboardKind, Number(idOrUid));
    if (!found) throw notFound();
    return found;
  }
  try {
    return await deps.registry.get(ctx, dashboardKind, idOrUid);
  } catch (err) {
    if (err instanceof StatusError && (err.code === 404 || err.code === 400)) throw notFound();
    throw err;
  }
}

async function answerPdf(req: Request, res: Response, deps: AdapterDeps, names: readonly string[]): Promise<void> {
  const opts = renderOptions(req);
  const ctx = requestContext(req, deps.registry);
  const dashboards = [];
  for (const n of names) dashboards.push(await dashboardNamed(deps, ctx, n));
  const rendered = [];
  for (const d of dashboards) {
    const range = rangeOf(d.spec as never, opts.from !== undefined ? { from: opts.from, to: opts.to! } : undefined);
    rendered.push((await renderDashboard(deps, ctx, d, range, opts.timeZone, req.user!.login, opts.variables)).pdf);
  }
  const title = opts.title ?? rendered.map((r) => r.title).join(', ');
  const pdf = await renderReportPdf(rendered, { orientation: opts.orientation, layout: opts.layout, title });
  res.set('Content-Type', 'application/pdf').set('Content-Disposition', `inline; filename="${fileName(title, 'pdf')}"`).send(Buffer.from(pdf));
}

/** GET /api/reports/render/pdf/:dashboardID (deprecated): a PDF of one dashboard, by its numeric id. */
export async function renderReportPdfRoute(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = String(req.params.dashboardID ?? '');
  if (!/^[1-9][0-9]{0,14}$/.test(id)) throw StatusError.badRequest('invalid dashboard id');
  await answerPdf(req, res, deps, [id]);
}

/** At most this many dashboards in one rendered PDF. */
const MAX_DASHBOARDS = 20;

/** GET /api/reports/render/pdfs?dashboardID=<id or uid>,...: one PDF of several dashboards. */
export async function renderReportPdfs(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const raw = req.query.dashboardID;
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  const names = values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  if (!names.length) throw StatusError.badRequest('dashboardID is required');
  if (names.length > MAX_DASHBOARDS) throw StatusError.badRequest(`at most ${MAX_DASHBOARDS} dashboards`);
  await answerPdf(req, res, deps, names);
}

/**
 * The scheduler's delivery (pkg/reports ReportScheduler): renders a stored report as its organization (no caller:
 * every dashboard and data source of the organization is readable, as the anchor's scheduler renders as the report)
 * and emails it to its recipients; throws, for the scheduler to log, when SMTP is off, a dashboard is gone or the
 * mail server refuses it.
 */
export function deliverScheduled(deps: AdapterDeps): ReportDelivery {
  return async (orgId, report) => {
    if (!deps.mailer.enabled) throw new Error(SMTP_NOT_CONFIGURED);
    const ctx: RequestContext = { requester: { identity: 'service:report-scheduler' }, namespace: deps.registry.namespaces.of(orgId), fieldManager: 'report-scheduler' };
    const dashboards = [];
    for (const d of report.spec.dashboards) dashboards.push(await deps.registry.get(ctx, dashboardKind, d.uid));
    const { attachments, links } = await reportAttachments(deps, ctx, report.spec, dashboards);
    const branding = (await deps.reports.settings(orgId))?.spec.branding ?? DEFAULT_BRANDING;
    await deps.mailer.send(reportEmail(report.spec, report.spec.recipients, links, branding, attachments));
  };
}
