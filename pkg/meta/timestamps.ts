/**
 * Timestamps as the registry writes them: RFC 3339 in UTC with second precision, four-digit years. An instant a
 * caller asks for (an expiry `seconds` from now) may lie past the last such timestamp: the caller answers 400.
 */

/** The last instant a four-digit year holds, 9999-12-31T23:59:59Z, in ms since the epoch. */
export const LAST_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

/** @example rfc3339(0) // '1970-01-01T00:00:00Z' */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The timestamp `seconds` after `nowMs`, rounded up to the second; undefined when it would lie past
 * {@link LAST_TIMESTAMP_MS} (`new Date` of such an instant throws or writes a six-digit year).
 *
 * @example secondsAfter(0, 90) // '1970-01-01T00:01:30Z'
 * @example secondsAfter(Date.now(), 1e15) // undefined
 */
export function secondsAfter(nowMs: number, seconds: number): string | undefined {
  const ms = Math.ceil((nowMs + seconds * 1000) / 1000) * 1000;
  return Number.isFinite(ms) && ms <= LAST_TIMESTAMP_MS ? rfc3339(ms) : undefined;
}
