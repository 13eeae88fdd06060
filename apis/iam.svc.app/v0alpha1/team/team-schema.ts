import { z } from 'zod';

/** Team spec: a named group of an organization's users. The object name is the team's uid. */
export const teamSpecSchema = z.looseObject({
  name: z.string().refine((n) => n.trim() !== '', 'name cannot be empty'),
  email: z.string().default(''),
});

export type TeamSpec = z.infer<typeof teamSpecSchema>;
