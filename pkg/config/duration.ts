import { z } from 'zod';

const UNITS = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
type Unit = keyof typeof UNITS;
const DURATION = /^(\d+)(ms|s|m|h|d|w)?$/;

/**
 * The longest login lifetime: browsers keep a cookie at most 400 days whatever its Max-Age (RFC 6265bis), and a
 * longer one would also overflow the cookie's `Expires` date for absurd values (every login then failed).
 */
export const MAX_SESSION_DURATION_MS = 400 * UNITS.d;

/**
 * A duration as the anchor writes them (`30d`, `7d`, `10m`, `500ms`; a bare number is days) → milliseconds;
 * undefined when it is not one.
 *
 * @example
 *   parseDuration('12h'); // 43_200_000
 *   parseDuration('3'); // 259_200_000 (days)
 */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text);
  return m ? Number(m[1]) * UNITS[(m[2] ?? 'd') as Unit] : undefined;
}

/**
 * Milliseconds as the shortest exact duration, the form a config file would hold: `--help` and
 * `/api/admin/settings` show `30d`, not `2592000000` (which, fed back, would read as days).
 *
 * @example
 *   formatDuration(2_592_000_000); // '30d'
 *   formatDuration(90_000); // '90s'
 */
export function formatDuration(ms: number): string {
  // Weeks are read but not written: `7d` is how the anchor's defaults are spelled.
  for (const unit of ['d', 'h', 'm', 's'] as const) if (ms !== 0 && ms % UNITS[unit] === 0) return `${ms / UNITS[unit]}${unit}`;
  return `${ms}ms`;
}

/**
 * A duration setting, in milliseconds, between 1 ms and `maxMs`. A zero lifetime would end every session at once,
 * and one past `maxMs` is refused at start rather than failing each login.
 */
export function duration(def: string, maxMs: number) {
  return z
    .string()
    .trim()
    .regex(DURATION, 'expected a duration such as 30d, 12h, 10m, 30s')
    .transform((s) => parseDuration(s)!)
    .pipe(z.number().positive('expected a duration above zero').max(maxMs, `expected a duration of at most ${formatDuration(maxMs)}`))
    .prefault(def);
}
