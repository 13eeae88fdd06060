import type { Request, Response } from 'express';
import { dashboardKind as typedDashboardKind, type ReportSpec } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { anyKind, type JsonObject, Labels, type Resource } from '../../pkg/meta';
import type { RequestContext } from '../../pkg/registry';
import { reportIdOf, type ReportWriter, type StoredReport } from '../../pkg/reports';
import { type AdapterDeps, requestContext } from '../shared';
import { type DashboardRef, toConfigDTO, toReportSpec, toSettingsDTO, toSettingsSpec } from './reports-conversions';

export const dashboardKind = anyKind(typedDashboardKind);

/** The anchor's reporting messages (its Reporting API documentation). */
export const ReportMessages = {
  created: 'Report created',
  updated: 'Report updated',
  removed: 'Report config was removed',
  sent: 'Report was sent',
  testSent: 'Test email sent',
  settingsSaved: 'Report settings saved',
  notFound: 'Report not found',
  invalidId: 'invalid report id',
  dashboardNotFound: 'Dashboard not found',
} as const;

export const reportNotFound = () => new StatusError(404, 'NotFound', ReportMessages.notFound);

/** The caller as a report's writer. */
export const writerOf = (req: Request): ReportWriter => ({ identity: req.user!.identity, login: req.user!.login, userId: req.user!.userId });

/** The `:id` of the path, else the anchor's 400. */
export function reportIdParam(req: Request): number {
  const v = String(req.params.id ?? '');
  if (!/^[1-9][0-9]{0,14}$/.test(v)) throw StatusError.badRequest(ReportMessages.invalidId);
  return Number(v);
}

/** The organization's dashboards as reports show them: id and title, by uid, read without the caller's access. */
export async function dashboardRefs(deps: AdapterDeps, req: Request, uids: readonly string[]): Promise<(uid: string) => DashboardRef> {
  const ctx: RequestContext = { ...requestContext(req, deps.registry), access: undefined };
  const found = new Map<string, DashboardRef>();
  for (const uid of new Set(uids)) {
    try {
      const d = await deps.registry.get(ctx, dashboardKind, uid);
      found.set(uid, { id: Number(d.metadata.labels?.[Labels.deprecatedInternalID] ?? 0), uid, name: String((d.spec as JsonObject).title ?? '') });
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  return (uid) => found.get(uid) ?? { id: 0, uid, name: '' };
}

/**
 * Each dashboard of a report, read as the caller: 404 "Dashboard not found" for one the organization does not have,
 * the registry's 403 for one the caller may not read (the anchor: access denied to a dashboard used in the report).
 */
export async function readableDashboards(deps: AdapterDeps, req: Request, spec: ReportSpec): Promise<Resource[]> {
  const ctx = requestContext(req, deps.registry);
  const out: Resource[] = [];
  for (const d of spec.dashboards) {
    try {
      out.push(await deps.registry.get(ctx, dashboardKind, d.uid));
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) throw new StatusError(404, 'NotFound', ReportMessages.dashboardNotFound);
      throw err;
    }
  }
  return out;
}

async function dto(deps: AdapterDeps, req: Request, reports: readonly StoredReport[]) {
  const refs = await dashboardRefs(deps, req, reports.flatMap((r) => r.spec.dashboards.map((d) => d.uid)));
  return reports.map((r) => toConfigDTO(r, req.user!.orgId, refs));
}

/** GET /api/reports: the organization's reports the caller may read (reports:read on each), by id. */
export async function listReports(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const all = await deps.reports.list(req.user!.orgId);
  const readable: StoredReport[] = [];
  for (const r of all) if (await req.access?.can('reports:read', `reports:id:${reportIdOf(r)}`)) readable.push(r);
  res.json(await dto(deps, req, readable));
}

/** GET /api/reports/:id */
export async function getReport(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = reportIdParam(req);
  const report = await deps.reports.get(req.user!.orgId, id);
  if (!report) throw reportNotFound();
  res.json((await dto(deps, req, [report]))[0]);
}

/** POST /api/reports: validated whole (400), its dashboards readable by the caller, then stored. */
export async function createReport(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const spec = toReportSpec(req.body);
  await readableDashboards(deps, req, spec);
  const created = await deps.reports.create(req.user!.orgId, writerOf(req), spec);
  res.json({ id: reportIdOf(created), message: ReportMessages.created });
}

/** PUT /api/reports/:id: the whole report replaced (its owner and id stay). */
export async function updateReport(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = reportIdParam(req);
  const spec = toReportSpec(req.body);
  if (!(await deps.reports.get(req.user!.orgId, id))) throw reportNotFound();
  await readableDashboards(deps, req, spec);
  if (!(await deps.reports.update(req.user!.orgId, writerOf(req), id, spec))) throw reportNotFound();
  res.json({ message: ReportMessages.updated });
}

/** DELETE /api/reports/:id */
export async function deleteReport(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const id = reportIdParam(req);
  if (!(await deps.reports.delete(req.user!.orgId, writerOf(req), id))) throw reportNotFound();
  res.json({ message: ReportMessages.removed });
}

/** GET /api/reports/settings: the organization's branding (defaults until saved). */
export async function getReportSettings(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json(toSettingsDTO(await deps.reports.settings(req.user!.orgId), req.user!.orgId));
}

/** POST /api/reports/settings: creates or replaces the organization's branding. */
export async function saveReportSettings(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const spec = toSettingsSpec(req.body);
  await deps.reports.saveSettings(req.user!.orgId, writerOf(req), spec);
  res.json({ message: ReportMessages.settingsSaved });
}
