import type { Field } from '../types';
import { parseTimestamp } from './postgres-columns';
import { ConversionError, epochToMs, rowsToFields, toTimeSeries } from './postgres-frames';

const T = Date.UTC(2024, 0, 1);
const M = 60_000;
const TEXT = 25;
const FLOAT8 = 701;
const INT8 = 20;
const TIMESTAMPTZ = 1184;
const iso = (ms: number) => new Date(ms).toISOString();
const range = { from: T, to: T + 3 * M };

/** Fields of rows given as text, the way PostgreSQL sends them. */
const fields = (columns: Array<[string, number]>, rows: Array<Array<string | null>>, format: 'table' | 'time_series' = 'time_series') =>
  rowsToFields(columns.map(([name, dataTypeID]) => ({ name, dataTypeID })), rows, format);
const shape = (fs: Field[]) => fs.map((f) => ({ name: f.name, labels: f.labels, values: f.values }));

describe('numeric times by magnitude', () => {
  it.each([
    [1_700_000_000, 1_700_000_000_000],
    [1_700_000_000.5, 1_700_000_000_500],
    [1_700_000_000_000, 1_700_000_000_000],
    [1_700_000_000_000_000_000, 1_700_000_000_000],
    [0, 0],
  ])('%d → %d ms', (v, ms) => expect(epochToMs(v)).toBe(ms));
});

describe('timestamps in PostgreSQL text', () => {
  it.each([
    ['2024-01-02 03:04:05+00', Date.UTC(2024, 0, 2, 3, 4, 5)],
    ['2024-01-02 03:04:05.5+02', Date.UTC(2024, 0, 2, 1, 4, 5, 500)],
    ['2024-01-02 03:04:05.000001-05:30', Date.UTC(2024, 0, 2, 8, 34, 5) + 0.001],
    ['2024-01-02 03:04:05', Date.UTC(2024, 0, 2, 3, 4, 5)],
    ['2024-01-02', Date.UTC(2024, 0, 2)],
    ['infinity', null],
    ['-infinity', null],
  ])('%s', (text, ms) => expect(parseTimestamp(text)).toBe(ms));
});

describe('time series', () => {
  it('long rows → one field per label set, first seen first, holes null', () => {
    const f = fields([['time', TIMESTAMPTZ], ['host', TEXT], ['dc', TEXT], ['v', FLOAT8]], [
      [iso(T), 'a', 'x', '1'],
      [iso(T), 'b', 'x', '2'],
      [iso(T + M), 'a', 'x', '3'],
      [iso(T + 2 * M), 'b', 'y', '4'],
    ]);
    expect(shape(toTimeSeries(f, undefined, range, 1000).fields)).toEqual([
      { name: 'Time', labels: undefined, values: [T, T + M, T + 2 * M] },
      { name: 'v', labels: { host: 'a', dc: 'x' }, values: [1, 3, null] },
      { name: 'v', labels: { host: 'b', dc: 'x' }, values: [2, null, null] },
      { name: 'v', labels: { host: 'b', dc: 'y' }, values: [null, null, 4] },
    ]);
  });

  it('two value columns per label set; a null label is empty', () => {
    const f = fields([['time', INT8], ['host', TEXT], ['v', FLOAT8], ['w', INT8]], [
      [String(T / 1000), null, '1', '10'],
      [String(T / 1000 + 60), null, '2', '20'],
    ]);
    expect(shape(toTimeSeries(f, undefined, range, 1000).fields)).toEqual([
      { name: 'Time', labels: undefined, values: [T, T + M] },
      { name: 'v', labels: { host: '' }, values: [1, 2] },
      { name: 'w', labels: { host: '' }, values: [10, 20] },
    ]);
  });

  it('a lone metric column names its series; with another string column it stays a label', () => {
    const lone = fields([['time', INT8], ['metric', TEXT], ['v', FLOAT8]], [[String(T), 'up', '1']]);
    expect(shape(toTimeSeries(lone, undefined, range, 1000).fields)).toEqual([
      { name: 'Time', labels: undefined, values: [T] },
      { name: 'up', labels: undefined, values: [1] },
    ]);
    const two = fields([['time', INT8], ['metric', TEXT], ['host', TEXT], ['v', FLOAT8]], [[String(T), 'up', 'a', '1']]);
    expect(toTimeSeries(two, undefined, range, 1000).fields[1]).toMatchObject({ name: 'v', labels: { metric: 'up', host: 'a' } });
  });

  it('wide rows are sorted by time and put time first', () => {
    const f = fields([['v', FLOAT8], ['time', INT8]], [['2', String(T + M)], ['1', String(T)]]);
    expect(shape(toTimeSeries(f, undefined, range, 1000).fields)).toEqual([
      { name: 'Time', labels: undefined, values: [T, T + M] },
      { name: 'v', labels: undefined, values: [1, 2] },
    ]);
  });

  it('fill: buckets from the range start aligned down to the interval, to its end', () => {
    const f = fields([['time', INT8], ['v', FLOAT8]], [[String(T + M), '5']]);
    const at = (mode: 'null' | 'previous' | 'value') => toTimeSeries(f, { mode, value: -1, intervalMs: M }, { from: T + 30_000, to: T + 3 * M }, 1000).fields;
    expect(at('value')[0].values).toEqual([T, T + M, T + 2 * M, T + 3 * M]);
    expect(at('value')[1].values).toEqual([-1, 5, -1, -1]);
    expect(at('previous')[1].values).toEqual([null, 5, 5, 5]);
    expect(at('null')[1].values).toEqual([null, 5, null, null]);
  });

  it('fill that would make more rows than the row limit: unfilled, with a notice', () => {
    const f = fields([['time', INT8], ['v', FLOAT8]], [[String(T), '1']]);
    const res = toTimeSeries(f, { mode: 'null', intervalMs: 1000 }, { from: T, to: T + 3_600_000 }, 100);
    expect(res.fields[1].values).toEqual([1]);
    expect(res.notices).toEqual([{ severity: 'warning', text: 'Failed to resample dataframe' }]);
  });

  it('errors: no time column, null times in long rows, a time column that is no time', () => {
    const err = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        return e instanceof ConversionError ? `${e.prefix}: ${e.message}` : e;
      }
      return undefined;
    };
    expect(err(() => toTimeSeries(fields([['v', FLOAT8]], [['1']]), undefined, range, 10))).toMatch(/^db has no time column: time column is missing/);
    expect(err(() => toTimeSeries(fields([['time', INT8], ['h', TEXT], ['v', FLOAT8]], [[null, 'a', '1']]), undefined, range, 10))).toBe(
      'failed to convert long to wide series when converting from dataframe: can not convert to wide series, input has null time values',
    );
    expect(err(() => fields([['time', TEXT]], [['yesterday']]))).toBe('converting time columns failed: unable to convert data to a time field');
  });
});

describe('table', () => {
  it('keeps columns and types; time and timeend are times', () => {
    const f = fields([['time', INT8], ['timeend', INT8], ['n', INT8], ['s', TEXT]], [[String(T / 1000), String(T / 1000 + 60), '7', 'x']], 'table');
    expect(f.map((x) => [x.name, x.type, x.frameType, x.values[0]])).toEqual([
      ['time', 'time', 'time.Time', T],
      ['timeend', 'time', 'time.Time', T + M],
      ['n', 'number', 'int64', 7],
      ['s', 'string', 'string', 'x'],
    ]);
  });
});
