import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';

/** Organization spec (global: stored in the identity namespace). */
export const orgSpecSchema = z.looseObject({
  name: z.string().max(MAX_NAME_LENGTH).refine((n) => n.trim() !== '', 'name cannot be empty'),
});

export type OrgSpec = z.infer<typeof orgSpecSchema>;
