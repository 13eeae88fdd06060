/** Durations as the anchor writes refresh intervals: `500ms`, `5s`, `1m`, `1h`, `1d`, `1w`, `1M`, `1y`. */
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3, M: 30 * 86400e3, y: 365 * 86400e3 };

/** Milliseconds of a duration, or undefined when it is none. @example durationMs('1m') // 60000 */
export function durationMs(s: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d|w|M|y)$/.exec(s.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2]] : undefined;
}

/**
 * Spec §4.4 rule 3: a refresh below the minimum is replaced by the minimum (as the anchor, also one it cannot
 * parse). No refresh, `''` or `false` stays as sent; so does every refresh when no minimum is configured.
 *
 * @example raisedRefresh('1s', '5s') // '5s'
 */
export function raisedRefresh(refresh: unknown, min: string | undefined): unknown {
  if (min === undefined || typeof refresh !== 'string' || refresh === '') return refresh;
  const ms = durationMs(refresh);
  const minMs = durationMs(min);
  return minMs === undefined || (ms !== undefined && ms >= minMs) ? refresh : min;
}
