import type { KindRegistration } from '../../../../pkg/meta';
import { type OrgInviteSpec, orgInviteSpecSchema } from './orginvite-schema';

export { INVITE_STATUSES, type InviteStatus, MAX_INVITE_EMAIL_LENGTH, MAX_INVITE_NAME_LENGTH, type OrgInviteSpec } from './orginvite-schema';

/**
 * OrgInvite, `iam.svc.app/v0alpha1`: an invitation to join an organization (the anchor's temp user), in the
 * organization's namespace. The object name is the invite's code, random from a CSPRNG (legacy-adapters/org-invites),
 * so the code finds its invite in one read and knowing it is what lets a visitor complete the invite.
 */
export const orgInviteKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'OrgInvite',
  plural: 'orginvites',
  singular: 'orginvite',
  specSchema: orgInviteSpecSchema,
  deleteResponse: 'status',
  // The anchor's TempUserDTO has a numeric id.
  internalIds: true,
  printerColumns: [
    { name: 'Email', type: 'string', jsonPath: '.spec.email' },
    { name: 'Role', type: 'string', jsonPath: '.spec.role' },
    { name: 'Status', type: 'string', jsonPath: '.spec.status' },
  ],
} satisfies KindRegistration<OrgInviteSpec>;
