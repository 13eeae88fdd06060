import express, { type Request, type Response } from 'express';
import { annotationKind as typedAnnotationKind, folderKind as typedFolderKind, PUBLIC_DASHBOARD_LABELS } from '../../apis';
import { ANNOTATION_LABELS, parseTag, tagFilterLabel } from '../../apis/annotation.svc.app/v1beta1/annotation';
import { StatusError } from '../../pkg/errors';
import { anyKind, type JsonObject, labelKey, type Resource } from '../../pkg/meta';
import type { ResolvedDataSource } from '../../pkg/plugins/instances';
import { parseTimeRange } from '../../pkg/plugins/time-range';
import type { Registry, RequestContext } from '../../pkg/registry';
import { type AdapterDeps, queryInt } from '../shared';
import { parseQueryRequest, resolveQuerySource } from '../ds-query/ds-query-request';
import { type PlannedQuery, runQueries } from '../ds-query/ds-query-run';
import { folderUidOf, legacyIdOf } from '../dashboards/dashboards-conversions';
import { isValidAccessToken, PublicDashboardErrors as Errors, toPublicView } from './public-dashboards-conversions';
import { annotationQueries, panelQueries, parsePublicQueryRequest, safeIntervalAndMaxDataPoints, timeSettings } from './public-dashboards-query';
import { dashboardKind, publicDashboardKind } from './public-dashboards-routes';

const annotationKind = anyKind(typedAnnotationKind);
const folderKind = anyKind(typedFolderKind);

/**
 * The anonymous routes of a public dashboard (the anchor's /api/public/dashboards/:accessToken...): no credentials,
 * the access token is the secret, and only while the public dashboard is enabled. They act as the server in the
 * organization of the token's public dashboard, and reach nothing but that dashboard, its annotations and the data
 * sources its panels name.
 */

/** The server's own context in the public dashboard's namespace: the token, not a caller, authorized the request. */
const serverContext = (namespace: string): RequestContext => ({ requester: { identity: 'service:public-dashboards' }, namespace, fieldManager: 'public-dashboards' });

interface Shared {
  publicDashboard: Resource;
  dashboard: Resource;
  ctx: RequestContext;
}

/**
 * The enabled public dashboard of the token, with its dashboard: 400 "Invalid access token", 404 "Public dashboard
 * not found" (also e-mail sharing, the anchor's licensed feature), 403 "Public dashboard paused", 404 "Dashboard not
 * found", as the anchor answers them.
 */
async function sharedBy(registry: Registry, token: string): Promise<Shared> {
  if (!isValidAccessToken(token)) throw Errors.invalidAccessToken();
  const [publicDashboard] = await registry.findByLabels(publicDashboardKind, { [PUBLIC_DASHBOARD_LABELS.accessToken]: token }, 1);
  if (!publicDashboard || publicDashboard.spec.accessToken !== token) throw Errors.notFound();
  if (publicDashboard.spec.isEnabled !== true) throw Errors.paused();
  if (publicDashboard.spec.share === 'email') throw Errors.notFound();
  const ctx = serverContext(publicDashboard.metadata.namespace!);
  try {
    return { publicDashboard, dashboard: await registry.get(ctx, dashboardKind, String(publicDashboard.spec.dashboardUid)), ctx };
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) throw Errors.dashboardNotFound();
    throw err;
  }
}

/** `GET /api/public/dashboards/:accessToken`: the dashboard as a visitor sees it. */
export async function viewPublicDashboard(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const { publicDashboard, dashboard, ctx } = await sharedBy(registry, String(req.params.accessToken));
  const folder = folderUidOf(dashboard);
  const folderId = folder ? await registry.get(ctx, folderKind, folder).then(legacyIdOf, () => 0) : 0;
  res.json(toPublicView(publicDashboard, dashboard, folderId));
}

/** The anchor's AnnotationEvent of a stored annotation, as answered for `query`. */
function toEvent(a: Resource, source: JsonObject, dashboard: Resource, withPanel: boolean) {
  const { spec } = a;
  const time = Number(spec.time);
  const timeEnd = Number(spec.timeEnd);
  return {
    id: Number(a.metadata.name),
    dashboardId: spec.dashboardUID === dashboard.metadata.name ? legacyIdOf(dashboard) : 0,
    panelId: withPanel ? Number(spec.panelId ?? 0) : 0,
    tags: (spec.tags as string[] | undefined) ?? [],
    isRegion: timeEnd > 0 && time !== timeEnd,
    text: String(spec.text ?? ''),
    color: typeof source.iconColor === 'string' ? source.iconColor : '',
    time,
    timeEnd,
    source,
  };
}

/**
 * `GET /api/public/dashboards/:accessToken/annotations?from=&to=` (ms): while annotations are enabled, what the
 * dashboard's enabled annotation queries of the built-in data source find: the dashboard's own annotations, or the
 * organization's with the query's tags. Empty when annotations are not enabled.
 */
export async function getPublicAnnotations(req: Request, res: Response, { registry }: AdapterDeps): Promise<void> {
  const { publicDashboard, dashboard, ctx } = await sharedBy(registry, String(req.params.accessToken));
  if (publicDashboard.spec.annotationsEnabled !== true) return void res.json([]);
  const from = queryInt(req.query.from);
  const to = queryInt(req.query.to);
  const inRange = (a: Resource) => !(from > 0 && to > 0) || (Number(a.spec.time) <= to && Number(a.spec.timeEnd) >= from);
  const events = new Map<number, ReturnType<typeof toEvent>>();
  for (const q of annotationQueries(dashboard.spec)) {
    const selectors = q.tags
      ? q.tags.map(parseTag).filter((t) => t !== undefined).map((t) => tagFilterLabel(t))
      : [`${ANNOTATION_LABELS.dashboard}=${labelKey(dashboard.metadata.name)}`];
    if (!selectors.length) continue;
    // All the tags, or (matchAny) any of them: one selector, or one per tag.
    const lists = q.tags && q.matchAny ? selectors.map((s) => [s]) : [selectors];
    const found = new Map<string, Resource>();
    for (const list of lists) for (const a of (await registry.list(ctx, annotationKind, { labelSelector: list.join(',') })).items) found.set(a.metadata.name, a);
    const items = [...found.values()].filter(inRange).sort((a, b) => Number(b.spec.time) - Number(a.spec.time) || Number(b.metadata.name) - Number(a.metadata.name)).slice(0, q.limit);
    for (const a of items) {
      const event = toEvent(a, q.source, dashboard, q.source.type === 'dashboard');
      // Events of tag queries replace those of others.
      if (!events.has(event.id) || q.tags) events.set(event.id, event);
    }
  }
  res.json([...events.values()].sort((a, b) => b.time - a.time || b.id - a.id));
}

/**
 * The request body as JSON. The public routes answer before the server's body parsers (they run ahead of
 * authentication), so the query route parses its own; a body that is no JSON is 400 "Bad request".
 */
async function jsonBody(req: Request, res: Response, limit: number): Promise<unknown> {
  if (req.body !== undefined) return req.body;
  try {
    await new Promise<void>((resolve, reject) => express.json({ limit, strict: false, type: () => true })(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    if ((err as { status?: number }).status === 413) throw new StatusError(413, 'RequestEntityTooLarge', 'request entity too large');
    throw Errors.badRequest();
  }
  return req.body ?? {};
}

/**
 * `POST /api/public/dashboards/:accessToken/panels/:panelId/query`: the panel's queries as the dashboard saved them
 * (never a visitor's), through the data source query pipeline of POST /api/ds/query, over the dashboard's time (or
 * the visitor's, when time selection is enabled), at a safe interval; the executed query texts are left out.
 */
export async function queryPublicDashboard(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const token = String(req.params.accessToken);
  if (!isValidAccessToken(token)) throw Errors.invalidAccessToken();
  const panelParam = String(req.params.panelId);
  if (!/^-?[0-9]{1,15}$/.test(panelParam)) throw Errors.invalidPanelId();
  const body = parsePublicQueryRequest(await jsonBody(req, res, deps.config.server.max_request_body_bytes));
  if (!body) throw Errors.badRequest();
  const { publicDashboard, dashboard, ctx } = await sharedBy(deps.registry, token);
  const timeSelection = publicDashboard.spec.timeSelectionEnabled === true;
  if (body.intervalMs < 0) throw Errors.invalidInterval();
  if (body.maxDataPoints < 0) throw Errors.invalidMaxDataPoints();
  const now = Date.now();
  const valid = (from: string, to: string) => {
    try {
      parseTimeRange(from, to, now);
      return true;
    } catch {
      return false;
    }
  };
  if (timeSelection && (body.timeRange.from !== '' || body.timeRange.to !== '') && !valid(body.timeRange.from || 'now-6h', body.timeRange.to || 'now')) throw Errors.invalidTimeRange();
  const panelId = Number(panelParam);
  const queries = panelQueries(dashboard.spec, panelId);
  if (!queries) throw Errors.panelNotFound();
  if (!queries.length) throw Errors.panelQueriesNotFound();
  const time = timeSettings(dashboard.spec, panelId, body, timeSelection);
  let range;
  try {
    range = parseTimeRange(time.from, time.to, now);
  } catch {
    throw Errors.invalidTimeRange();
  }
  const safe = safeIntervalAndMaxDataPoints(body, range);
  const parsed = parseQueryRequest({ from: range.from, to: range.to, queries: queries.map((q) => ({ ...q, ...safe })) }, now);
  const sources = new Map<string, Promise<ResolvedDataSource>>();
  const planned: PlannedQuery[] = [];
  for (const q of parsed.queries) {
    const key = JSON.stringify(q.ref);
    if (!sources.has(key)) sources.set(key, resolveQuerySource(deps, ctx, q.ref));
    planned.push({ source: await sources.get(key)!, query: q.query });
  }
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(new Error('client closed the connection'));
  });
  const results = await runQueries(planned, {
    range: parsed.range,
    timeoutMs: deps.config.dataproxy.timeout * 1000,
    signal: gone.signal,
    rowLimit: deps.config.dataproxy.row_limit,
    userAgent: deps.userAgent,
  });
  // The anchor's sanitizeMetadataFromQueryData: a visitor never sees the query a data source ran.
  for (const entry of Object.values(results)) for (const frame of entry.frames ?? []) if (frame.schema.meta) delete frame.schema.meta.executedQueryString;
  const failed = Object.values(results).some((r) => r.error !== undefined);
  res.status(failed ? 400 : 200).json({ results });
}
