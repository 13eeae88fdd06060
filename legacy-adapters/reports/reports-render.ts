import { StatusError } from '../../pkg/errors';
import { type JsonObject, type Resource } from '../../pkg/meta';
import type { FrameJSON } from '../../pkg/plugins/frames';
import type { RequestContext } from '../../pkg/registry';
import type { MailAttachment } from '../../pkg/mail';
import { csvOf, panelContent, type PdfDashboard, type ReportPanel, renderReportPdf } from '../../pkg/reports';
import type { AdapterDeps } from '../shared';
import { parseQueryRequest, resolveQuerySource } from '../ds-query/ds-query-request';
import { type PlannedQuery, runQueries } from '../ds-query/ds-query-run';
import { flattenedPanels } from '../public-dashboards/public-dashboards-conversions';
import { panelQueries } from '../public-dashboards/public-dashboards-query';
import { reportTime } from './reports-conversions';
import { interpolate, interpolateText, variableValues } from './reports-variables';

/**
 * A report's content: each dashboard's panels with the data their saved queries answer, run through the server's
 * data source query pipeline (that of POST /api/ds/query and the public dashboards: the same plugins, limits and
 * deadline) as the report's reader, then drawn as a PDF (pkg/reports).
 */

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEFAULT_RANGE = { from: 'now-6h', to: 'now' };
/** The points a panel's query asks for: about a page's width. */
const MAX_DATA_POINTS = 500;

/** The range a dashboard is rendered over: the report's (dashboard, then report-wide), else the dashboard's own. */
export function rangeOf(model: JsonObject, ...candidates: readonly ({ from: string; to: string } | undefined)[]): { from: string; to: string } {
  for (const c of candidates) if (c && c.from !== '' && c.to !== '') return c;
  const time = isObject(model.time) ? model.time : {};
  return typeof time.from === 'string' && typeof time.to === 'string' && time.from !== '' && time.to !== '' ? { from: time.from, to: time.to } : DEFAULT_RANGE;
}

/** One panel's frames: its saved queries (hidden ones left out) run over `range`; a failure is the panel's error. */
async function panelFrames(deps: AdapterDeps, ctx: RequestContext, model: JsonObject, panel: JsonObject, range: { from: number; to: number }, login: string | undefined, values: ReadonlyMap<string, readonly string[]>): Promise<{ frames: FrameJSON[]; error?: string }> {
  const queries = (typeof panel.id === 'number' ? panelQueries(model, panel.id) ?? [] : []).map((q) => interpolate(q, values));
  if (!queries.length) return { frames: [] };
  try {
    const intervalMs = Math.max(1, Math.ceil((range.to - range.from) / MAX_DATA_POINTS));
    const parsed = parseQueryRequest({ from: String(range.from), to: String(range.to), queries: queries.map((q) => ({ ...q, intervalMs, maxDataPoints: MAX_DATA_POINTS })) });
    const planned: PlannedQuery[] = [];
    for (const q of parsed.queries) planned.push({ source: await resolveQuerySource(deps, ctx, q.ref), query: q.query });
    const results = await runQueries(planned, {
      range: parsed.range,
      timeoutMs: deps.config.dataproxy.timeout * 1000,
      signal: new AbortController().signal,
      rowLimit: deps.config.dataproxy.row_limit,
      userAgent: deps.userAgent,
      ...(login ? { login } : {}),
    });
    const entries = Object.values(results);
    const error = entries.find((e) => e.error !== undefined)?.error;
    return { frames: entries.flatMap((e) => e.frames ?? []), ...(error !== undefined ? { error } : {}) };
  } catch (err) {
    return { frames: [], error: err instanceof Error ? err.message : String(err) };
  }
}

/** What a dashboard is rendered as, and its panels' frames (for the CSV attachments). */
export interface RenderedDashboard {
  pdf: PdfDashboard;
  frames: { title: string; type: string; frames: FrameJSON[] }[];
}

/**
 * A dashboard's content over `range` (date math, epoch ms or RFC 3339): every panel but rows, in order, with what
 * its queries answered as `ctx`'s caller (a data source it may not query is that panel's error), its template
 * variables at their current values unless `variables` (later ones first) name others.
 */
export async function renderDashboard(deps: AdapterDeps, ctx: RequestContext, dashboard: Resource, range: { from: string; to: string }, timeZone: string, login?: string, ...variables: readonly (Record<string, unknown> | undefined)[]): Promise<RenderedDashboard> {
  const model = dashboard.spec as JsonObject;
  const values = variableValues(model, ...variables);
  const now = Date.now();
  const from = reportTime(range.from, false, now);
  const to = reportTime(range.to, true, now);
  if (from === undefined || to === undefined || from > to) throw StatusError.badRequest(`invalid time range ${JSON.stringify(`${range.from} to ${range.to}`)}`);
  const panels: ReportPanel[] = [];
  const frames: RenderedDashboard['frames'] = [];
  for (const panel of flattenedPanels(model)) {
    if (panel.type === 'row') continue;
    const title = typeof panel.title === 'string' ? interpolateText(panel.title, values) : '';
    const type = typeof panel.type === 'string' ? panel.type : '';
    const data = await panelFrames(deps, ctx, model, panel, { from, to }, login, values);
    panels.push(panelContent(title, type, data.frames, data.error));
    frames.push({ title, type, frames: data.frames });
  }
  const url = `${deps.config.server.root_url.replace(/\/$/, '')}/d/${dashboard.metadata.name}`;
  return { pdf: { title: String(model.title ?? dashboard.metadata.name), from, to, timeZone, panels, url }, frames };
}

/** The CSV attachments of rendered dashboards: one per table panel with rows (the anchor's `csv` format). */
export function csvAttachments(rendered: readonly RenderedDashboard[]): MailAttachment[] {
  const out: MailAttachment[] = [];
  const used = new Set<string>();
  for (const d of rendered) {
    for (const p of d.frames) {
      if (!p.frames.some((f) => f.schema.fields.length > 0)) continue;
      if (p.type !== 'table' && p.frames.some((f) => f.schema.fields.some((x) => x.type === 'time'))) continue;
      let name = `${(p.title || 'panel').replace(/[^A-Za-z0-9 _.-]/g, '_')}.csv`;
      for (let n = 2; used.has(name); n++) name = `${(p.title || 'panel').replace(/[^A-Za-z0-9 _.-]/g, '_')} (${n}).csv`;
      used.add(name);
      out.push({ filename: name, content: Buffer.from(csvOf(p.frames)), contentType: 'text/csv' });
    }
  }
  return out;
}

export { renderReportPdf };
