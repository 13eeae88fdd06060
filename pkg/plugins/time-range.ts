import { StatusError } from '../errors';
import type { TimeRange } from './types';

/**
 * The `from` and `to` of POST /api/ds/query (anchor-breadth §3.1, the anchor's legacydata/time_range.go; spec §4.5
 * adds integers): epoch milliseconds (a JSON integer or a string of digits), a bare duration before now (`5m`,
 * `1h`), or date math from now (`now`, `now-6h`, `now-1d/d`, `now/w`, `now-1M+2d/M`). Rounding (`/unit`) goes to
 * the start of the unit for `from` and to its last millisecond for `to`. Dates are in UTC; weeks start on Monday.
 *
 * The anchor reads anything else as epoch 0 and queries from 1970; we answer 400 instead (a typo should not
 * silently query fifty years), as for a range ending before it starts.
 */

/** Both absent: the anchor's default dashboard range. */
export const DEFAULT_FROM = 'now-6h';
export const DEFAULT_TO = 'now';

/** The largest |epoch ms| a Date holds. */
const MAX_TIME = 8.64e15;

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
/** Calendar units: months and years are added on the calendar, not as a fixed number of ms. */
const CALENDAR_MONTHS: Readonly<Record<string, number>> = { M: 1, y: 12 };

/** `now - n unit` (or +), on the calendar for months and years. */
function add(t: number, n: number, unit: string): number {
  const fixed = UNIT_MS[unit];
  if (fixed !== undefined) return t + n * fixed;
  const d = new Date(t);
  d.setUTCMonth(d.getUTCMonth() + n * CALENDAR_MONTHS[unit]!);
  return d.getTime();
}

/** The start of the unit `t` lies in (UTC; weeks from Monday). */
function startOf(t: number, unit: string): number {
  const d = new Date(t);
  switch (unit) {
    case 'y':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
    case 'M':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'w': {
      const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      return day - ((d.getUTCDay() + 6) % 7) * UNIT_MS.d!;
    }
    default:
      return t - (((t % UNIT_MS[unit]!) + UNIT_MS[unit]!) % UNIT_MS[unit]!);
  }
}

/** The last millisecond of the unit `t` lies in. */
const endOf = (t: number, unit: string): number => add(startOf(t, unit), 1, unit) - 1;

const DURATION = /^([0-9]{1,9})(ms|s|m|h|d|w|M|y)$/;
const STEP = /^(?:([+-])([0-9]{0,9})(ms|s|m|h|d|w|M|y)|\/(s|m|h|d|w|M|y))/;

/**
 * One bound as epoch ms, or undefined when it is none of the accepted forms. `roundUp`: a `/unit` rounding goes to
 * the end of the unit (the range's `to`).
 *
 * @example parseTime('now-1h', false, Date.UTC(2024, 0, 1, 12)) // Date.UTC(2024, 0, 1, 11)
 * @example parseTime('now-1d/d', true, Date.UTC(2024, 0, 2, 12)) // Date.UTC(2024, 0, 2) - 1
 */
export function parseTime(value: unknown, roundUp: boolean, now: number): number | undefined {
  let t: number | undefined;
  if (typeof value === 'number') t = Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  else if (typeof value !== 'string') t = undefined;
  else if (/^[0-9]{1,16}$/.test(value)) t = Number(value);
  else if (DURATION.test(value)) {
    const [, n, unit] = DURATION.exec(value)!;
    t = add(now, -Number(n), unit!);
  } else if (value.startsWith('now')) t = dateMath(value.slice(3), roundUp, now);
  return t !== undefined && Number.isFinite(t) && Math.abs(t) <= MAX_TIME ? t : undefined;
}

function dateMath(ops: string, roundUp: boolean, now: number): number | undefined {
  let t = now;
  let rest = ops;
  // At most a few dozen operations: a longer text is no time a person wrote.
  for (let i = 0; rest !== '' && i < 32; i++) {
    const m = STEP.exec(rest);
    if (!m) return undefined;
    rest = rest.slice(m[0].length);
    if (m[4]) t = roundUp ? endOf(t, m[4]) : startOf(t, m[4]);
    else t = add(t, (m[1] === '-' ? -1 : 1) * (m[2] === '' ? 1 : Number(m[2])), m[3]!);
    if (!Number.isFinite(t) || Math.abs(t) > MAX_TIME) return undefined;
  }
  return rest === '' ? t : undefined;
}

/**
 * The request's range: 400 naming the bound that is none of the accepted forms, or a range ending before it starts.
 * An absent bound is the default one (`now-6h` to `now`).
 *
 * @example parseTimeRange('now-5m', 'now', now) // { from: now - 300000, to: now }
 */
export function parseTimeRange(from: unknown, to: unknown, now = Date.now()): TimeRange {
  const f = parseTime(from ?? DEFAULT_FROM, false, now);
  if (f === undefined) throw StatusError.badRequest(`Invalid time range: from ${describe(from)} is neither epoch milliseconds, a duration (5m) nor date math (now-6h)`);
  const t = parseTime(to ?? DEFAULT_TO, true, now);
  if (t === undefined) throw StatusError.badRequest(`Invalid time range: to ${describe(to)} is neither epoch milliseconds, a duration (5m) nor date math (now-6h)`);
  if (f > t) throw StatusError.badRequest('Invalid time range: from is after to');
  return { from: f, to: t };
}

/** The value as the message shows it: short, JSON-quoted (never the whole of a long text). */
function describe(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
