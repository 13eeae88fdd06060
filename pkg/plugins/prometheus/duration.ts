/**
 * Durations as the anchor's SDK reads and writes them (`backend/gtime`): parsing an `interval` such as `30s`, `1m`,
 * `>10s` or `15`, rounding a calculated interval to a "nice" one, and the two text forms the Prometheus plugin
 * writes (`30s` for `$__interval`, `1m0s` for `$__rate_interval` and `Step:`). All values are milliseconds.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const YEAR = 365 * DAY;

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY, w: WEEK, M: 30 * DAY, y: YEAR };

/**
 * Milliseconds of an interval text, or undefined when it is not one. A leading `<`/`>` (the editor's "at least")
 * is ignored and a bare number means seconds, as the anchor's ParseIntervalStringToTimeDuration does.
 * @example parseInterval('1m30s') === 90_000; parseInterval('>15') === 15_000
 */
export function parseInterval(text: string): number | undefined {
  const t = text.trim().replace('<', '').replace('>', '');
  if (/^\d+$/.test(t)) return Number(t) * SECOND;
  if (!/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w|M|y))+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w|M|y)/g)) total += Number(m[1]) * UNIT_MS[m[2]!]!;
  return total;
}

/** The anchor's RoundInterval table (anchor-breadth §3.6): `[at most, rounds to]`, first match wins. */
const ROUNDING: ReadonlyArray<readonly [number, number]> = [
  [10, 1],
  [15, 10],
  [35, 20],
  [75, 50],
  [150, 100],
  [350, 200],
  [750, 500],
  [1500, SECOND],
  [3500, 2 * SECOND],
  [7500, 5 * SECOND],
  [12500, 10 * SECOND],
  [17500, 15 * SECOND],
  [25000, 20 * SECOND],
  [45000, 30 * SECOND],
  [90000, MINUTE],
  [210000, 2 * MINUTE],
  [450000, 5 * MINUTE],
  [750000, 10 * MINUTE],
  [1050000, 15 * MINUTE],
  [1500000, 20 * MINUTE],
  [2700000, 30 * MINUTE],
  [5400000, HOUR],
  [9000000, 2 * HOUR],
  [16200000, 3 * HOUR],
  [32400000, 6 * HOUR],
  [DAY, 12 * HOUR],
  [2 * DAY, DAY],
  [WEEK, DAY],
  [3 * WEEK, WEEK],
];

/** A calculated interval rounded to the nearest "nice" one of the table; 2 years or more is 1 year. */
export function roundInterval(ms: number): number {
  for (const [atMost, to] of ROUNDING) if (ms <= atMost) return to;
  return ms < 2 * YEAR ? 30 * DAY : YEAR;
}

/**
 * The anchor's FormatInterval: the largest whole unit, truncated (`$__interval` is written this way).
 * @example formatInterval(90_000) === '1m'
 */
export function formatInterval(ms: number): string {
  for (const [unit, size] of [['y', YEAR], ['d', DAY], ['h', HOUR], ['m', MINUTE], ['s', SECOND], ['ms', 1]] as const) {
    if (ms >= size) return `${Math.floor(ms / size)}${unit}`;
  }
  return '1ms';
}

/**
 * Go's Duration.String for whole milliseconds (`1m0s`, `1h30m0s`, `500ms`), which the anchor writes for
 * `$__rate_interval` and in `executedQueryString`. Where Go would write a fraction (`1.5s`) the remainder is written
 * as `1s500ms` instead: the text lands inside PromQL, which has no fractional durations.
 */
export function goDuration(ms: number): string {
  const whole = Math.round(ms);
  if (whole === 0) return '0s';
  if (whole < SECOND) return `${whole}ms`;
  const h = Math.floor(whole / HOUR);
  const m = Math.floor((whole % HOUR) / MINUTE);
  const s = Math.floor((whole % MINUTE) / SECOND);
  const rest = whole % SECOND;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s${rest ? `${rest}ms` : ''}`;
}
