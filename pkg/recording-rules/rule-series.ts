import type { Frame } from '../plugins';
import type { RecordedSeries } from './remote-write';

/**
 * From a query's frames to the series a rule records (pure): with `count`, one series holding the number of rows;
 * otherwise one series per numeric field, its value the field's last non-null one (a time series' newest point, a
 * table's last row) and its labels the field's, without Prometheus' own (`__name__`...). Every series gets the
 * rule's metric name and its labels (which win over the result's).
 */

export interface SeriesOptions {
  promName: string;
  count: boolean;
  labels: Readonly<Record<string, string>>;
  /** Epoch ms: the samples' timestamp (the evaluation's time). */
  timestamp: number;
}

/** A result that cannot be recorded: the words of the 422 of POST /api/recording-rules/test. */
export class UnrecordableResult extends Error {}

/** A label name Prometheus accepts, from any text: other characters become `_`. */
function labelName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9_]/g, '_');
  return /^[0-9]/.test(safe) ? `_${safe}` : safe;
}

const rowsOf = (frame: Frame) => Math.max(0, ...frame.fields.map((f) => f.values.length));

function lastValue(values: readonly unknown[]): number | undefined {
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (typeof v === 'number') return v;
  }
  return undefined;
}

/** The series of one evaluation, sorted by labels; throws {@link UnrecordableResult} for a result with none. */
export function seriesOf(frames: readonly Frame[], opts: SeriesOptions): RecordedSeries[] {
  const named = (labels: Record<string, string>): Record<string, string> => ({ ...labels, ...opts.labels, __name__: opts.promName });
  if (opts.count) return [{ labels: named({}), value: frames.reduce((n, f) => n + rowsOf(f), 0), timestamp: opts.timestamp }];
  const series: RecordedSeries[] = [];
  const seen = new Set<string>();
  for (const frame of frames) {
    for (const field of frame.fields) {
      if (field.type !== 'number') continue;
      const value = lastValue(field.values);
      if (value === undefined) continue;
      const own: Record<string, string> = {};
      for (const [k, v] of Object.entries(field.labels ?? {})) if (!k.startsWith('__')) own[labelName(k)] = v;
      const labels = named(own);
      const key = JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));
      if (seen.has(key)) throw new UnrecordableResult(`the query returned more than one value for the series ${key}: use count, or a query that returns one value per label set`);
      seen.add(key);
      series.push({ labels, value, timestamp: opts.timestamp });
    }
  }
  if (series.length === 0) throw new UnrecordableResult('the query returned no numeric value to record');
  return series;
}
