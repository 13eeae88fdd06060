import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';

/** A Prometheus metric name (its data model): what the rule's samples are written as. */
export const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
/** A Prometheus label name; names starting with `__` are Prometheus' own. */
export const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Ours: a day between evaluations at most; a rule evaluated less often is no recording. */
export const MAX_INTERVAL_SECONDS = 86_400;
/** Ours: the queries read at most 30 days back. */
export const MAX_RANGE_SECONDS = 30 * 86_400;
export const MAX_QUERIES = 20;
export const MAX_LABELS = 30;
const MAX_LABEL_VALUE = 1024;

/** The refId of a query as the query routes default it: `A` when absent or empty. */
export function refIdOf(query: Record<string, unknown>): string {
  return typeof query.refId === 'string' && query.refId !== '' ? query.refId : 'A';
}

/** The data source uid a query names (`datasource: {uid}`), else ''. */
export function queryDataSourceUid(query: Record<string, unknown>): string {
  const ds = query.datasource;
  if (ds && typeof ds === 'object' && !Array.isArray(ds)) {
    const uid = (ds as Record<string, unknown>).uid;
    if (typeof uid === 'string') return uid;
  }
  return '';
}

const query = z.record(z.string(), z.unknown()).superRefine((q, ctx) => {
  const uid = queryDataSourceUid(q);
  if (uid === '') ctx.addIssue({ code: 'custom', message: 'must name its data source: datasource.uid' });
  else if (uid === '__expr__' || uid === '-100') ctx.addIssue({ code: 'custom', message: 'server-side expressions are not supported' });
  if (q.refId !== undefined && typeof q.refId !== 'string') ctx.addIssue({ code: 'custom', message: 'refId must be a string' });
});

/**
 * A recording rule (the anchor's recorded query, RecordingRuleJSON): every `interval` seconds, while `active`, its
 * `queries` (data source queries as a /api/ds/query body holds them) run over the last `range` seconds, and the
 * value of the query `targetRefId` (or the number of its rows, with `count`) is written as metric `promName` to the
 * organization's remote write target (or `destDataSourceUid`).
 */
export const recordingRuleSpecSchema = z
  .looseObject({
    title: z.string().max(MAX_NAME_LENGTH).refine((t) => t.trim() !== '', 'must not be empty'),
    description: z.string().max(5000).default(''),
    active: z.boolean().default(true),
    count: z.boolean().default(false),
    /** Seconds between evaluations. */
    interval: z.number().int().min(1).max(MAX_INTERVAL_SECONDS),
    /** Seconds of data the queries read, ending at the evaluation; 0: the interval. */
    range: z.number().int().min(0).max(MAX_RANGE_SECONDS).default(0),
    /** The Prometheus data source written to instead of the write target's ('' : the target's). */
    destDataSourceUid: z.string().max(40).default(''),
    promName: z.string().max(MAX_NAME_LENGTH).regex(METRIC_NAME, 'must be a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)'),
    /** The refId of the query whose result is recorded ('' : the first query's). */
    targetRefId: z.string().max(MAX_NAME_LENGTH).default(''),
    queries: z.array(query).min(1, 'at least one query').max(MAX_QUERIES),
    /** Labels added to every sample, over the query result's own (ours: the anchor has none). */
    labels: z
      .record(z.string().regex(LABEL_NAME, 'must be a Prometheus label name').refine((n) => !n.startsWith('__'), 'names starting with __ are reserved'), z.string().max(MAX_LABEL_VALUE))
      .refine((l) => Object.keys(l).length <= MAX_LABELS, `at most ${MAX_LABELS} labels`)
      .default({}),
  })
  .superRefine((spec, ctx) => {
    const refIds = spec.queries.map(refIdOf);
    if (new Set(refIds).size !== refIds.length) ctx.addIssue({ code: 'custom', path: ['queries'], message: 'refIds must be unique' });
    if (spec.targetRefId !== '' && !refIds.includes(spec.targetRefId)) ctx.addIssue({ code: 'custom', path: ['targetRefId'], message: `no query has refId ${JSON.stringify(spec.targetRefId)}` });
  });

export type RecordingRuleSpec = z.infer<typeof recordingRuleSpecSchema>;
