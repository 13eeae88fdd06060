import { z } from 'zod';

/** A text field a client may also send as null or leave out. */
const text = () => z.string().nullish().transform((v) => v ?? '');

/**
 * The Prometheus fields of one query of POST /api/ds/query (anchor-breadth §3.6). Unknown fields are ignored;
 * a field of the wrong type makes that query's error, not the request's; null counts as absent.
 * @example { refId: 'A', expr: 'rate(http_requests_total[$__rate_interval])', range: true, legendFormat: '{{job}}' }
 */
export const prometheusQuerySchema = z.object({
  expr: text(),
  range: z.boolean().nullish(),
  instant: z.boolean().nullish(),
  /** `{{label}}` template; `__auto` = automatic; empty = default naming. */
  legendFormat: text(),
  /** Minimum step (`30s`); a variable (`$__interval`) counts as unset. */
  interval: text(),
  /** Step multiplier; 0 counts as 1. */
  intervalFactor: z.number().int().nonnegative().nullish().transform((v) => v ?? 1),
  /** `time_series` | `table` | `heatmap`: the frames are the same (the client shapes a table or heatmap). */
  format: z.string().nullish(),
  /** The dashboard's time zone offset: range boundaries are aligned to the step in that zone. */
  utcOffsetSec: z.number().int().nullish().transform((v) => v ?? 0),
});

export type PrometheusQuery = z.infer<typeof prometheusQuerySchema>;

/** The data source settings the plugin reads from jsonData. */
export const prometheusSettingsSchema = z.object({
  /** Scrape interval (`15s`): the fallback minimum step and the base of `$__rate_interval`. */
  timeInterval: z.string().optional().catch(undefined),
  httpMethod: z.enum(['GET', 'POST']).optional().catch(undefined),
  /** Prometheus' own query timeout (`60s`), sent as the `timeout` parameter. */
  queryTimeout: z.string().optional().catch(undefined),
});

export type PrometheusSettings = z.infer<typeof prometheusSettingsSchema>;

/** The words of the first zod issue: "expr: Expected string, received number". */
export function firstIssue(err: z.ZodError): string {
  const issue = err.issues[0]!;
  return `${issue.path.join('.') || 'query'}: ${issue.message}`;
}
