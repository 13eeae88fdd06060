import { z } from 'zod';

/**
 * One starred object: its type and name, and its `metadata.uid`, so that a star does not carry over to another
 * object later created under the same name.
 */
export const starredItemSchema = z.object({
  group: z.string().min(1),
  resource: z.string().min(1),
  name: z.string().min(1),
  uid: z.string().min(1),
});

export const starsSpecSchema = z.object({ items: z.array(starredItemSchema) });

export type StarredItem = z.infer<typeof starredItemSchema>;
export type StarsSpec = z.infer<typeof starsSpecSchema>;
