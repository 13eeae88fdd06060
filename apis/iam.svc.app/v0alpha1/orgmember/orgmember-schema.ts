import { z } from 'zod';

export const ORG_ROLES = ['Viewer', 'Editor', 'Admin', 'None'] as const;

/** An organization role. `None` is a member with no basic permissions. */
export type OrgRole = (typeof ORG_ROLES)[number];

/** A user's role in the organization of the namespace it is stored in. */
export const orgMemberSpecSchema = z.looseObject({
  /** The member's numeric user id (as the User object's name). */
  userId: z.number().int().positive(),
  role: z.enum(ORG_ROLES),
});

export type OrgMemberSpec = z.infer<typeof orgMemberSpecSchema>;
