import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { credentialHeaders, type DataSourceInstance } from '../../pkg/plugins';

/**
 * The headers of a proxied call, both ways (anchor-breadth §1.13, §2.3, §2.4). Nothing that authenticated the
 * caller to this server reaches the upstream: its Authorization, its cookies (only the data source's `keepCookies`
 * pass, never the session cookie) and anything naming a proxy hop; the data source's own credentials are added.
 */

/** Hop-by-hop headers (RFC 9110 §7.6.1 and the ones Go's reverse proxy removes), plus `expect`: this server answered it. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect'];

/** The caller's headers the upstream never gets (some are then set by the proxy itself). */
const DROPPED_REQUEST = [
  'host', 'authorization', 'cookie', 'x-svc-user', 'x-svc-referer', 'origin', 'referer', 'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-proto',
  'x-ds-authorization', 'x-id-token', 'user-agent',
];

/** What the proxy knows of the call besides the caller's headers. */
export interface RequestHeaderContext {
  ds: Pick<DataSourceInstance, 'basicAuth' | 'basicAuthUser' | 'user' | 'jsonData' | 'secure'>;
  /** The caller's address, appended to X-Forwarded-For. */
  clientIp?: string;
  /** The Host the caller used and its scheme: X-Forwarded-Host and X-Forwarded-Proto. */
  host?: string;
  proto: 'http' | 'https';
  /** `dataproxy.send_user_header` with a signed-in (not anonymous) caller: its login as X-Svc-User. */
  userHeader?: string;
  userAgent: string;
  /** The session cookie's name (`auth.login_cookie_name`): never forwarded, even when keepCookies names it. */
  sessionCookie: string;
}

/** Names listed in a header's value (`Connection: close, X-Foo` makes X-Foo hop-by-hop), lower-cased. */
function connectionListed(headers: IncomingHttpHeaders): string[] {
  const v = headers.connection;
  return (Array.isArray(v) ? v.join(',') : v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
}

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

/** `jsonData.keepCookies` as a list of names (the anchor's array of strings; anything else keeps none). */
function keepCookies(jsonData: Record<string, unknown>): string[] {
  const v = jsonData.keepCookies;
  return Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : [];
}

/**
 * The Cookie header the upstream gets: only the cookies `keep` names, never `session`.
 *
 * @example keptCookies('a=1; svc_session=s; b=2', ['b', 'svc_session'], 'svc_session') // 'b=2'
 */
export function keptCookies(cookie: string | undefined, keep: readonly string[], session: string): string | undefined {
  if (!cookie || keep.length === 0) return undefined;
  const kept = cookie
    .split(';')
    .map((c) => c.trim())
    .filter((c) => {
      const name = c.split('=')[0]!.trim();
      return name !== session && keep.includes(name);
    });
  return kept.length ? kept.join('; ') : undefined;
}

/**
 * The headers of the upstream request: the caller's, less hop-by-hop ones and what {@link DROPPED_REQUEST} lists;
 * the kept cookies; X-Forwarded-For with the caller's address appended, this server's X-Forwarded-Host and
 * -Proto (the caller's own are not passed); X-Svc-Referer from Referer; the User-Agent of the server; then the
 * data source's credentials (an `X-DS-Authorization` from the caller replaces its Authorization, as the anchor's).
 */
export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, ctx: RequestHeaderContext): OutgoingHttpHeaders {
  const dropped = new Set([...HOP_BY_HOP, ...DROPPED_REQUEST, ...connectionListed(incoming)]);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) if (value !== undefined && !dropped.has(name)) out[name] = value;
  const cookie = keptCookies(one(incoming.cookie), keepCookies(ctx.ds.jsonData), ctx.sessionCookie);
  if (cookie) out.cookie = cookie;
  const forwardedFor = [one(incoming['x-forwarded-for']), ctx.clientIp].filter(Boolean).join(', ');
  if (forwardedFor) out['x-forwarded-for'] = forwardedFor;
  if (ctx.host) out['x-forwarded-host'] = ctx.host;
  out['x-forwarded-proto'] = ctx.proto;
  const referer = one(incoming.referer);
  if (referer) out['x-svc-referer'] = referer;
  if (ctx.userHeader) out['x-svc-user'] = ctx.userHeader;
  out['user-agent'] = ctx.userAgent;
  Object.assign(out, credentialHeaders(ctx.ds));
  const dsAuthorization = one(incoming['x-ds-authorization']);
  if (dsAuthorization) out.authorization = dsAuthorization;
  return out;
}

/**
 * The headers the caller gets back: the upstream's, less hop-by-hop ones and Set-Cookie (an upstream must not set
 * cookies on this server's origin), with `Content-Security-Policy: sandbox` (an upstream's HTML must not run as
 * this origin).
 */
export function downstreamResponseHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  const dropped = new Set([...HOP_BY_HOP, 'set-cookie', 'content-security-policy', ...connectionListed(upstream)]);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) if (value !== undefined && !dropped.has(name)) out[name] = value;
  out['content-security-policy'] = 'sandbox';
  return out;
}
