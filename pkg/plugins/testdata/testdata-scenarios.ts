import type { DataQuery, DataResponse, Field, Frame, TimeRange } from '../types';
import { csvToFrame, inferField, parseLabels } from './testdata-csv';
import { seededRandom } from './testdata-random';

/**
 * The testdata scenarios (anchor-breadth §3.5, the anchor's scenarios.go): each turns one query into its frames or
 * its error. Every scenario bounds what it makes (points per series, series per query) so no query can ask the
 * server for more memory than a dashboard would draw.
 */

/** The anchor's most points of a random walk series. */
export const MAX_POINTS = 10_000;
/** Ours: series × points of one query at most (the anchor has none): 100 series of 10,000 points. */
export const MAX_VALUES = 1_000_000;

export interface Scenario {
  id: string;
  name: string;
  description: string;
  /** The default `stringInput` the query editor shows. */
  stringInput: string;
  run(q: DataQuery, range: TimeRange, signal: AbortSignal): DataResponse | Promise<DataResponse>;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The value field's name: `alias`, else `A-series`, `A-series1`... */
function seriesName(q: DataQuery, index: number): string {
  const alias = str(q.model.alias);
  if (alias) return alias;
  return index === 0 ? `${q.refId}-series` : `${q.refId}-series${index}`;
}

/** The `labels` text of the query with `$seriesIndex` replaced. */
function seriesLabels(q: DataQuery, index: number): Record<string, string> | undefined {
  const text = str(q.model.labels).replaceAll('$seriesIndex', String(index));
  const labels = parseLabels(text);
  return Object.keys(labels).length ? labels : undefined;
}

const timeField = (values: number[], intervalMs?: number): Field => ({
  name: 'time', type: 'time', frameType: 'time.Time', values, ...(intervalMs ? { config: { interval: intervalMs } } : {}),
});

function valueField(q: DataQuery, index: number, values: (number | null)[]): Field {
  const labels = seriesLabels(q, index);
  return { name: seriesName(q, index), type: 'number', frameType: 'float64', nullable: true, values, ...(labels ? { labels } : {}) };
}

/** How many series a query asks for (`seriesCount`, default 1), refused beyond {@link MAX_VALUES} points in all. */
function seriesCount(q: DataQuery, pointsPerSeries: number): number | string {
  const n = num(q.model.seriesCount) ?? 1;
  const count = Math.max(1, Math.floor(n));
  if (count * Math.max(1, pointsPerSeries) > MAX_VALUES) return `too many points: ${count} series of ${pointsPerSeries} points (at most ${MAX_VALUES} values per query)`;
  return count;
}

const pointsIn = (range: TimeRange, stepMs: number) => Math.min(MAX_POINTS, Math.max(0, Math.ceil((range.to - range.from) / stepMs)));

function randomWalkSeries(q: DataQuery, range: TimeRange, index: number): Frame {
  const rand = seededRandom(range.from, range.to, index);
  const m = q.model;
  let walker = num(m.startValue) ?? rand() * 100;
  const spread = num(m.spread) ?? 1;
  const noise = num(m.noise) ?? 0;
  const min = num(m.min);
  const max = num(m.max);
  const drop = (num(m.dropPercent) ?? 0) / 100;
  const times: number[] = [];
  const values: number[] = [];
  let t = range.from;
  for (let i = 0; i < MAX_POINTS && t < range.to; i++) {
    let next = walker + rand() * noise;
    if (min !== undefined && next < min) walker = next = min;
    if (max !== undefined && next > max) walker = next = max;
    if (drop <= 0 || rand() >= drop) {
      times.push(t);
      values.push(next);
    }
    walker += (rand() - 0.5) * spread;
    t += q.intervalMs;
  }
  return { meta: { type: 'timeseries-multi', typeVersion: [0, 0], custom: { customStat: 10 } }, fields: [timeField(times, q.intervalMs), valueField(q, index, values)] };
}

function randomWalk(q: DataQuery, range: TimeRange): DataResponse {
  const count = seriesCount(q, pointsIn(range, q.intervalMs));
  if (typeof count === 'string') return { frames: [], error: count, errorSource: 'plugin', status: 400 };
  return { frames: Array.from({ length: count }, (_, i) => randomWalkSeries(q, range, i)) };
}

function randomWalkTable(q: DataQuery, range: TimeRange): DataResponse {
  const rand = seededRandom(range.from, range.to, 0);
  let walker = num(q.model.startValue) ?? rand() * 100;
  const spread = num(q.model.spread) ?? 1;
  const cols = { time: [] as number[], value: [] as number[], min: [] as number[], max: [] as number[], info: [] as string[] };
  let t = range.from;
  for (let i = 0; i < Math.min(q.maxDataPoints, MAX_POINTS) && t < range.to; i++) {
    const delta = rand() - 0.5;
    walker += delta;
    cols.time.push(t);
    cols.value.push(walker);
    cols.min.push(walker - (rand() * spread + 0.01));
    cols.max.push(walker + (rand() * spread + 0.01));
    cols.info.push(`${delta > 0 ? 'up' : 'down'}${Math.abs(delta) > 0.4 ? ' fast' : ''}`);
    t += q.intervalMs;
  }
  const n = (name: string, values: number[]): Field => ({ name, type: 'number', frameType: 'float64', nullable: true, values });
  return {
    frames: [{
      name: q.refId,
      fields: [
        { name: 'Time', type: 'time', frameType: 'time.Time', nullable: true, values: cols.time },
        n('Value', cols.value), n('Min', cols.min), n('Max', cols.max),
        { name: 'Info', type: 'string', frameType: 'string', values: cols.info },
      ],
    }],
  };
}

function csvMetricValues(q: DataQuery, range: TimeRange): DataResponse {
  const input = str(q.model.stringInput).replace(/\s/g, '');
  if (input === '') return { frames: [{ fields: [] }] };
  const cells = input.split(',');
  const value = inferField(seriesName(q, 0), cells);
  const step = cells.length > 1 ? (range.to - range.from) / (cells.length - 1) : 0;
  const times = cells.map((_, i) => Math.round(range.from + step * i));
  return { frames: [{ fields: [timeField(times), value] }] };
}

function csvContent(q: DataQuery): DataResponse {
  const frame = csvToFrame(str(q.model.csvContent), str(q.model.alias));
  return { frames: frame ? [frame] : [] };
}

/**
 * The anchor's predictableSeries: points every `timeStep` seconds from the step before `from` up to `to`, the
 * value of each from its position in a wave of `length` positions (so a series is the same whatever the range).
 */
function predictableSeries(q: DataQuery, range: TimeRange, index: number, timeStepSeconds: unknown, wave: readonly (number | null)[], labelsText?: string, name?: string): Frame | string {
  const stepS = Math.max(1, Math.floor(num(timeStepSeconds) ?? 60));
  const step = stepS * 1000;
  const fromS = Math.floor(range.from / 1000);
  let cursor = (fromS - (fromS % stepS)) * 1000;
  if (wave.length === 0) return 'the wave has no values';
  if ((range.to - cursor) / step > MAX_POINTS) return `too many points: timeStep ${stepS}s over this range gives more than ${MAX_POINTS}`;
  let position = Math.floor(cursor / step) % wave.length;
  const times: number[] = [];
  const values: (number | null)[] = [];
  while (cursor < range.to) {
    times.push(cursor);
    values.push(wave[position]!);
    cursor += step;
    position = (position + 1) % wave.length;
  }
  const field = valueField(q, index, values);
  if (name) field.name = name;
  if (labelsText !== undefined) {
    const labels = parseLabels(labelsText);
    if (Object.keys(labels).length) field.labels = labels;
    else delete field.labels;
  }
  return { fields: [timeField(times, step), field] };
}

const nullableNum = (v: unknown, def: number): number | null => (v === null ? null : num(v) ?? def);

function predictablePulse(q: DataQuery, range: TimeRange): DataResponse {
  const p = (q.model.pulseWave ?? {}) as Record<string, unknown>;
  const on = Math.max(0, Math.floor(num(p.onCount) ?? 3));
  const off = Math.max(0, Math.floor(num(p.offCount) ?? 6));
  if (on + off === 0 || on + off > MAX_POINTS) return { frames: [], error: 'onCount + offCount must be between 1 and 10000', errorSource: 'plugin', status: 400 };
  const onValue = nullableNum(p.onValue, 2);
  const offValue = nullableNum(p.offValue, 1);
  const wave = Array.from({ length: on + off }, (_, i) => (i < on ? onValue : offValue));
  const frame = predictableSeries(q, range, 0, p.timeStep, wave);
  return typeof frame === 'string' ? { frames: [], error: frame, errorSource: 'plugin', status: 400 } : { frames: [frame] };
}

function predictableCsvWave(q: DataQuery, range: TimeRange): DataResponse {
  const raw = q.model.csvWave;
  const waves = (Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? [raw] : []) as Record<string, unknown>[];
  const frames: Frame[] = [];
  for (const [i, w] of waves.entries()) {
    if (!w || typeof w !== 'object') continue;
    const cells = str(w.valuesCSV).replace(/\s/g, '').split(',').filter((c) => c !== '');
    const values: (number | null)[] = [];
    for (const c of cells) {
      if (c === 'null' || c === 'nan') values.push(null);
      else if (num(c) === undefined) return { frames: [], error: `predictable_csv_wave: ${JSON.stringify(c.slice(0, 40))} in valuesCSV is no number`, errorSource: 'plugin', status: 400 };
      else values.push(num(c)!);
    }
    const frame = predictableSeries(q, range, i, w.timeStep, values, typeof w.labels === 'string' ? w.labels : undefined, str(w.name) || undefined);
    if (typeof frame === 'string') return { frames: [], error: frame, errorSource: 'plugin', status: 400 };
    frames.push(frame);
  }
  return { frames };
}

const noFrames = (): DataResponse => ({ frames: [] });

/** Ours: the longest slow_query waits. */
export const MAX_SLOW_QUERY_MS = 60_000;

/** `stringInput` a duration (`5s`, `500ms`, `1m`; default 5s): a random walk after that long, or as soon as the query is aborted. */
async function slowQuery(q: DataQuery, range: TimeRange, signal: AbortSignal): Promise<DataResponse> {
  const m = /^([0-9]{1,7})(ms|s|m)$/.exec(str(q.model.stringInput).trim() || '5s');
  if (!m) return { frames: [], error: 'slow_query: stringInput must be a duration such as 5s', errorSource: 'plugin', status: 400 };
  const ms = Math.min(MAX_SLOW_QUERY_MS, Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as 'ms' | 's' | 'm']);
  await new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
  return signal.aborted ? { frames: [], error: 'slow_query: aborted', errorSource: 'plugin', status: 504 } : randomWalk(q, range);
}

/** The anchor's error text of random_walk_with_error (its own domain replaced). */
export const RANDOM_WALK_ERROR = 'this is an error and it can include URLs http://svc.example/';

/** The scenarios this plugin runs, by id. */
export const SCENARIOS: readonly Scenario[] = [
  { id: 'random_walk', name: 'Random Walk', description: 'Seeded random walks, one frame per series (seriesCount).', stringInput: '', run: randomWalk },
  { id: 'random_walk_with_error', name: 'Random Walk (with error)', description: 'A random walk and an error.', stringInput: '', run: (q, r) => ({ ...randomWalk(q, r), error: RANDOM_WALK_ERROR, errorSource: 'plugin' }) },
  { id: 'random_walk_table', name: 'Random Walk Table', description: 'A random walk as a table (Time, Value, Min, Max, Info).', stringInput: '', run: randomWalkTable },
  { id: 'csv_metric_values', name: 'CSV Metric Values', description: 'Comma-separated values spread evenly over the range.', stringInput: '1,20,90,30,5,0', run: csvMetricValues },
  { id: 'csv_content', name: 'CSV Content', description: 'CSV text (csvContent) as a frame, types inferred.', stringInput: '', run: csvContent },
  { id: 'no_data_points', name: 'No Data Points', description: 'No frames.', stringInput: '', run: noFrames },
  { id: 'predictable_pulse', name: 'Predictable Pulse', description: 'A pulse wave (pulseWave: timeStep, onCount, offCount, onValue, offValue).', stringInput: '', run: predictablePulse },
  { id: 'predictable_csv_wave', name: 'Predictable CSV Wave', description: 'Waves repeating CSV values (csvWave: timeStep, valuesCSV, labels, name).', stringInput: '', run: predictableCsvWave },
  { id: 'slow_query', name: 'Slow Query', description: 'A random walk after stringInput (5s, at most 60s).', stringInput: '5s', run: slowQuery },
  { id: 'annotations', name: 'Annotations', description: 'No frames here (annotations are the client\'s).', stringInput: '', run: noFrames },
  { id: 'live', name: 'Live', description: 'No frames (streaming is not served).', stringInput: '', run: noFrames },
  { id: 'streaming_client', name: 'Streaming Client', description: 'No frames (streaming is the client\'s).', stringInput: '', run: noFrames },
];
