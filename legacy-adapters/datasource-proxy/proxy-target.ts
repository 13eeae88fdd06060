import { StatusError } from '../../pkg/errors';

/**
 * Where a proxied call goes (anchor-breadth §2.2): the data source URL's origin, its path joined with the proxied
 * path, the caller's raw query. The anchor leaves `..` in the forwarded path (whether it can leave the base path is
 * unconfirmed, §11.1); this proxy refuses every path that could mean something else to the upstream than "below
 * the data source URL", decoded as many times as a server along the way might decode it, rather than normalising.
 */

export const ProxyMessages = {
  /** A path that could leave the base path (`..`, `//host`, a backslash), in any encoding. */
  outside: 'Proxy path leaves the data source URL',
  /** A path no upstream should get: control characters, invalid percent-encoding, characters a path never holds. */
  invalidPath: 'Invalid proxy path',
  whitelist: 'Data proxy hostname and ip are not included in whitelist',
} as const;

/** The data source URL's refusal: 400 as the anchor's unparsable URL, without any `user:password@` it holds. */
export function invalidUrl(url: string): StatusError {
  return StatusError.badRequest(`Invalid data source URL: "${url.replace(/\/\/[^/?#]*@/, '//')}"`);
}

/** The parts of an upstream request line. */
export interface ProxyTarget {
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** `host[:port]` as the Host header says it. */
  host: string;
  /** The raw path and query of the request line: `/base/api/v1/query?x=1`. */
  path: string;
}

/**
 * The raw (still percent-encoded) path after the route's prefix and the raw query, from the request target as
 * the client sent it: express has decoded the parameters, the upstream must get the bytes. `prefixSegments` is how
 * many segments the route's prefix has (`/api/datasources/proxy/uid/<uid>` is 5).
 *
 * @example splitProxied('/api/datasources/proxy/uid/p/api/v1/query?query=up', 5) // { path: 'api/v1/query', query: 'query=up' }
 */
export function splitProxied(originalUrl: string, prefixSegments: number): { path: string; query: string } {
  // An absolute-form request target (`GET http://host/api/...`) has no prefix to count.
  if (!originalUrl.startsWith('/')) throw StatusError.badRequest(ProxyMessages.invalidPath);
  const noFragment = originalUrl.split('#')[0]!;
  const q = noFragment.indexOf('?');
  const path = q < 0 ? noFragment : noFragment.slice(0, q);
  const query = q < 0 ? '' : noFragment.slice(q + 1);
  return { path: path.split('/').slice(prefixSegments + 1).join('/'), query };
}

/** What may appear raw in a path (RFC 3986 pchar and `/`); anything else is not a path a client sends. */
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
/** Bytes the query may not carry to the upstream's request line. */
const BAD_QUERY_CHARS = /[^\x21-\x7e]/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;
/** `.`, `..`, and `..;x` (servlet containers strip `;x` and then resolve the dot segment). */
const DOT_SEGMENT = /^\.\.?(;.*)?$/;
/** Deeper than this many encodings, a path is refused rather than decoded further. */
const MAX_DECODES = 4;

/**
 * Refuses a proxied path (raw, without its leading slash) that could resolve outside the data source URL at any
 * server that decodes it once more: 403 for `..` / `.` segments, `//`, a leading `/` and backslashes in the path
 * or any of its decodings; 400 for control characters (a NUL), malformed or too deep percent-encoding, and
 * characters a path never holds raw. Answers the path decoded once, the form route tables are matched on.
 *
 * @example checkProxyPath('api/v1/query')       // 'api/v1/query'
 * @example checkProxyPath('api/%2e%2e/admin')   // throws 403 Proxy path leaves the data source URL
 */
export function checkProxyPath(raw: string, query = ''): string {
  // Some servers take a backslash for a slash: a traversal, whether sent raw (browsers rewrite it, other clients not) or encoded.
  if (raw.includes('\\')) throw new StatusError(403, 'Forbidden', ProxyMessages.outside);
  if (!PATH_CHARS.test(raw) || BAD_QUERY_CHARS.test(query)) throw StatusError.badRequest(ProxyMessages.invalidPath);
  const forms = [raw];
  for (let last = raw; last.includes('%'); ) {
    let next: string;
    try {
      next = decodeURIComponent(last);
    } catch {
      throw StatusError.badRequest(ProxyMessages.invalidPath);
    }
    if (next === last) break;
    if (forms.length > MAX_DECODES) throw StatusError.badRequest(ProxyMessages.invalidPath);
    forms.push((last = next));
  }
  for (const form of forms) {
    if (CONTROL.test(form)) throw StatusError.badRequest(ProxyMessages.invalidPath);
    if (form.includes('\\') || form.startsWith('/') || form.includes('//') || form.split('/').some((s) => DOT_SEGMENT.test(s))) {
      throw new StatusError(403, 'Forbidden', ProxyMessages.outside);
    }
  }
  return forms[1] ?? raw;
}

/**
 * The upstream request line of a checked proxied path: below the data source URL's path, exactly one `/` between
 * them, the caller's raw query. Only http and https data source URLs are proxied (400 otherwise, as an unparsable
 * one); the data source URL's own query and credentials are not used.
 *
 * @example proxyTarget('http://prom:9090/base', 'api/v1/query', 'query=up').path // '/base/api/v1/query?query=up'
 */
export function proxyTarget(dataSourceUrl: string, rawPath: string, rawQuery: string): ProxyTarget {
  const base = URL.canParse(dataSourceUrl) ? new URL(dataSourceUrl) : undefined;
  if (!base || (base.protocol !== 'http:' && base.protocol !== 'https:') || base.hostname === '') throw invalidUrl(dataSourceUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const path = rawPath === '' ? base.pathname : `${basePath}/${rawPath}`;
  // The join above cannot leave the base path; this says so where a later change would break it.
  if (path !== base.pathname && !path.startsWith(`${basePath}/`)) throw new StatusError(403, 'Forbidden', ProxyMessages.outside);
  const port = base.port ? Number(base.port) : base.protocol === 'https:' ? 443 : 80;
  return { protocol: base.protocol, hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'), port, host: base.host, path: rawQuery ? `${path}?${rawQuery}` : path };
}

/**
 * `security.data_source_proxy_whitelist`: when set, the data source's `host:port` (or its host as written in the
 * URL, as the anchor compares) must be listed; else 403.
 */
export function checkWhitelist(target: Pick<ProxyTarget, 'hostname' | 'port' | 'host'>, whitelist: readonly string[]): void {
  if (whitelist.length === 0) return;
  const host = target.host.toLowerCase();
  if (whitelist.includes(host) || whitelist.includes(`${target.hostname.toLowerCase()}:${target.port}`)) return;
  throw new StatusError(403, 'Forbidden', ProxyMessages.whitelist);
}
