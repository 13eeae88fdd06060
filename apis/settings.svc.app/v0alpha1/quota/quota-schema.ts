import { z } from 'zod';

/**
 * One quota limit set through `PUT /api/orgs/:orgId/quotas/:target` or `PUT /api/admin/users/:id/quotas/:target`,
 * kept over the `[quota]` setting of its target: an organization's in that organization's namespace, a user's in
 * the settings namespace.
 */
export const quotaSpecSchema = z.looseObject({
  /** Whose limit: an organization's (its objects) or a user's (its organizations). */
  scope: z.enum(['org', 'user']),
  /** The organization's or the user's numeric id. */
  id: z.number().int().positive(),
  /** The anchor's quota target: `dashboard`, `data_source`, ... */
  target: z.string().regex(/^[a-z][a-z_]*$/, 'must be a quota target such as data_source'),
  /** How many may exist; -1: no limit. */
  limit: z.number().int().min(-1),
});

export type QuotaSpec = z.infer<typeof quotaSpecSchema>;
