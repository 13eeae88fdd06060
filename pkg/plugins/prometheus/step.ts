import type { TimeRange } from '../types';
import { formatInterval, goDuration, parseInterval, roundInterval } from './duration';

/** Prometheus refuses a range query of more than 11,000 points per series. */
export const SAFE_RESOLUTION = 11_000;
/** The anchor's resolution when a query has no maxDataPoints. */
const DEFAULT_RESOLUTION = 1500;
/** The scrape interval assumed when the data source does not give one (`jsonData.timeInterval`). */
const DEFAULT_SCRAPE_MS = 15_000;

export interface StepInput {
  range: TimeRange;
  /** The query's `interval` (minimum step); '' when unset. */
  interval: string;
  intervalFactor: number;
  /** The request's intervalMs and maxDataPoints (defaults 1000 and 100 already applied by the route). */
  intervalMs: number;
  maxDataPoints: number;
  /** `jsonData.timeInterval` of the data source: the scrape interval. */
  scrapeInterval?: string;
}

export class IntervalError extends Error {}

const isVariable = (interval: string) => /^\$\{?__/.test(interval.trim());
const isRateInterval = (interval: string) => ['$__rate_interval', '${__rate_interval}'].includes(interval.trim());

function durationOf(text: string, what: string): number {
  const ms = parseInterval(text);
  if (ms === undefined) throw new IntervalError(`invalid ${what}: "${text}"`);
  return ms;
}

/** The scrape interval in ms: `jsonData.timeInterval` or 15 s. */
export function scrapeIntervalMs(scrapeInterval: string | undefined): number {
  return scrapeInterval ? durationOf(scrapeInterval, 'scrape interval (jsonData.timeInterval)') : DEFAULT_SCRAPE_MS;
}

/** `$__rate_interval`: long enough to always hold four scrapes, and at least one step plus a scrape. */
export function rateInterval(stepMs: number, scrapeMs: number): number {
  return Math.max(stepMs + scrapeMs, 4 * scrapeMs);
}

/**
 * The step of a query in ms, as the anchor computes it (pkg/promlib/models/query.go, gtime; anchor-breadth §3.6):
 * the range over maxDataPoints, not below the minimum interval, not below what keeps a series under 11,000 points,
 * times intervalFactor; `interval: "$__rate_interval"` makes the step that rate interval.
 * The calculated interval is compared with the minimum before it is rounded, as the anchor's Calculate does.
 * Throws {@link IntervalError} for an interval text that is not a duration.
 * @example stepMs({ range: { from: 0, to: 3_600_000 }, interval: '', intervalFactor: 1, intervalMs: 1000, maxDataPoints: 100 }) === 30_000
 */
export function stepMs(input: StepInput): number {
  const interval = isVariable(input.interval) ? '' : input.interval.trim();
  let minInterval: number;
  if (interval !== '' && interval !== '0s') minInterval = durationOf(interval, 'interval');
  else if (input.intervalMs > 0) minInterval = input.intervalMs;
  else if (input.scrapeInterval) minInterval = durationOf(input.scrapeInterval, 'scrape interval (jsonData.timeInterval)');
  else minInterval = DEFAULT_SCRAPE_MS;

  const span = input.range.to - input.range.from;
  const raw = span / (input.maxDataPoints > 0 ? input.maxDataPoints : DEFAULT_RESOLUTION);
  const calculated = raw < minInterval ? minInterval : roundInterval(raw);
  const safe = roundInterval(span / SAFE_RESOLUTION);
  const adjusted = Math.max(calculated, safe);
  if (isRateInterval(input.interval)) return rateInterval(adjusted, scrapeIntervalMs(input.scrapeInterval));
  return adjusted * (input.intervalFactor > 0 ? input.intervalFactor : 1);
}

/**
 * The expression with the anchor's variables replaced: `$__interval` (the step, `30s`), `$__interval_ms`,
 * `$__rate_interval` (`1m0s`), `$__rate_interval_ms`, `$__range` (`3600s`), `$__range_s`, `$__range_ms`, each also
 * written `${__name}`. Other variables are left as written (Prometheus then says what it cannot parse).
 */
export function interpolate(expr: string, step: number, range: TimeRange, scrapeInterval: string | undefined, interval: string): string {
  const rangeMs = range.to - range.from;
  const rangeS = Math.round(rangeMs / 1000);
  // When the step already is the rate interval, it is not widened a second time.
  const rate = isRateInterval(interval) ? step : rateInterval(step, scrapeIntervalMs(scrapeInterval));
  const values: Record<string, string> = {
    __interval: formatInterval(step),
    __interval_ms: String(Math.floor(step)),
    __rate_interval: goDuration(rate),
    __rate_interval_ms: String(Math.floor(rate)),
    __range: `${rangeS}s`,
    __range_s: String(rangeS),
    __range_ms: String(rangeMs),
  };
  return expr.replace(/\$\{(__\w+)\}|\$(__\w+)/g, (whole, braced?: string, bare?: string) => values[(braced ?? bare)!] ?? whole);
}
