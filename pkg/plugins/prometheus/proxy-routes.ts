import type { ProxyRoute } from '../types';

/**
 * The anchor's Prometheus proxy routes (its plugin.json; anchor-breadth §2.5), first match wins: any GET passes
 * (the flags page only for Admins), POST only to the query APIs, POST and DELETE of `rules` for Editors, nothing
 * else (PUT never, DELETE elsewhere never: no admin API such as delete_series through the proxy).
 */
export const prometheusProxyRoutes: readonly ProxyRoute[] = [
  { path: 'api/v1/status/flags', methods: ['GET'], reqRole: 'Admin' },
  { path: 'api/v1/query', methods: ['POST'], reqRole: 'Viewer' },
  { path: 'api/v1/query_range', methods: ['POST'], reqRole: 'Viewer' },
  { path: 'api/v1/series', methods: ['POST'], reqRole: 'Viewer' },
  { path: 'api/v1/labels', methods: ['POST'], reqRole: 'Viewer' },
  { path: 'api/v1/query_exemplars', methods: ['POST'], reqRole: 'Viewer' },
  { path: 'rules', methods: ['GET'], reqRole: 'Viewer' },
  { path: 'rules', methods: ['POST', 'DELETE'], reqRole: 'Editor' },
  { path: '', methods: ['GET'], reqRole: 'Viewer' },
];
