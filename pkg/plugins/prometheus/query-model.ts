import { z } from 'zod';

/**
 * The Prometheus fields of one query of POST /api/ds/query (anchor-breadth §3.6). Unknown fields are kept out;
 * a field of the wrong type makes that query's error, not the request's.
 * @example { refId: 'A', expr: 'rate(http_requests_total[$__rate_interval])', range: true, legendFormat: '{{job}}' }
 */
export const prometheusQuerySchema = z.object({
  expr: z.string().default(''),
  range: z.boolean().optional(),
  instant: z.boolean().optional(),
  /** `{{label}}` template; `__auto` = automatic; empty = default naming. */
  legendFormat: z.string().default(''),
  /** Minimum step (`30s`); a variable (`$__interval`) counts as unset. */
  interval: z.string().default(''),
  /** Step multiplier; 0 counts as 1. */
  intervalFactor: z.number().int().nonnegative().default(1),
  format: z.enum(['time_series', 'table', 'heatmap']).default('time_series'),
  /** The dashboard's time zone offset: range boundaries are aligned to the step in that zone. */
  utcOffsetSec: z.number().int().default(0),
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
