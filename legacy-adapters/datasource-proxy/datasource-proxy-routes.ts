import type { Request, Response } from 'express';
import type { TLSSocket } from 'node:tls';
import { isAnonymous } from '../../pkg/auth/authorization/org-access';
import type { AdapterDeps } from '../shared';
import { proxiedDataSource } from './proxy-datasource';
import { upstreamRequestHeaders } from './proxy-headers';
import { checkProxyCall } from './proxy-rules';
import { checkProxyPath, checkWhitelist, proxyTarget, splitProxied } from './proxy-target';
import { forward } from './proxy-upstream';

/** Node's timers cannot wait longer (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

/** `jsonData.timeout` in seconds (a number or a numeric string), else `dataproxy.timeout`: in milliseconds. */
function timeoutMs(jsonData: Record<string, unknown>, fallbackSeconds: number): number {
  const v = jsonData.timeout;
  const s = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  return Math.min((Number.isFinite(s) && s > 0 ? s : fallbackSeconds) * 1000, MAX_TIMER_MS);
}

/** `::ffff:10.0.0.1` as `10.0.0.1`, as Go writes the client address in X-Forwarded-For. */
const clientIp = (req: Request) => req.socket.remoteAddress?.replace(/^::ffff:(?=\d+\.)/, '');

/**
 * One proxied call (anchor-breadth §2): the data source (404, 403 without `datasources:query`), then the path (it
 * stays below the data source URL), the URL (http or https), the allow-list of hosts and the plugin's routes, and
 * only then a request to the upstream. `prefixSegments` counts the route's segments before the proxied path.
 */
async function proxy(req: Request, res: Response, deps: AdapterDeps, ref: { uid: string } | { id: string }, prefixSegments: number): Promise<void> {
  const { instance: ds, plugin } = await proxiedDataSource(req, deps, ref);
  const { path: rawPath, query } = splitProxied(req.originalUrl, prefixSegments);
  const path = checkProxyPath(rawPath, query);
  const target = proxyTarget(ds.url, rawPath, query);
  checkWhitelist(target, deps.config.security.data_source_proxy_whitelist);
  const user = req.user!;
  checkProxyCall(plugin?.proxyRoutes, { method: req.method, path, type: ds.type, role: user.orgRole ?? 'None', isServerAdmin: user.isServerAdmin });
  const { dataproxy, auth } = deps.config;
  const headers = upstreamRequestHeaders(req.headers, {
    ds,
    clientIp: clientIp(req),
    host: req.headers.host,
    proto: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
    userHeader: dataproxy.send_user_header && !isAnonymous(user) ? user.login : undefined,
    userAgent: deps.userAgent,
    sessionCookie: auth.login_cookie_name,
  });
  await forward(req, res, {
    target,
    method: req.method,
    headers,
    timeoutMs: timeoutMs(ds.jsonData, dataproxy.timeout),
    connectTimeoutMs: dataproxy.dialTimeout * 1000,
    tlsSkipVerify: ds.jsonData.tlsSkipVerify === true,
  });
}

/** `/api/datasources/proxy/uid/<uid>/...`: five segments before the proxied path. */
export const proxyByUid = (req: Request, res: Response, deps: AdapterDeps) => proxy(req, res, deps, { uid: String(req.params.uid) }, 5);

/** `/api/datasources/proxy/<id>/...`: four. */
export const proxyById = (req: Request, res: Response, deps: AdapterDeps) => proxy(req, res, deps, { id: String(req.params.id) }, 4);
