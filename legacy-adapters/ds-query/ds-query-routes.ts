import type { Request, Response } from 'express';
import { isAnonymous } from '../../pkg/auth/authorization/org-access';
import { StatusError } from '../../pkg/errors';
import type { DataSourcePlugin, HealthResult, ResourceRequest } from '../../pkg/plugins';
import { type DataSourceRef, DataSourceRouteMessages, type ResolvedDataSource } from '../../pkg/plugins/instances';
import type { RequestContext } from '../../pkg/registry';
import { type AdapterDeps, idParam, requestContext } from '../shared';
import { errutil, parseQueryRequest, resolveQuerySource, type RoutedQuery } from './ds-query-request';
import { type PlannedQuery, runQueries } from './ds-query-run';

/**
 * POST /api/ds/query, and the health and resources of a data source (spec §4.5, anchor-breadth §1.11, §1.12, §3):
 * thin routes over pkg/plugins. The data sources are resolved by `deps.dataSources` (the caller's organization,
 * `datasources:query`), the plugins do the rest.
 */


const ctxOf = (req: Request, deps: AdapterDeps): RequestContext => requestContext(req, deps.registry);
const timeoutMs = (deps: AdapterDeps) => deps.config.dataproxy.timeout * 1000;

/** Aborted when the client goes away before the answer is written. */
function clientSignal(res: Response): AbortSignal {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(new Error('client closed the connection'));
  });
  return gone.signal;
}

/** A data source named by its name (the legacy string form of `datasource`), or by a uid written there. */
/**
 * POST /api/ds/query. Every query's data source is resolved first (one of them unknown: 404; not queryable by the
 * caller: 403), then the queries run. The answer is 200 when every entry succeeded, else 400 with every entry, the
 * successful ones included (the anchor's ds_query.go; its OpenAPI document's 207 is not what its code answers).
 */
export async function queryDataSources(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const parsed = parseQueryRequest(req.body);
  const sources = new Map<string, Promise<ResolvedDataSource>>();
  const ctx = ctxOf(req, deps);
  const resolve = (ref: RoutedQuery['ref']) => {
    const key = JSON.stringify(ref);
    let found = sources.get(key);
    if (!found) {
      found = resolveQuerySource(deps, ctx, ref, { deniedMessage: DataSourceRouteMessages.queryAccessDenied, byNameUnfiltered: true });
      sources.set(key, found);
    }
    return found;
  };
  // In order, so that the first bad reference decides the answer (not whichever lookup ends first).
  const planned: PlannedQuery[] = [];
  for (const q of parsed.queries) planned.push({ source: await resolve(q.ref), query: q.query });
  const results = await runQueries(planned, {
    range: parsed.range,
    timeoutMs: timeoutMs(deps),
    signal: clientSignal(res),
    rowLimit: deps.config.dataproxy.row_limit,
    userAgent: deps.userAgent,
    login: deps.config.dataproxy.send_user_header && req.user && !isAnonymous(req.user) ? req.user.login : undefined,
  });
  const failed = Object.values(results).some((r) => r.error !== undefined);
  res.status(failed ? 400 : 200).json({ results });
}

/** The data source of a health or resources route: `:uid`, or the deprecated numeric `:id`. */
function refOf(req: Request): DataSourceRef {
  if (req.params.uid !== undefined) return { uid: String(req.params.uid) };
  return { id: idParam(req, 'id', 'id is invalid') };
}

/** A plugin serves it, else the anchor's errutil 404. */
function pluginOf(source: ResolvedDataSource): DataSourcePlugin {
  if (!source.plugin) throw errutil(404, 'plugin.notRegistered', 'Plugin not registered');
  return source.plugin;
}

/** Runs `fn` with a signal aborted after `dataproxy.timeout` or when the client goes; undefined when it timed out. */
async function withDeadline<T>(res: Response, deps: AdapterDeps, fn: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  const deadline = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      deadline.abort(new Error('timeout'));
      resolve(undefined);
    }, timeoutMs(deps));
  });
  try {
    return await Promise.race([fn(AbortSignal.any([deadline.signal, clientSignal(res)])), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/datasources/uid/:uid/health (and /:id/health): the plugin's check; OK is 200, ERROR and UNKNOWN are 400
 * with the same body (anchor-breadth §1.11), a check that timed out is ERROR.
 */
export async function checkDataSourceHealth(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const source = await deps.dataSources.resolve(ctxOf(req, deps), refOf(req));
  const plugin = pluginOf(source);
  let result: HealthResult | undefined;
  try {
    result = await withDeadline(res, deps, (signal) => plugin.checkHealth(source.instance, signal));
  } catch (err) {
    deps.log.warn('a data source health check failed', { plugin: plugin.id, uid: source.instance.uid, error: err instanceof Error ? err.message : String(err) });
    throw new StatusError(500, 'InternalError', 'Plugin health check failed');
  }
  result ??= { status: 'ERROR', message: `Health check timed out after ${deps.config.dataproxy.timeout}s` };
  const body = { status: result.status, message: result.message, ...(result.details ? { details: result.details } : {}) };
  res.status(result.status === 'OK' ? 200 : 400).json(body);
}

/** Request headers a plugin never sees: the caller's credentials, and what belongs to this hop only. */
const WITHHELD_REQUEST_HEADERS = new Set(['authorization', 'cookie', 'x-svc-org-id', 'connection', 'keep-alive', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);
/** Response headers a plugin may not set: the server's own session, and framing. */
const WITHHELD_RESPONSE_HEADERS = new Set(['set-cookie', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'trailer', 'upgrade']);

/** The path after `resources` (no leading slash, still percent-encoded) and the query string of the request. */
function resourcePath(req: Request): { path: string; query: string } {
  const [pathname, ...q] = req.originalUrl.split('?');
  const at = pathname!.search(/\/resources(\/|$)/);
  return { path: pathname!.slice(at + '/resources'.length).replace(/^\/+/, ''), query: q.join('?') };
}

/** The request body as bytes: the JSON text the body parser kept, else the unread stream (bounded). */
async function bodyBytes(req: Request, limit: number): Promise<Buffer> {
  const raw = (req as unknown as { rawBody?: unknown }).rawBody;
  if (typeof raw === 'string') return Buffer.from(raw, 'utf8');
  if (req.readableEnded || req.method === 'GET' || req.method === 'HEAD') return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new StatusError(413, 'RequestEntityTooLarge', 'request entity too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Any method on /api/datasources/uid/:uid/resources/* (and /:id/resources/*): the plugin's resource handler gets
 * the method, the path below `resources/`, the query string, the headers without the caller's credentials and the
 * body; its status, headers (but cookies) and body are the answer. A plugin without resources: 404.
 */
export async function callDataSourceResource(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const source = await deps.dataSources.resolve(ctxOf(req, deps), refOf(req));
  const plugin = pluginOf(source);
  if (!plugin.resources) throw new StatusError(404, 'NotFound', 'Not found');
  const { path, query } = resourcePath(req);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !WITHHELD_REQUEST_HEADERS.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const body = await bodyBytes(req, deps.config.server.max_request_body_bytes);
  let answer;
  try {
    answer = await withDeadline(res, deps, (signal) => plugin.resources!(source.instance, { method: req.method, path, query, headers, body, signal } satisfies ResourceRequest));
  } catch (err) {
    deps.log.warn('a data source resource call failed', { plugin: plugin.id, uid: source.instance.uid, error: err instanceof Error ? err.message : String(err) });
    throw new StatusError(500, 'InternalError', 'Plugin request failed');
  }
  if (!answer) throw new StatusError(504, 'Timeout', `The data source did not answer within ${deps.config.dataproxy.timeout}s`);
  for (const [k, v] of Object.entries(answer.headers)) if (!WITHHELD_RESPONSE_HEADERS.has(k.toLowerCase())) res.setHeader(k, v);
  // What an upstream answered is shown as data, never run as a page of this origin.
  res.setHeader('Content-Security-Policy', 'sandbox');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.status(answer.status).send(answer.body);
}
