import { z } from 'zod';
import { ORG_ROLES } from '../../apis/iam.svc.app/v0alpha1/orgmember';
import { defineArea, guard } from '../shared';
import { addOrgInvite, getPendingOrgInvites, revokeInvite } from './org-invites-routes';

const tags = ['org_invites'];
const role = z.enum(ORG_ROLES);
const tempUser = z.object({
  id: z.number().int(), orgId: z.number().int(), name: z.string(), email: z.string(), role,
  invitedByLogin: z.string(), invitedByEmail: z.string(), invitedByName: z.string(), code: z.string(),
  status: z.enum(['InvitePending', 'Completed', 'Revoked']), url: z.string(), emailSent: z.boolean(), emailSentOn: z.string(), createdOn: z.string(),
});
const message = z.object({ message: z.string() });
const noSmtp = 'No mail server is configured: `sendEmail: true` answers 412 "SMTP not configured, check your config file\'s [smtp] section" and changes nothing (for an email address, or an existing user).';

/** Invites to the current organization (the anchor's temp users), the OrgInvite kind. */
export const orgInvitesArea = defineArea({
  name: 'org-invites',
  routes: [
    {
      method: 'get', path: '/api/org/invites', guard: guard.can('org.users:add'), handler: getPendingOrgInvites,
      operationId: 'getPendingOrgInvites', tags, summary: 'The pending invites of the current organization, newest first.',
      responses: { 200: { description: 'The pending invites.', schema: z.array(tempUser), name: 'TempUserDTO' }, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/org/invites', guard: guard.can('org.users:add'), handler: addOrgInvite,
      operationId: 'addOrgInvite', tags,
      summary: 'Invite someone to the current organization: an existing user (login or email) is added at once, anyone else gets a pending invite whose `url` the inviter hands on.',
      description: noSmtp,
      body: { name: 'AddInviteForm', schema: z.object({ loginOrEmail: z.string().min(1), name: z.string().optional(), role, sendEmail: z.boolean().optional() }) },
      responses: {
        200: { description: 'Created invite for <loginOrEmail>, or Existing user <name> added to org <org> (with userId).', schema: z.object({ message: z.string(), userId: z.number().int().optional() }) },
        400: { description: 'bad request data, or Invalid role specified' }, 401: {},
        403: { description: "Cannot assign a role higher than user's role, or not permitted to add that existing user" },
        412: { description: 'User <loginOrEmail> is already added to organization, or SMTP not configured (sendEmail)' },
      },
    },
    {
      method: 'delete', path: '/api/org/invites/:code/revoke', guard: guard.can('org.users:add'), handler: revokeInvite,
      operationId: 'revokeInvite', tags, summary: 'Revoke an invite of the current organization, named by its code.',
      params: [{ name: 'code', in: 'path', type: 'string', required: true, description: "The invite's code." }],
      responses: { 200: { description: 'Invite revoked', schema: message }, 401: {}, 403: {}, 404: { description: 'Invite not found (in this organization)' } },
    },
  ],
});
