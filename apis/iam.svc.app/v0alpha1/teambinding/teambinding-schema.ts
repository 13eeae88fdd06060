import { z } from 'zod';

export const TEAM_PERMISSIONS = ['Member', 'Admin'] as const;

/**
 * A user's membership of a team, stored in the team's organization namespace. `permission` is the member's level
 * in the team (the anchor's team permission): an Admin of a team may manage it and its members.
 */
export const teamBindingSpecSchema = z.looseObject({
  teamId: z.number().int().positive(),
  teamUid: z.string().min(1),
  userId: z.number().int().positive(),
  userUid: z.string().min(1),
  permission: z.enum(TEAM_PERMISSIONS).default('Member'),
});

export type TeamBindingSpec = z.infer<typeof teamBindingSpecSchema>;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];
