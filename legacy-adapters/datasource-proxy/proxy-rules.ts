import { StatusError } from '../../pkg/errors';
import type { ProxyRoute } from '../../pkg/plugins';

/**
 * Which methods may reach which paths of a data source through the proxy (anchor-breadth §2.5): the plugin's route
 * table, then the rules the anchor keeps per type. Every refusal is 403 `{message}` in the anchor's words.
 */

type Role = 'Viewer' | 'Editor' | 'Admin';
const RANK: Record<Role, number> = { Viewer: 1, Editor: 2, Admin: 3 };

/** Types whose unmatched writes the anchor refuses (Prometheus and its variants, Loki). */
const WRITE_GUARDED_TYPES = new Set(['prometheus', 'loki', 'grafana-amazonprometheus-datasource', 'grafana-azureprometheus-datasource', 'svc-amazonprometheus-datasource', 'svc-azureprometheus-datasource']);
/** Methods that only read: never refused for want of a route (the anchor: GET). */
const READS = new Set(['GET', 'HEAD']);

export interface ProxyCall {
  /** Upper-case. */
  method: string;
  /** The proxied path decoded once, without a leading slash (checkProxyPath's answer). */
  path: string;
  /** The stored data source type (as the anchor's messages name it). */
  type: string;
  /** The caller's role in the organization; a server admin passes every role, as the anchor's HasRole. */
  role: Role | 'None';
  isServerAdmin: boolean;
}

/**
 * The first route of `routes` the call matches: its method listed (or none listed, or `*`) and its path a prefix of
 * the call's path (a route's leading `/` ignored).
 */
export function matchRoute(routes: readonly ProxyRoute[], method: string, path: string): ProxyRoute | undefined {
  return routes.find((r) => (r.methods.length === 0 || r.methods.includes('*') || r.methods.includes(method)) && path.startsWith(r.path.replace(/^\/+/, '')));
}

/**
 * Refuses a call its plugin's routes or its type do not allow: a matched route whose role the caller lacks; with a
 * route table (`routes` given) or a Prometheus-like type, a write no route matches; Elasticsearch's writes but
 * `_msearch`. A plugin without routes (undefined) lets any method reach any path.
 *
 * @example checkProxyCall(prometheusRoutes, { method: 'PUT', path: 'api/v1/admin', type: 'prometheus', role: 'Admin', isServerAdmin: false })
 *   // throws 403 non allow-listed PUTs not allowed on proxied prometheus datasource
 */
export function checkProxyCall(routes: readonly ProxyRoute[] | undefined, call: ProxyCall): void {
  const route = routes ? matchRoute(routes, call.method, call.path) : undefined;
  if (route) {
    const needed = route.reqRole ?? 'Viewer';
    if (!call.isServerAdmin && (call.role === 'None' || RANK[call.role] < RANK[needed])) throw forbidden('plugin proxy route access denied');
    return;
  }
  if (call.type === 'elasticsearch') {
    if (call.method === 'DELETE') throw forbidden('deletes not allowed on proxied Elasticsearch datasource');
    if (call.method === 'PUT') throw forbidden('puts not allowed on proxied Elasticsearch datasource');
    if (call.method === 'POST' && call.path !== '_msearch') throw forbidden('posts not allowed on proxied Elasticsearch datasource except on /_msearch');
  }
  if (READS.has(call.method)) return;
  if ((routes && routes.length > 0) || WRITE_GUARDED_TYPES.has(call.type)) {
    throw forbidden(`non allow-listed ${call.method}s not allowed on proxied ${call.type} datasource`);
  }
}

const forbidden = (message: string) => new StatusError(403, 'Forbidden', message);
