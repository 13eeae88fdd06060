import type { DataSourcePlugin, HealthResult } from '../types';
import { queryPrometheus } from './prometheus-query';
import { prometheusResource } from './prometheus-resources';
import { prometheusProxyRoutes } from './proxy-routes';

/**
 * The User-Agent of health checks and resource calls, whose contract carries none (a query's context gives
 * `Svc/<version>`).
 */
const USER_AGENT = 'Svc';

/**
 * The Prometheus data source (anchor-breadth §3.6, §4): range and instant PromQL queries with the anchor's step
 * computation, health by the instant query `1+1`, the label/series/metadata resources, the anchor's proxy routes.
 * It holds nothing between calls (every call is one HTTP request), so it needs no dispose.
 */
export const prometheusPlugin = {
  id: 'prometheus',
  aliases: [],
  name: 'Prometheus',
  query: queryPrometheus,
  async checkHealth(ds, signal): Promise<HealthResult> {
    const now = Date.now();
    const query = { refId: 'A', maxDataPoints: 100, intervalMs: 1000, queryType: '', model: { expr: '1+1', instant: true } };
    const res = (await queryPrometheus(ds, [query], { range: { from: now, to: now }, signal, rowLimit: 0, userAgent: USER_AGENT })).A!;
    if (res.error) return { status: 'ERROR', message: `${res.error} - There was an error returned querying the Prometheus API.` };
    return { status: 'OK', message: 'Successfully queried the Prometheus API.' };
  },
  resources: (ds, req) => prometheusResource(ds, req, USER_AGENT),
  proxyRoutes: prometheusProxyRoutes,
} satisfies DataSourcePlugin;
