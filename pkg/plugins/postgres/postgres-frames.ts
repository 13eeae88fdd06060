/**
 * Rows of a SQL query → the frame of its format (anchor-breadth §3.7, the anchor's sqleng/sql_engine.go):
 * `table` keeps every column in SQL order; `time_series` needs a `time` column, makes value columns float64, turns
 * long rows (string columns beside the values) into one value field per series with the strings as labels (a lone
 * `metric` column names the series instead), and fills the missing buckets a `$__timeGroup(…, fill)` asked for.
 */
import type { Field, Frame, TimeRange } from '../types';
import { type Column, columnField } from './postgres-columns';
import type { Fill } from './postgres-macros';

export type QueryFormat = 'time_series' | 'table';

/** A conversion the rows cannot go through; the plugin answers `<prefix>: <message>` for that query. */
export class ConversionError extends Error {
  constructor(
    readonly prefix: string,
    message: string,
  ) {
    super(message);
  }
}

export const NO_TIME_COLUMN = "time column is missing; make sure your data includes a time column for time series format or switch to a table format that doesn't require it";

/**
 * Epoch ms of a numeric time by its magnitude, as the anchor does: ~1e9 seconds, ~1e18 nanoseconds, anything else
 * milliseconds (truncated to whole milliseconds).
 */
export function epochToMs(value: number): number {
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent === 9) return Math.trunc(value * 1000);
  if (exponent === 18) return Math.trunc(value / 1e6);
  return Math.trunc(value);
}

/** A field turned into a nullable time field: numbers by magnitude, numeric text likewise; time fields stay. */
function toTimeField(field: Field): Field {
  if (field.type === 'time') return field;
  const values = field.values.map((v) => {
    if (v === null) return null;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) throw new ConversionError('converting time columns failed', 'unable to convert data to a time field');
    return epochToMs(n);
  });
  return { name: field.name, type: 'time', frameType: 'time.Time', nullable: true, values };
}

/** A value column as nullable float64: numbers stay, booleans 1/0, times epoch ms, numeric text its number, other null. */
function toFloatField(field: Field): Field {
  const values = field.values.map((v) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
    return null;
  });
  return { ...field, type: 'number', frameType: 'float64', nullable: true, values };
}

/** The `table` frame, or the fields before time series conversion: columns in SQL order, `time` (and `timeend`) as time. */
export function rowsToFields(columns: readonly Column[], rows: ReadonlyArray<ReadonlyArray<string | null>>, format: QueryFormat): Field[] {
  return columns.map((c, i) => {
    const field = columnField(c, rows.map((r) => r[i]));
    return c.name === 'time' || (format === 'table' && c.name === 'timeend') ? toTimeField(field) : field;
  });
}

/** Row indexes in ascending time order, rows without a time last; ties keep the database's order. */
function timeOrder(time: Field): number[] {
  const t = time.values as Array<number | null>;
  return t.map((_, i) => i).sort((a, b) => (t[a] === null ? (t[b] === null ? 0 : 1) : t[b] === null ? -1 : (t[a] as number) - (t[b] as number)) || a - b);
}

function reorder(field: Field, order: readonly number[]): Field {
  return { ...field, values: order.map((i) => field.values[i]) };
}

/** Fills the nulls of value fields: mode `value` its number, `previous` the last non-null value before. */
function fillNulls(field: Field, fill: Fill): Field {
  if (fill.mode === 'null') return field;
  let previous: unknown = null;
  const values = field.values.map((v) => {
    if (v !== null) return (previous = v);
    return fill.mode === 'value' ? (fill.value ?? null) : previous;
  });
  return { ...field, values };
}

/** Long rows (string fields beside value fields) → one time field and one value field per series (anchor: data.LongToWide). */
function longToWide(time: Field, factors: readonly Field[], valueFields: readonly Field[], fill: Fill | undefined): Field[] {
  const times = time.values as Array<number | null>;
  if (times.some((t) => t === null)) throw new ConversionError('failed to convert long to wide series when converting from dataframe', 'can not convert to wide series, input has null time values');
  const wideTimes: number[] = [];
  const rowOf: number[] = [];
  for (const t of times as number[]) {
    if (wideTimes.length === 0 || t > wideTimes[wideTimes.length - 1]) wideTimes.push(t);
    rowOf.push(wideTimes.length - 1);
  }
  const series = new Map<string, Field[]>();
  const out: Field[] = [];
  times.forEach((_, row) => {
    const labels: Record<string, string> = {};
    for (const f of factors) labels[f.name] = f.values[row] === null ? '' : String(f.values[row]);
    const key = JSON.stringify(factors.map((f) => labels[f.name]));
    let fields = series.get(key);
    if (!fields) {
      fields = valueFields.map((v) => ({ name: v.name, type: v.type, frameType: v.frameType, nullable: true, labels, values: wideTimes.map(() => null) as unknown[] }));
      series.set(key, fields);
      out.push(...fields);
    }
    // Series first seen later start with nulls over the times already seen.
    for (const [i, v] of valueFields.entries()) {
      while (fields[i].values.length < wideTimes.length) fields[i].values.push(null);
      fields[i].values[rowOf[row]] = v.values[row];
    }
  });
  for (const f of out) while (f.values.length < wideTimes.length) f.values.push(null);
  // The anchor names a lone metric column's series by the metric (as before its v8) rather than by label.
  if (factors.length === 1 && valueFields.length === 1 && factors[0].name === 'metric') {
    for (const f of out) {
      f.name = f.labels?.metric ?? f.name;
      delete f.labels;
    }
  }
  const timeField: Field = { name: time.name, type: 'time', frameType: 'time.Time', values: wideTimes };
  return [timeField, ...(fill ? out.map((f) => fillNulls(f, fill)) : out)];
}

/**
 * One row per fill interval from the range's start (aligned down to the interval) to its end: a bucket takes the
 * last row of (bucket - interval, bucket], a bucket without rows the fill (anchor: sqlutil.ResampleWideFrame).
 */
function resample(fields: Field[], fill: Fill, range: TimeRange, maxRows: number): Field[] | undefined {
  const step = fill.intervalMs;
  const stepSeconds = Math.trunc(step / 1000);
  const start = stepSeconds >= 1 ? Math.floor(Math.floor(range.from / 1000) / stepSeconds) * stepSeconds * 1000 : Math.floor(range.from / step) * step;
  if ((range.to - start) / step + 1 > maxRows) return undefined;
  const [time, ...values] = fields;
  const times = time.values as Array<number | null>;
  const out: Field[] = [{ ...time, values: [] }, ...values.map((f) => ({ ...f, values: [] as unknown[] }))];
  let row = 0;
  let lastSeen = -1;
  for (let bucket = start; bucket <= range.to; bucket += step) {
    let last = -1;
    while (row < times.length && (times[row] === null || (times[row] as number) <= bucket)) {
      if (times[row] !== null && (times[row] as number) > bucket - step) last = row;
      lastSeen = row;
      row++;
    }
    out[0].values.push(bucket);
    values.forEach((f, i) => {
      let v: unknown = null;
      if (last >= 0) v = f.values[last];
      else if (fill.mode === 'value') v = fill.value ?? null;
      else if (fill.mode === 'previous' && lastSeen >= 0) v = f.values[lastSeen];
      out[i + 1].values.push(v);
    });
  }
  return out;
}

/**
 * The `time_series` frame of a query's rows (its fields from {@link rowsToFields}). Throws {@link ConversionError}.
 *
 * @example
 * // columns time, host (text), v: rows (0,'a',1) (0,'b',2) → fields Time, v{host=a}, v{host=b}
 */
export function toTimeSeries(fields: readonly Field[], fill: Fill | undefined, range: TimeRange, maxRows: number): { fields: Field[]; notices: Array<{ severity: string; text: string }> } {
  const timeIndex = fields.findIndex((f) => f.name === 'time');
  if (timeIndex < 0) throw new ConversionError('db has no time column', NO_TIME_COLUMN);
  const order = timeOrder(fields[timeIndex]);
  const sorted = fields.map((f) => reorder(f, order));
  const time: Field = { ...sorted[timeIndex], name: 'Time' };
  const factors = sorted.filter((f, i) => i !== timeIndex && f.type === 'string');
  const valueFields = sorted.filter((f, i) => i !== timeIndex && f.type !== 'string').map(toFloatField);
  const notices: Array<{ severity: string; text: string }> = [];
  // The time field comes first: the frame's readers find it there, and the fill walks it.
  let wide: Field[] = factors.length > 0 && valueFields.length > 0 ? longToWide(time, factors, valueFields, fill) : [time, ...sorted.filter((_, i) => i !== timeIndex).map((f) => (f.type === 'string' ? f : toFloatField(f)))];
  // Strings left beside the time (no value column) are no series to fill, as in the anchor.
  if (fill && valueFields.length > 0) {
    const filled = resample(wide, fill, range, maxRows);
    if (filled) wide = filled;
    else notices.push({ severity: 'warning', text: 'Failed to resample dataframe' });
  }
  return { fields: wide, notices };
}

/** A frame with the query's executed SQL in its meta, and notices when there are some. */
export function sqlFrame(refId: string, fields: Field[], executedQueryString: string, notices: Array<{ severity: string; text: string }> = []): Frame {
  const meta: Record<string, unknown> = { executedQueryString };
  if (notices.length) meta.notices = notices;
  return { refId, meta, fields };
}
