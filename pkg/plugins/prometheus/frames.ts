import type { Field, Frame } from '../types';

/**
 * Prometheus' answers as data frames (anchor-breadth §3.6, the anchor's converter/prom.go and querydata/response.go):
 * one frame per series with a `Time` field and a value field carrying the series' labels, named after the metric
 * when it has one, and the legend as `config.displayNameFromDS`.
 */

type Sample = [number, string];
interface Series {
  metric?: Record<string, string>;
  values?: Sample[];
  value?: Sample;
}
export interface PrometheusData {
  resultType: 'matrix' | 'vector' | 'scalar' | 'string';
  result: Series[] | Sample;
}

/** What a frame's meta says of the query that made it. */
export interface FrameContext {
  refId: string;
  expr: string;
  legendFormat: string;
  /** The step in ms (range queries: the `Time` field's `config.interval`). */
  stepMs: number;
  executedQueryString: string;
  warnings?: string[];
}

/** `1700000000.5` (seconds, Prometheus' form) → epoch ms. */
const toMs = (t: number) => Math.round(t * 1000);

/** Prometheus writes non-finite samples as `NaN`, `+Inf`, `-Inf`. */
export function sampleValue(text: string): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}

/** `up{instance="a:1", job="x"}`: the metric name and the other labels sorted by name, as the anchor writes it. */
function defaultName(labels: Record<string, string>): string {
  const rest = Object.keys(labels)
    .filter((k) => k !== '__name__')
    .sort()
    .map((k) => `${k}="${labels[k]}"`);
  return `${labels.__name__ ?? ''}{${rest.join(', ')}}`;
}

/**
 * The series' display name: `legendFormat` with `{{label}}` replaced (a missing label gives ''), the default
 * `metric{labels}` when empty, '' for `__auto` on a labelled series (the client names it), the expression for a
 * series without labels.
 */
export function legendName(labels: Record<string, string>, legendFormat: string, expr: string): string {
  let legend = defaultName(labels);
  if (legendFormat === '__auto') {
    if (Object.keys(labels).length > 0) legend = '';
  } else if (legendFormat !== '') {
    legend = legendFormat.replace(/\{\{\s*(.+?)\s*\}\}/g, (_m, name: string) => labels[name] ?? '');
  }
  return legend === '{}' ? expr : legend;
}

function meta(ctx: FrameContext, type: string, resultType: string): Record<string, unknown> {
  const m: Record<string, unknown> = { type, custom: { resultType }, executedQueryString: ctx.executedQueryString };
  if (ctx.warnings?.length) m.notices = ctx.warnings.map((text) => ({ severity: 'warning', text }));
  return m;
}

function seriesFrame(ctx: FrameContext, labels: Record<string, string>, samples: Sample[], type: string, resultType: string, range: boolean): Frame {
  const time: Field = { name: 'Time', type: 'time', frameType: 'time.Time', values: samples.map((s) => toMs(s[0])) };
  if (range) time.config = { interval: ctx.stepMs };
  const value: Field = { name: labels.__name__ ?? 'Value', type: 'number', frameType: 'float64', values: samples.map((s) => sampleValue(s[1])) };
  if (Object.keys(labels).length > 0) value.labels = { ...labels };
  const display = legendName(labels, ctx.legendFormat, ctx.expr);
  if (display !== '') value.config = { displayNameFromDS: display };
  return { refId: ctx.refId, meta: meta(ctx, type, resultType), fields: [time, value] };
}

/**
 * The frames of one `data` object of a successful answer. Range (matrix): `timeseries-multi`; instant (vector,
 * scalar): `numeric-multi`; a string result: a `Time` and a string `Value`. No series: one frame without fields
 * that still carries the meta (the executed query).
 */
export function framesOf(data: PrometheusData, ctx: FrameContext): Frame[] {
  const { resultType, result } = data;
  if (resultType === 'scalar' || resultType === 'string') {
    const [t, v] = result as Sample;
    if (resultType === 'scalar') return [seriesFrame(ctx, {}, [[t, v]], 'numeric-multi', 'scalar', false)];
    const fields: Field[] = [
      { name: 'Time', type: 'time', frameType: 'time.Time', values: [toMs(t)] },
      { name: 'Value', type: 'string', frameType: 'string', values: [v] },
    ];
    return [{ refId: ctx.refId, meta: meta(ctx, 'numeric-multi', 'string'), fields }];
  }
  const series = result as Series[];
  const range = resultType === 'matrix';
  const type = range ? 'timeseries-multi' : 'numeric-multi';
  if (series.length === 0) return [{ refId: ctx.refId, meta: meta(ctx, type, resultType), fields: [] }];
  return series.map((s) => seriesFrame(ctx, s.metric ?? {}, range ? (s.values ?? []) : s.value ? [s.value] : [], type, resultType, range));
}
