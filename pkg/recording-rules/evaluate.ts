import { type RecordingRuleSpec, queryDataSourceUid, refIdOf } from '../../apis/recordingrules.svc.app/v0alpha1/recordingrule';
import type { DataQuery } from '../plugins';
import { DataSourceRouteMessages, type DataSourceInstances } from '../plugins/instances';
import type { RequestContext } from '../registry';
import { type RecordedSeries } from './remote-write';
import { seriesOf, UnrecordableResult } from './rule-series';

/** What an evaluation runs with: the server's data sources and the query routes' limits. */
export interface EvaluationDeps {
  dataSources: DataSourceInstances;
  userAgent: string;
  /** `[dataproxy] timeout`, in ms: the query's deadline. */
  timeoutMs: number;
  rowLimit: number;
}

/** The refId a rule records: `targetRefId`, else its first query's. */
export const targetOf = (spec: RecordingRuleSpec): string => spec.targetRefId || refIdOf(spec.queries[0]!);

/** A query's positive integer setting as the query routes read it (absent, 0 or invalid: the default). */
function positive(v: unknown, def: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : def;
}

/**
 * Evaluates a rule once at `now`: its target query runs through the data source's plugin, as POST /api/ds/query
 * runs it (the data source resolved in `ctx`'s organization; with the caller's `access`, `datasources:query` is
 * checked: 404 / 403 with the query route's words), over the `range` seconds (else the interval) before `now`,
 * and its frames become the series to record (rule-series.ts). The other queries are not run: with no
 * expressions, nothing reads their results.
 *
 * @throws UnrecordableResult the query failed, timed out, or returned nothing to record
 */
export async function evaluateRule(deps: EvaluationDeps, ctx: RequestContext, spec: RecordingRuleSpec, now: number, signal?: AbortSignal): Promise<RecordedSeries[]> {
  const refId = targetOf(spec);
  const model = spec.queries.find((q) => refIdOf(q) === refId)!;
  const source = await deps.dataSources.resolve(ctx, { uid: queryDataSourceUid(model) }, { deniedMessage: DataSourceRouteMessages.queryAccessDenied });
  if (!source.plugin) throw new UnrecordableResult(`no plugin serves data sources of type ${JSON.stringify(source.object.spec.type)}`);
  const query: DataQuery = {
    refId,
    maxDataPoints: positive(model.maxDataPoints, 100),
    intervalMs: positive(model.intervalMs, 1000),
    queryType: typeof model.queryType === 'string' ? model.queryType : '',
    model: { ...model, refId },
  };
  const deadline = AbortSignal.timeout(deps.timeoutMs);
  const range = { from: now - (spec.range || spec.interval) * 1000, to: now };
  let answers;
  try {
    answers = await source.plugin.query(source.instance, [query], { range, signal: signal ? AbortSignal.any([signal, deadline]) : deadline, rowLimit: deps.rowLimit, userAgent: deps.userAgent });
  } catch (err) {
    throw new UnrecordableResult(`query failed: ${deadline.aborted ? `timed out after ${deps.timeoutMs / 1000}s (dataproxy.timeout)` : err instanceof Error ? err.message : String(err)}`);
  }
  const answer = answers[refId];
  if (!answer) throw new UnrecordableResult('the query answered nothing');
  if (answer.error) throw new UnrecordableResult(`query failed: ${answer.error}`);
  return seriesOf(answer.frames, { promName: spec.promName, count: spec.count, labels: spec.labels, timestamp: now });
}
