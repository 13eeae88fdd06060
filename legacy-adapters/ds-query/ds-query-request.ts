import { StatusError } from '../../pkg/errors';
import type { DataQuery, TimeRange } from '../../pkg/plugins';
import { dataSourceKind } from '../../apis';
import { type DataSourceRef, DataSourceRouteMessages, type ResolvedDataSource } from '../../pkg/plugins/instances';
import type { RequestContext } from '../../pkg/registry';
import type { AdapterDeps } from '../shared';
import { parseTimeRange } from '../../pkg/plugins/time-range';

/**
 * The body of POST /api/ds/query read as the anchor reads it (anchor-breadth §3.1, §3.2; spec §4.5, §8): the range,
 * and each query with its defaults and its data source reference. Pure: the data sources are resolved afterwards.
 */

/** A query with where it goes. */
export interface RoutedQuery {
  ref: DataSourceRef | { name: string };
  query: DataQuery;
}

export interface ParsedQueryRequest {
  range: TimeRange;
  queries: RoutedQuery[];
}

export const DEFAULT_MAX_DATA_POINTS = 100;
export const DEFAULT_INTERVAL_MS = 1000;
/** Ours: more queries than a dashboard has panels times targets is no dashboard's request. */
export const MAX_QUERIES = 1000;

/** The anchor's errutil body (`{statusCode, messageId, message}`) of its query validation errors. */
export function errutil(status: number, messageId: string, message: string): StatusError {
  return new StatusError(status, status === 404 ? 'NotFound' : 'BadRequest', message, undefined, 'Failure', { statusCode: status, messageId, message });
}

export const QueryErrors = {
  badRequest: () => StatusError.badRequest('bad request data'),
  noQueries: () => errutil(400, 'query.noQueries', 'No queries found'),
  noDataSource: () => errutil(400, 'query.invalidDatasourceId', 'Query does not contain a valid data source identifier'),
  // The anchor's text ends with a space.
  duplicateRefId: () => errutil(400, 'query.duplicateRefId', 'Multiple queries using the same RefId is not allowed '),
  expressions: () => errutil(400, 'query.expressionsNotSupported', 'Server-side expressions (data source __expr__) are not supported'),
  tooMany: () => errutil(400, 'query.tooManyQueries', `At most ${MAX_QUERIES} queries per request`),
};

/**
 * A positive integer setting of a query: absent, null or 0 take the default; a positive number (or a string of
 * one) is floored; anything else is 400 "bad request data" (a plugin must never loop on a step of NaN).
 */
function positive(v: unknown, def: number): number {
  if (v === undefined || v === null || v === 0 || v === '') return def;
  const n = typeof v === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw QueryErrors.badRequest();
  return Math.max(1, Math.floor(n));
}

/** Where a query goes: `datasource: {uid}`, the legacy string (a uid or a name) or `datasourceId`. */
function refOf(q: Record<string, unknown>): DataSourceRef | { name: string } {
  const ds = q.datasource;
  if (ds && typeof ds === 'object' && !Array.isArray(ds)) {
    const uid = (ds as Record<string, unknown>).uid;
    if (typeof uid === 'string' && uid !== '') {
      if (uid === '__expr__' || uid === '-100') throw QueryErrors.expressions();
      return { uid };
    }
  } else if (typeof ds === 'string' && ds !== '') {
    if (ds === '__expr__') throw QueryErrors.expressions();
    return { name: ds };
  }
  const id = q.datasourceId;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return { id };
  throw QueryErrors.noDataSource();
}

/**
 * The request: 400 "bad request data" for a body that is no object or of wrong types, "No queries found", a query
 * without a data source, duplicate refIds; `from`/`to` as pkg/plugins/time-range.ts (400 for anything else). Hidden
 * queries (`hide: true`) are left out.
 *
 * @example parseQueryRequest({ from: 'now-1h', to: 'now', queries: [{ datasource: { uid: 'td' } }] }).queries[0].query.refId // 'A'
 */
export function parseQueryRequest(body: unknown, now = Date.now()): ParsedQueryRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw QueryErrors.badRequest();
  const b = body as Record<string, unknown>;
  for (const bound of [b.from, b.to]) if (bound !== undefined && typeof bound !== 'string' && typeof bound !== 'number') throw QueryErrors.badRequest();
  if (b.queries !== undefined && b.queries !== null && !Array.isArray(b.queries)) throw QueryErrors.badRequest();
  const raw = (b.queries ?? []) as unknown[];
  if (raw.length === 0) throw QueryErrors.noQueries();
  if (raw.length > MAX_QUERIES) throw QueryErrors.tooMany();
  const queries: RoutedQuery[] = [];
  const refIds = new Set<string>();
  for (const q of raw) {
    if (!q || typeof q !== 'object' || Array.isArray(q)) throw QueryErrors.badRequest();
    const m = q as Record<string, unknown>;
    if (m.refId !== undefined && m.refId !== null && typeof m.refId !== 'string') throw QueryErrors.badRequest();
    if (m.queryType !== undefined && m.queryType !== null && typeof m.queryType !== 'string') throw QueryErrors.badRequest();
    const refId = (m.refId as string | undefined) || 'A';
    const ref = refOf(m);
    const query: DataQuery = {
      refId,
      maxDataPoints: positive(m.maxDataPoints, DEFAULT_MAX_DATA_POINTS),
      intervalMs: positive(m.intervalMs, DEFAULT_INTERVAL_MS),
      queryType: (m.queryType as string | undefined) ?? '',
      model: m,
    };
    if (refIds.has(refId)) throw QueryErrors.duplicateRefId();
    refIds.add(refId);
    if (m.hide === true) continue;
    queries.push({ ref, query });
  }
  return { range: parseTimeRange(b.from, b.to, now), queries };
}

/**
 * The data source a query names: by uid or id; by name, a uid first (as the anchor tries it), else the one of that
 * name. `deniedMessage` words the 403 of a source the caller may not query; `byNameUnfiltered` finds a name among
 * every data source of the org, so that one the caller may not query is a 403, not a 404 (POST /api/ds/query).
 *
 * @example const source = await resolveQuerySource(deps, ctx, query.ref);
 */
export async function resolveQuerySource(deps: AdapterDeps, ctx: RequestContext, ref: RoutedQuery['ref'], opts: { deniedMessage?: string; byNameUnfiltered?: boolean } = {}): Promise<ResolvedDataSource> {
  const resolveOpts = opts.deniedMessage === undefined ? {} : { deniedMessage: opts.deniedMessage };
  if (!('name' in ref)) return deps.dataSources.resolve(ctx, ref as DataSourceRef, resolveOpts);
  try {
    return await deps.dataSources.resolve(ctx, { uid: ref.name }, resolveOpts);
  } catch (err) {
    if (!(err instanceof StatusError) || (err.code !== 404 && err.code !== 400)) throw err;
  }
  const all = await deps.registry.list(opts.byNameUnfiltered ? { ...ctx, access: undefined } : ctx, dataSourceKind, {});
  const found = all.items.find((d) => d.spec.name === ref.name);
  if (!found) throw new StatusError(404, 'NotFound', DataSourceRouteMessages.notFound);
  return deps.dataSources.resolve(ctx, { uid: found.metadata.name }, resolveOpts);
}
