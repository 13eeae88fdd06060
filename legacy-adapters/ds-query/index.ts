import { z } from 'zod';
import { defineArea, guard, type LegacyMethod, type LegacyParam, type LegacyRoute } from '../shared';
import { callDataSourceResource, checkDataSourceHealth, queryDataSources } from './ds-query-routes';

/** The descriptions of POST /api/ds/query and of the data sources' health and resources (ds-query-routes.ts). */

const tags = ['ds', 'datasources'];
const frame = z.object({
  schema: z.object({
    name: z.string().optional(),
    refId: z.string(),
    meta: z.record(z.string(), z.unknown()).optional().describe('type, typeVersion, custom, notices, executedQueryString...; omitted when empty'),
    fields: z.array(z.object({
      name: z.string().optional(),
      type: z.enum(['number', 'time', 'string', 'boolean', 'enum', 'other']),
      typeInfo: z.object({ frame: z.string().describe('float64, int64, string, bool, time.Time...'), nullable: z.boolean().optional() }),
      labels: z.record(z.string(), z.string()).optional(),
      config: z.record(z.string(), z.unknown()).optional(),
    })),
  }),
  data: z.object({
    values: z.array(z.array(z.unknown())).describe('One array per field (column-major); times in epoch milliseconds'),
    entities: z.array(z.record(z.string(), z.array(z.number().int())).nullable()).optional().describe('Per field: the rows whose value is NaN, Inf or NegInf (written as null)'),
    nanos: z.array(z.array(z.number().int()).nullable()).optional().describe('Per time field: the nanoseconds below the millisecond of each row'),
  }),
});
const entry = z.object({
  status: z.number().int().describe('200, or the status of the error'),
  frames: z.array(frame).optional(),
  error: z.string().optional(),
  errorSource: z.enum(['plugin', 'downstream']).optional().describe('downstream: the upstream system failed (database, Prometheus, a timeout)'),
});
const queryResponse = z.object({ results: z.record(z.string(), entry).describe('By refId') });
const metricRequest = z.object({
  from: z.union([z.string(), z.number().int()]).optional().describe('Epoch ms (string or integer), a duration before now (5m) or date math (now-6h, now-1d/d); default now-6h'),
  to: z.union([z.string(), z.number().int()]).optional().describe('As from; default now. Rounding (/d) goes to the end of the unit'),
  queries: z.array(z.looseObject({
    refId: z.string().optional().describe('Default A; unique in the request'),
    datasource: z.union([z.object({ uid: z.string(), type: z.string().optional() }), z.string()]).optional().describe('The data source (a string: its uid or name)'),
    datasourceId: z.number().int().optional().describe('Deprecated: datasource.uid'),
    maxDataPoints: z.number().int().optional().describe('Default 100'),
    intervalMs: z.number().int().optional().describe('Default 1000'),
    queryType: z.string().optional(),
    hide: z.boolean().optional().describe('true: the query is skipped'),
  })).describe('At least one; the other fields are the plugin\'s (scenarioId, expr, rawSql, format...)'),
});
const health = z.object({ status: z.enum(['OK', 'ERROR', 'UNKNOWN']), message: z.string(), details: z.record(z.string(), z.unknown()).optional() });

const uid: LegacyParam = { name: 'uid', in: 'path', type: 'string', required: true };
const id: LegacyParam = { name: 'id', in: 'path', type: 'integer', required: true };
const resourcePath: LegacyParam = { name: 'datasource_proxy_route', in: 'path', type: 'string', description: 'The plugin\'s resource path (testdata: scenarios, test; Prometheus: api/v1/labels...)' };
const queryPermission = guard.inHandler(guard.can('datasources:query', 'datasources:uid:{uid}'), "the data source is looked up first: another organization's is 404, not 403");
const notFound = { description: '{"message": "Data source not found"} (also another organization\'s), or the plugin is not registered.' };
const forbidden = { description: '{"message": "Access denied to datasource"}: no datasources:query on it.' };

const healthResponses = {
  200: { description: 'The check passed.', schema: health },
  400: { description: 'UID is invalid / id is invalid, or the check failed (status ERROR or UNKNOWN, same body).', schema: health },
  401: {}, 403: forbidden, 404: notFound,
  500: { description: 'The plugin failed (Plugin health check failed).' },
};
const resourceResponses = {
  200: { description: 'The plugin\'s answer: its status, headers (but cookies) and body.' },
  400: { description: 'UID is invalid / id is invalid.' },
  401: {}, 403: forbidden, 404: { description: 'Data source not found, plugin not registered, or a path the plugin does not serve.' },
  500: { description: 'The plugin failed (Plugin request failed).' },
  504: { description: 'The plugin did not answer within dataproxy.timeout.' },
};
const METHODS: readonly LegacyMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
const resources = (by: 'uid' | 'id'): LegacyRoute[] =>
  METHODS.map((method) => ({
    method,
    path: by === 'uid' ? '/api/datasources/uid/:uid/resources{/*datasource_proxy_route}' : '/api/datasources/:id/resources{/*datasource_proxy_route}',
    guard: by === 'uid' ? queryPermission : guard.inHandler(guard.can('datasources:query'), 'the data source is looked up first, then checked for datasources:query'),
    handler: callDataSourceResource,
    operationId: `${method}DatasourceResource${by === 'uid' ? 'WithUID' : 'ByID'}`,
    tags,
    summary: `${method.toUpperCase()} a resource of the data source's plugin${by === 'id' ? ', by numeric id' : ''}.`,
    description: "The path below `resources/`, the query string, the headers (without the caller's Authorization and cookies) and the body go to the plugin's resource handler (any method).",
    params: [by === 'uid' ? uid : id, resourcePath],
    responses: resourceResponses,
    ...(by === 'id' ? { deprecated: { replacedBy: `${method.toUpperCase()} /api/datasources/uid/{uid}/resources/{datasource_proxy_route}` } } : {}),
  }));

const routes: LegacyRoute[] = [
  {
    method: 'post', path: '/api/ds/query', guard: guard.inHandler(guard.can('datasources:query'), "each query's data source is checked (403), after it is found (404)"),
    handler: queryDataSources, operationId: 'queryMetricsWithExpressions', tags,
    summary: 'Query data sources.',
    description: [
      'Each query goes to its data source\'s plugin; queries run concurrently (8 at a time) within `dataproxy.timeout`.',
      'A query that fails is its refId\'s `{error, errorSource, status}`; the others still answer.',
      '**200** when every query succeeded, **400** when at least one failed (the body holds every entry, the successful ones included), as the anchor\'s code answers.',
      'Request errors: 400 `bad request data`, `No queries found`, `Query does not contain a valid data source identifier`, duplicate refIds, an invalid time range; 404 an unknown data source (or another organization\'s); 403 `Access denied to data source`.',
    ].join(' '),
    body: { schema: metricRequest, name: 'MetricRequest' },
    responses: {
      200: { description: 'Every query answered.', schema: queryResponse, name: 'QueryDataResponse' },
      400: { description: 'A request error ({message}), or some query failed (the results, every entry).', schema: queryResponse },
      401: {}, 403: { description: '{"message": "Access denied to data source"}' }, 404: { description: '{"message": "Data source not found"}' },
    },
  },
  {
    method: 'get', path: '/api/datasources/uid/:uid/health', guard: queryPermission, handler: checkDataSourceHealth, operationId: 'checkDatasourceHealthWithUID', tags,
    summary: "Check a data source with its plugin's health check.", params: [uid], responses: healthResponses,
  },
  {
    method: 'get', path: '/api/datasources/:id/health', guard: guard.inHandler(guard.can('datasources:query'), 'the data source is looked up first, then checked for datasources:query'),
    handler: checkDataSourceHealth, operationId: 'checkDatasourceHealthByID', tags,
    summary: 'Check a data source, by numeric id.', params: [id], responses: healthResponses, deprecated: { replacedBy: 'GET /api/datasources/uid/:uid/health' },
  },
  ...resources('uid'),
  ...resources('id'),
];

/** POST /api/ds/query and the data sources' health and resources (spec §4.5, anchor-breadth §1.11, §1.12, §3). */
export const dsQueryArea = defineArea({ name: 'ds-query', routes });
