import { z } from 'zod';
import { ORG_ROLES } from '../orgmember/orgmember-schema';

/**
 * The anchor's TempUserStatus values an invite takes here: pending until revoked (or, once sign-up completes invites,
 * completed). The anchor's `SignUpStarted` belongs to self sign-up, which this server does not offer.
 */
export const INVITE_STATUSES = ['InvitePending', 'Completed', 'Revoked'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

/** The anchor's temp_user columns: email is varchar(190), name varchar(255). */
export const MAX_INVITE_EMAIL_LENGTH = 190;
export const MAX_INVITE_NAME_LENGTH = 255;

/** An invitation to join an organization (the anchor's temp user), named by its secret code. */
export const orgInviteSpecSchema = z.looseObject({
  /** Whom the invite is for: the `loginOrEmail` of the form, which the anchor does not require to be an email. */
  email: z.string().min(1).max(MAX_INVITE_EMAIL_LENGTH),
  /** The invitee's name as the inviter typed it, possibly empty. */
  name: z.string().max(MAX_INVITE_NAME_LENGTH),
  /** The role the invitee gets in the organization. */
  role: z.enum(ORG_ROLES),
  /** Who invited, as the registry names identities (`user:<uid>`, `service-account:<uid>`). */
  invitedBy: z.string().min(1).max(256),
  status: z.enum(INVITE_STATUSES),
});

export type OrgInviteSpec = z.infer<typeof orgInviteSpecSchema>;
