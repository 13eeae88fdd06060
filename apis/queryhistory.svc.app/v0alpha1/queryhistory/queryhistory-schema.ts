import { z } from 'zod';

/**
 * One query run in Explore, kept for the user who ran it (the anchor's query_history row): the data source it ran
 * on, the queries as the frontend sent them (any JSON), and the user's comment. Who ran it and whether they starred it
 * are labels (pkg/query-history), so a user's history is read by label selector.
 */
export const queryHistorySpecSchema = z.object({
  datasourceUid: z.string().max(40),
  /** The queries as Explore sent them: an array of query objects (or one object). */
  queries: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]),
  comment: z.string().max(10_000).default(''),
  /** Seconds since the epoch, the anchor's `createdAt`. */
  createdAt: z.number().int().nonnegative(),
});

export type QueryHistorySpec = z.infer<typeof queryHistorySpecSchema>;
