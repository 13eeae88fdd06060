import type { DataQuery, DataResponse, DataSourceInstance, Frame, QueryContext } from '../types';
import { goDuration } from './duration';
import { framesOf, type PrometheusData } from './frames';
import { callUpstream, InvalidDataSourceUrl, type UpstreamAnswer, UpstreamUnreachable } from './prometheus-client';
import { firstIssue, prometheusQuerySchema, prometheusSettingsSchema } from './query-model';
import { IntervalError, interpolate, stepMs } from './step';

/** How many of one request's queries to one Prometheus are in flight at once. */
const CONCURRENCY = 4;

/** Prometheus' JSON envelope (`/api/v1/query`, `/api/v1/query_range`). */
interface Envelope {
  status?: string;
  data?: PrometheusData;
  errorType?: string;
  error?: string;
  warnings?: string[];
}

/** A failed query of the upstream: becomes that refId's `{error, errorSource: 'downstream', status}`. */
class DownstreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** `t` aligned down to a multiple of the step, in the dashboard's time zone (the anchor's AlignTimeRange). */
const align = (t: number, step: number, offsetSec: number) => Math.floor((t + offsetSec * 1000) / step) * step - offsetSec * 1000;
const seconds = (ms: number) => String(ms / 1000);

/** The JSON of an answer, or the error it stands for (Prometheus' own error, or an answer that is no Prometheus). */
function envelopeOf(answer: UpstreamAnswer): Envelope & { data: PrometheusData } {
  let env: Envelope | undefined;
  try {
    env = JSON.parse(answer.body.toString('utf8')) as Envelope;
  } catch {
    env = undefined;
  }
  if (env?.status === 'error') throw new DownstreamError(`${env.errorType ?? 'error'}: ${env.error ?? ''}`, answer.status >= 400 ? answer.status : 500);
  if (answer.status >= 200 && answer.status < 300 && env?.status === 'success' && env.data) return env as Envelope & { data: PrometheusData };
  const text = answer.body.subarray(0, 1024).toString('utf8');
  throw new DownstreamError(`unexpected response with status code ${answer.status}: ${text}`, answer.status >= 400 ? answer.status : 502);
}

/** One query: its range and/or instant call, each answer's frames; the first failure ends it with the frames so far. */
async function runQuery(ds: DataSourceInstance, q: DataQuery, ctx: QueryContext): Promise<DataResponse> {
  const parsed = prometheusQuerySchema.safeParse(q.model);
  if (!parsed.success) return { frames: [], error: `invalid query: ${firstIssue(parsed.error)}`, errorSource: 'plugin', status: 400 };
  const model = parsed.data;
  const settings = prometheusSettingsSchema.parse(ds.jsonData);
  const { range } = ctx;
  let step: number;
  let expr: string;
  try {
    step = stepMs({ range, interval: model.interval, intervalFactor: model.intervalFactor, intervalMs: q.intervalMs, maxDataPoints: q.maxDataPoints, scrapeInterval: settings.timeInterval });
    expr = interpolate(model.expr, step, range, settings.timeInterval, model.interval);
  } catch (err) {
    if (err instanceof IntervalError) return { frames: [], error: err.message, errorSource: 'plugin', status: 400 };
    throw err;
  }
  const executedQueryString = `Expr: ${expr}\nStep: ${goDuration(step)}`;
  const method = settings.httpMethod ?? 'POST';
  const timeout: Record<string, string> = settings.queryTimeout ? { timeout: settings.queryTimeout } : {};
  const calls: Array<{ path: string; params: Record<string, string> }> = [];
  // Neither flag set means a range query, as in the anchor; both set runs both.
  if (model.range || !model.instant) {
    const params = { query: expr, start: seconds(align(range.from, step, model.utcOffsetSec)), end: seconds(align(range.to, step, model.utcOffsetSec)), step: seconds(step), ...timeout };
    calls.push({ path: 'api/v1/query_range', params });
  }
  if (model.instant) calls.push({ path: 'api/v1/query', params: { query: expr, time: seconds(range.to), ...timeout } });

  const frames: Frame[] = [];
  try {
    for (const call of calls) {
      const answer = await callUpstream(ds, { method, path: call.path, params: new URLSearchParams(call.params), signal: ctx.signal, userAgent: ctx.userAgent });
      const env = envelopeOf(answer);
      frames.push(...framesOf(env.data, { refId: q.refId, expr, legendFormat: model.legendFormat, stepMs: step, executedQueryString, warnings: env.warnings }));
    }
  } catch (err) {
    if (err instanceof DownstreamError || err instanceof UpstreamUnreachable) return { frames, error: err.message, errorSource: 'downstream', status: err.status };
    if (err instanceof InvalidDataSourceUrl) return { frames, error: err.message, errorSource: 'plugin', status: 400 };
    throw err;
  }
  return { frames };
}

/** One request's queries to one Prometheus, a few at a time: an answer per refId, failures included. */
export async function queryPrometheus(ds: DataSourceInstance, queries: readonly DataQuery[], ctx: QueryContext): Promise<Record<string, DataResponse>> {
  const results: Record<string, DataResponse> = {};
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const q = queries[next++]!;
      results[q.refId] = await runQuery(ds, q, ctx);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queries.length) }, worker));
  return results;
}
