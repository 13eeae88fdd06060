import type { JsonObject } from '../../pkg/meta';
import { flattenedPanels } from './public-dashboards-conversions';

/**
 * What a public dashboard's panel queries, read from the stored dashboard (the anchor's buildMetricRequest): only the
 * panels of that dashboard, each query as saved, over the time the public dashboard allows. Pure.
 */

/** The anchor's hard cap on points per series of a public query (Prometheus' limit). */
export const SAFE_RESOLUTION = 11_000;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body of `POST .../panels/:panelId/query` (the anchor's PublicDashboardQueryDTO). */
export interface PublicQueryRequest {
  intervalMs: number;
  maxDataPoints: number;
  timeRange: { from: string; to: string; timezone: string };
}

/** The body as the anchor binds it: numbers and strings of their types (absent: 0 and ''), else undefined. */
export function parsePublicQueryRequest(body: unknown): PublicQueryRequest | undefined {
  if (!isObject(body)) return undefined;
  const num = (v: unknown) => (v === undefined || v === null ? 0 : typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : undefined);
  const intervalMs = num(body.intervalMs);
  const maxDataPoints = num(body.maxDataPoints);
  if (intervalMs === undefined || maxDataPoints === undefined || num(body.queryCachingTTL) === undefined) return undefined;
  const tr = body.timeRange ?? {};
  if (!isObject(tr)) return undefined;
  const [from, to, timezone] = [str(tr.from), str(tr.to), str(tr.timezone)];
  if (from === undefined || to === undefined || timezone === undefined) return undefined;
  return { intervalMs, maxDataPoints, timeRange: { from, to, timezone } };
}

/** The data source a panel or query names: `{uid}`, or the pre-8.3 string. */
function dataSourceOf(o: JsonObject): unknown {
  return o.datasource;
}

/**
 * The queries of panel `panelId` (in a collapsed row too), undefined when the dashboard has no such panel: hidden
 * queries left out, a query without a data source given its panel's, exemplars dropped (the anchor does not support
 * them publicly).
 */
export function panelQueries(model: JsonObject, panelId: number): JsonObject[] | undefined {
  const panel = flattenedPanels(model).find((p) => p.id === panelId);
  if (!panel) return undefined;
  const out: JsonObject[] = [];
  for (const target of Array.isArray(panel.targets) ? panel.targets : []) {
    if (!isObject(target) || target.hide === true) continue;
    const { exemplar: _exemplar, ...query } = target;
    if (query.datasource === undefined && panel.datasource !== undefined) query.datasource = dataSourceOf(panel) as JsonObject;
    out.push(query);
  }
  return out;
}

/**
 * The range a panel is queried over: the dashboard's `time`, its panel's relative `timeFrom` (a top-level panel's),
 * or, when the public dashboard lets visitors pick the time and they did, theirs. '' is none (the default range).
 */
export function timeSettings(model: JsonObject, panelId: number, req: PublicQueryRequest, timeSelectionEnabled: boolean): { from?: string; to?: string } {
  const time = isObject(model.time) ? model.time : {};
  let from = typeof time.from === 'string' ? time.from : '';
  let to = typeof time.to === 'string' ? time.to : '';
  const panel = (Array.isArray(model.panels) ? model.panels : []).find((p) => isObject(p) && p.id === panelId) as JsonObject | undefined;
  if (panel && typeof panel.timeFrom === 'string' && panel.timeFrom !== '') from = panel.timeFrom;
  if (timeSelectionEnabled && req.timeRange.from !== '' && req.timeRange.to !== '') [from, to] = [req.timeRange.from, req.timeRange.to];
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/**
 * The interval and points a query gets (the anchor's getSafeIntervalAndMaxDataPoints): the visitor's, when its
 * interval is coarser than the range split in {@link SAFE_RESOLUTION} points; else that safe interval and cap, so
 * that no visitor makes a data source compute more.
 */
export function safeIntervalAndMaxDataPoints(req: PublicQueryRequest, range: { from: number; to: number }): { intervalMs: number; maxDataPoints: number } {
  const safe = Math.max(1, Math.ceil((range.to - range.from) / SAFE_RESOLUTION));
  return req.intervalMs > safe ? { intervalMs: req.intervalMs, maxDataPoints: req.maxDataPoints } : { intervalMs: safe, maxDataPoints: SAFE_RESOLUTION };
}

/** One enabled annotation query of the dashboard served publicly: on the built-in data source only. */
export interface PublicAnnotationQuery {
  source: JsonObject;
  /** `tags`: the organization's annotations with these tags; else the dashboard's own. */
  tags?: string[];
  matchAny: boolean;
  limit: number;
}

const BUILT_IN = ['svc', '-- Svc --'];

/** The annotation queries a visitor gets (the anchor's: enabled ones of the built-in data source). */
export function annotationQueries(model: JsonObject): PublicAnnotationQuery[] {
  const list = isObject(model.annotations) && Array.isArray(model.annotations.list) ? model.annotations.list : [];
  const out: PublicAnnotationQuery[] = [];
  for (const a of list) {
    if (!isObject(a) || a.enable !== true) continue;
    const ds = a.datasource;
    const uid = isObject(ds) ? ds.uid : ds;
    if (typeof uid !== 'string' || !BUILT_IN.includes(uid)) continue;
    const target = isObject(a.target) ? a.target : {};
    const limit = typeof target.limit === 'number' && target.limit > 0 ? target.limit : 100;
    const tags = target.type === 'tags' ? (Array.isArray(target.tags) ? target.tags.filter((t): t is string => typeof t === 'string') : []) : undefined;
    out.push({ source: a, ...(tags ? { tags } : {}), matchAny: target.matchAny === true, limit });
  }
  return out;
}
