import { basicAuthorization, credentialHeaders } from '../credentials';
import type { DataSourceInstance } from '../types';

/**
 * The outgoing HTTP client of a Prometheus data source (anchor-breadth §1.13): the data source URL joined with an
 * API path, its basic auth and custom headers, its timeout. Secrets go into headers only: no error text built here
 * holds a header value or the URL's user info.
 */

/** `[dataproxy] timeout`: the whole upstream request, unless `jsonData.timeout` (seconds) says otherwise. */
const DEFAULT_TIMEOUT_SECONDS = 30;

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Below the data source URL, without a leading slash: `api/v1/query`. */
  path: string;
  /** GET: the query string; POST: the form-encoded body, or the query string when `body` is given. */
  params: URLSearchParams;
  /** A body forwarded as is (resources), with its content type. */
  body?: { contentType: string; data: Buffer };
  signal: AbortSignal;
  userAgent: string;
  /** Extra headers of the caller's request that may go upstream (`Accept`). */
  headers?: Record<string, string>;
}

export interface UpstreamAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** The upstream could not be asked or did not answer in time: `status` 502 or 504 (the proxy's words). */
export class UpstreamUnreachable extends Error {
  constructor(
    message: string,
    readonly status: 502 | 504,
  ) {
    super(message);
  }
}

/** The data source URL unfit for an HTTP call (not http(s), unparsable). */
export class InvalidDataSourceUrl extends Error {}

/** `http://host:9090/prefix` → `http://host:9090/prefix/<path>`, without user info (returned apart). */
function target(ds: DataSourceInstance, path: string): { url: URL; userInfo?: { user: string; password: string } } {
  let base: URL;
  try {
    base = new URL(ds.url);
  } catch {
    throw new InvalidDataSourceUrl(`Invalid data source URL: "${ds.url}"`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new InvalidDataSourceUrl('Invalid data source URL: only http and https are supported');
  const userInfo = base.username ? { user: decodeURIComponent(base.username), password: decodeURIComponent(base.password) } : undefined;
  base.username = '';
  base.password = '';
  base.search = '';
  base.hash = '';
  base.pathname = `${base.pathname.replace(/\/+$/, '')}/${path}`;
  return { url: base, userInfo };
}

/** `jsonData.timeout` (seconds, number or numeric string) or 30 s, in ms. */
export function timeoutMs(ds: DataSourceInstance): number {
  const raw = ds.jsonData.timeout;
  const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS) * 1000;
}

/** Node's words for a failed connection (`connect ECONNREFUSED 127.0.0.1:9`), found in the error's cause. */
function transportError(err: unknown): string {
  // Duck-typed: fetch's errors may come from another realm (a test VM), where instanceof Error is false.
  const isError = (e: unknown): e is { message: string; cause?: unknown } => typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string';
  let e: unknown = err;
  while (isError(e) && isError(e.cause)) e = e.cause;
  return isError(e) ? e.message : String(e);
}

/** One call to the data source. Any HTTP answer resolves; only a transport failure or a timeout rejects. */
export async function callUpstream(ds: DataSourceInstance, req: UpstreamRequest): Promise<UpstreamAnswer> {
  const { url, userInfo } = target(ds, req.path);
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers, 'user-agent': req.userAgent };
  if (userInfo) headers.authorization = basicAuthorization(userInfo.user, userInfo.password);
  Object.assign(headers, credentialHeaders(ds));
  let body: Buffer | string | undefined;
  if (req.body) {
    headers['content-type'] = req.body.contentType;
    body = req.body.data;
    url.search = req.params.toString();
  } else if (req.method === 'POST') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = req.params.toString();
  } else {
    url.search = req.params.toString();
  }
  const timeout = timeoutMs(ds);
  const timer = AbortSignal.timeout(timeout);
  const shown = `${req.method} "${url.origin}${url.pathname}"`;
  try {
    const res = await fetch(url, { method: req.method, headers, body, signal: AbortSignal.any([req.signal, timer]), redirect: 'manual' });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: Buffer.from(await res.arrayBuffer()) };
  } catch (err) {
    if (timer.aborted) throw new UpstreamUnreachable(`${shown}: timeout after ${timeout / 1000}s`, 504);
    if (req.signal.aborted) throw new UpstreamUnreachable(`${shown}: request cancelled`, 504);
    throw new UpstreamUnreachable(`${shown}: ${transportError(err)}`, 502);
  }
}
