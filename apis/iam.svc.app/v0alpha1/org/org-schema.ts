import { z } from 'zod';

/** Organization spec (global: stored in the identity namespace). */
export const orgSpecSchema = z.looseObject({
  name: z.string().refine((n) => n.trim() !== '', 'name cannot be empty'),
});

export type OrgSpec = z.infer<typeof orgSpecSchema>;
