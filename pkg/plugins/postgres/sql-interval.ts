/**
 * Interval text of the SQL macros (anchor-breadth §3.7): `$__timeGroup(col, '5m')` parses its interval as the
 * anchor's gtime.ParseInterval does (`1d`, `2w`, `1M`, `1y`, or a Go duration such as `1m30s` or `500ms`), and
 * `$__interval` writes the request's interval as gtime.FormatInterval does (the largest whole unit: `1m`, `30s`).
 */

const MS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A Go duration (`300ms`, `1.5h`, `1h30m`) in milliseconds, or undefined when it is not one. */
function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let total = 0;
  let end = 0;
  for (let m = part.exec(text); m; m = part.exec(text)) {
    total += Number(m[1]) * MS[m[2]];
    end = part.lastIndex;
  }
  return end === text.length && end > 0 ? total : undefined;
}

/**
 * Milliseconds of an interval text, or undefined when it is none. Calendar units count from `now`, as the anchor does.
 *
 * @example parseInterval('5m') // 300000
 * @example parseInterval('1d') // 86400000
 */
export function parseInterval(text: string, now: number = Date.now()): number | undefined {
  const calendar = /^(\d+)([dwMy])$/.exec(text);
  if (!calendar) return parseGoDuration(text);
  const n = Number(calendar[1]);
  const unit = calendar[2];
  if (unit === 'd') return n * 86_400_000;
  if (unit === 'w') return n * 7 * 86_400_000;
  const start = new Date(now);
  const end = new Date(now);
  if (unit === 'M') end.setUTCMonth(end.getUTCMonth() + n);
  else end.setUTCFullYear(end.getUTCFullYear() + n);
  return end.getTime() - start.getTime();
}

/**
 * The anchor's short form of an interval: the largest unit it reaches, truncated; `1ms` at least.
 *
 * @example formatInterval(90_000) // '1m'
 */
export function formatInterval(ms: number): string {
  const units: Array<[string, number]> = [['y', 365 * 86_400_000], ['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000], ['ms', 1]];
  for (const [unit, size] of units) if (ms >= size) return `${Math.floor(ms / size)}${unit}`;
  return '1ms';
}
