/**
 * The contract between the data source routes (legacy-adapters: /api/ds/query, health, resources, the proxy) and a
 * data source plugin (pkg/plugins/<plugin>/). A plugin is one folder exporting one {@link DataSourcePlugin}; adding
 * one is that folder plus one line in pkg/plugins/index.ts.
 *
 * Plugins see a data source as a {@link DataSourceInstance}: its settings with the secrets decrypted (they never
 * leave the server: a plugin must not echo a secret in an answer, an error text or a log line).
 */

/** A data source as a plugin sees it: the DataSource kind's spec, its identity, and its secrets in clear. */
export interface DataSourceInstance {
  /** The organization's namespace (`default`, `org-2`...). */
  namespace: string;
  /** The object name = the legacy uid. */
  uid: string;
  /** The legacy numeric id. */
  id: number;
  name: string;
  /** The plugin id as stored (the anchor's id or an alias). */
  type: string;
  url: string;
  user: string;
  database: string;
  basicAuth: boolean;
  basicAuthUser: string;
  withCredentials: boolean;
  jsonData: Record<string, unknown>;
  /** secureJsonData decrypted: `password`, `basicAuthPassword`, `httpHeaderValue1`... */
  secure: Record<string, string>;
  /** Changes whenever the stored data source changes: a plugin keying pools or clients by it sees each change. */
  resourceVersion: string;
}

/** One query of POST /api/ds/query after validation and defaults (spec §4.5, §8; anchor-breadth §3.1). */
export interface DataQuery {
  refId: string;
  /** Default 100. */
  maxDataPoints: number;
  /** Default 1000. */
  intervalMs: number;
  /** Default ''. */
  queryType: string;
  /** The whole query object as sent (plugin fields: scenarioId, expr, rawSql, format, legendFormat...). */
  model: Record<string, unknown>;
}

/** The absolute time range of a request, epoch milliseconds. */
export interface TimeRange {
  from: number;
  to: number;
}

/** What a plugin's query gets besides the queries: the range, an abort signal (timeout or client gone), limits. */
export interface QueryContext {
  range: TimeRange;
  signal: AbortSignal;
  /** `[dataproxy] row_limit` (SQL plugins). */
  rowLimit: number;
  /** The caller's login, for plugins that forward it (`dataproxy.send_user_header`); undefined when anonymous. */
  login?: string;
  /** `Svc/<version>`: the User-Agent of every outgoing request. */
  userAgent: string;
}

/** The data-frame field types of the SDK (anchor-breadth §3.4). */
export type FieldType = 'number' | 'time' | 'string' | 'boolean' | 'enum' | 'other';

export interface Field {
  name: string;
  type: FieldType;
  /** Go type of the anchor's SDK: `float64`, `int64`, `string`, `bool`, `time.Time`, `json.RawMessage`. */
  frameType: string;
  nullable?: boolean;
  labels?: Record<string, string>;
  config?: Record<string, unknown>;
  /** Row values: numbers (NaN/±Infinity allowed: encoded as null + entities), strings, booleans, null; times as epoch ms (fractional for sub-ms). */
  values: unknown[];
}

export interface Frame {
  name?: string;
  /** Set by the query route when the plugin leaves it empty: `schema.refId` is always the query's refId. */
  refId?: string;
  meta?: Record<string, unknown>;
  fields: Field[];
}

/** One refId's answer. An error keeps the frames produced so far. */
export interface DataResponse {
  frames: Frame[];
  error?: string;
  /** `downstream` when the upstream system failed (Prometheus answered an error, the database refused). */
  errorSource?: 'plugin' | 'downstream';
  /** HTTP-like status of this query; the route writes 500 for an error without one, 200 otherwise. */
  status?: number;
}

/** A health check's answer (anchor-breadth §1.11, §4): ERROR and UNKNOWN are answered 400. */
export interface HealthResult {
  status: 'OK' | 'ERROR' | 'UNKNOWN';
  message: string;
  details?: Record<string, unknown>;
}

/** A resource call (/api/datasources/uid/:uid/resources/<path>): any method, the path after `resources/`. */
export interface ResourceRequest {
  method: string;
  /** Without a leading slash: `api/v1/labels`, `scenarios`, ''. */
  path: string;
  /** The query string without `?` ('' when none). */
  query: string;
  headers: Record<string, string>;
  body: Buffer;
  signal: AbortSignal;
}

export interface ResourceResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/**
 * One proxy route of a plugin (anchor-breadth §2.5): which methods may go to which paths below the data source URL
 * and the organization role they need. A request matching no route of a plugin that declares routes is refused.
 */
export interface ProxyRoute {
  /** Path prefix below the data source URL, without a leading slash ('' = anywhere). */
  path: string;
  /** Upper-case methods; empty = any. */
  methods: readonly string[];
  /** The least organization role the caller needs (Viewer when absent). */
  reqRole?: 'Viewer' | 'Editor' | 'Admin';
}

/**
 * A data source plugin. Errors a plugin throws from `query` become that data source's queries' errors; a query's
 * own failure should rather be its DataResponse's `error`, so the request's other queries still answer.
 *
 * @example
 * export const testDataPlugin: DataSourcePlugin = {
 *   id: 'svc-testdata-datasource', aliases: ['testdata'], name: 'TestData',
 *   checkHealth: async () => ({ status: 'OK', message: 'Data source is working' }),
 *   query: async (ds, queries, ctx) => Object.fromEntries(queries.map((q) => [q.refId, { frames: [] }])),
 * };
 */
export interface DataSourcePlugin {
  /** The anchor's plugin id (`prometheus`, `svc-postgresql-datasource`, `svc-testdata-datasource`). */
  id: string;
  /** Other type ids stored data sources may carry (`postgres`, `testdata`). */
  aliases: readonly string[];
  /** Display name (the data source list's `typeName`). */
  name: string;
  checkHealth(ds: DataSourceInstance, signal: AbortSignal): Promise<HealthResult>;
  /** One request's queries for this data source: an answer per refId. */
  query(ds: DataSourceInstance, queries: readonly DataQuery[], ctx: QueryContext): Promise<Record<string, DataResponse>>;
  /** Absent: the resources route answers 404. */
  resources?(ds: DataSourceInstance, req: ResourceRequest): Promise<ResourceResponse>;
  /** Absent: any method to any path below the URL (Viewer). */
  proxyRoutes?: readonly ProxyRoute[];
  /** Releases what the plugin holds for a data source (pools, clients): it changed (older resourceVersion) or was deleted. */
  dispose?(namespace: string, uid: string): Promise<void>;
  /** Releases everything at shutdown. */
  close?(): Promise<void>;
}
