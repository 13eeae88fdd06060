import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';

/** Team spec: a named group of an organization's users. The object name is the team's uid. */
export const teamSpecSchema = z.looseObject({
  name: z.string().max(MAX_NAME_LENGTH).refine((n) => n.trim() !== '', 'name cannot be empty'),
  email: z.string().max(MAX_NAME_LENGTH).default(''),
});

export type TeamSpec = z.infer<typeof teamSpecSchema>;
