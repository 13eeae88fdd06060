import type { DataQuery, DataResponse, QueryContext, TimeRange } from '../../pkg/plugins';
import { type FrameJSON, frameToJSON } from '../../pkg/plugins/frames';
import type { ResolvedDataSource } from '../../pkg/plugins/instances';

/**
 * Running the queries of one POST /api/ds/query: each query is one plugin call (so a plugin that throws fails only
 * that refId), at most {@link MAX_CONCURRENT_QUERIES} at a time across the request (the anchor's limit), all bounded
 * by one deadline (`dataproxy.timeout`): a query not answered by then is that refId's 504, the others still answer.
 */

/** The anchor runs at most 8 queries of a request at a time. */
export const MAX_CONCURRENT_QUERIES = 8;

/** One refId's entry of `results`, as the anchor's SDK writes it. */
export interface ResultEntry {
  status: number;
  frames?: FrameJSON[];
  error?: string;
  errorSource?: 'plugin' | 'downstream';
}

export interface PlannedQuery {
  source: ResolvedDataSource;
  query: DataQuery;
}

export interface RunOptions {
  range: TimeRange;
  timeoutMs: number;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  rowLimit: number;
  userAgent: string;
  login?: string;
}

/** A plugin's answer for one refId as the entry the route writes. */
export function toEntry(refId: string, r: DataResponse): ResultEntry {
  const frames = r.frames.map((f) => frameToJSON(f, refId));
  if (!r.error) return { status: r.status ?? 200, frames };
  return { error: r.error, errorSource: r.errorSource ?? 'plugin', status: r.status ?? 500, ...(frames.length ? { frames } : {}) };
}

const errorEntry = (error: string, status: number, errorSource: 'plugin' | 'downstream'): ResultEntry => ({ error, errorSource, status });

/** One query's entry; undefined when the plugin answered nothing for it (PostgreSQL's empty rawSql: no key). */
async function runOne(p: PlannedQuery, ctx: QueryContext, expired: Promise<ResultEntry>): Promise<ResultEntry | undefined> {
  const { plugin, object } = p.source;
  if (!plugin) return errorEntry(`no plugin serves data sources of type ${JSON.stringify(object.spec.type)}`, 400, 'plugin');
  const call = plugin.query(p.source.instance, [p.query], ctx).then(
    (answers) => (Object.hasOwn(answers, p.query.refId) ? toEntry(p.query.refId, answers[p.query.refId]!) : undefined),
    (err: unknown) => errorEntry(`query failed: ${err instanceof Error ? err.message : String(err)}`, 500, 'plugin'),
  );
  return Promise.race([call, expired]);
}

/**
 * The entries of every query, by refId (sorted, as the anchor's encoder writes them). Never throws for a query's
 * failure: that is its entry.
 */
export async function runQueries(planned: readonly PlannedQuery[], opts: RunOptions): Promise<Record<string, ResultEntry>> {
  const deadline = new AbortController();
  const signal = AbortSignal.any([deadline.signal, opts.signal]);
  const seconds = Math.round(opts.timeoutMs / 100) / 10;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<ResultEntry>((resolve) => {
    timer = setTimeout(() => {
      deadline.abort(new Error('timeout'));
      resolve(errorEntry(`query timed out after ${seconds}s (dataproxy.timeout)`, 504, 'downstream'));
    }, opts.timeoutMs);
  });
  const ctx: QueryContext = { range: opts.range, signal, rowLimit: opts.rowLimit, userAgent: opts.userAgent, ...(opts.login ? { login: opts.login } : {}) };
  const entries = new Map<string, ResultEntry>();
  let next = 0;
  const worker = async () => {
    while (next < planned.length) {
      const p = planned[next++]!;
      // Past the deadline a query is not started at all.
      const entry = await (deadline.signal.aborted ? expired : runOne(p, ctx, expired));
      if (entry) entries.set(p.query.refId, entry);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(MAX_CONCURRENT_QUERIES, planned.length) }, worker));
  } finally {
    clearTimeout(timer);
    // Whatever a plugin still runs for this request stops.
    if (!deadline.signal.aborted) deadline.abort(new Error('done'));
  }
  return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
