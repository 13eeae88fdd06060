import { z } from 'zod';
import { ORG_ROLES } from '../../apis/iam.svc.app/v0alpha1/orgmember';
import { defineArea, guard } from '../shared';
import type { Config } from '../../pkg/config';
import { completeInvite, getInviteInfoByCode } from './invite-complete-routes';
import { addOrgInvite, getPendingOrgInvites, revokeInvite } from './org-invites-routes';

const tags = ['org_invites'];
const role = z.enum(ORG_ROLES);
const tempUser = z.object({
  id: z.number().int(), orgId: z.number().int(), name: z.string(), email: z.string(), role,
  invitedByLogin: z.string(), invitedByEmail: z.string(), invitedByName: z.string(), code: z.string(),
  status: z.enum(['InvitePending', 'Completed', 'Revoked']), url: z.string(), emailSent: z.boolean(), emailSentOn: z.string(), createdOn: z.string(),
});
const message = z.object({ message: z.string() });
/** Completing signs the new user in: the cloud edition has no login sessions. */
const notCloud = (config: Config) => config.server.edition !== 'cloud';
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
    {
      method: 'get', path: '/api/user/invite/:code', guard: guard.public, handler: getInviteInfoByCode, servedIn: notCloud,
      operationId: 'getInviteInfoByCode', tags: ['signed_in_user'], summary: 'Who a pending invite is for and who sent it (anyone holding the code).',
      params: [{ name: 'code', in: 'path', type: 'string', required: true, description: "The invite's code." }],
      responses: { 200: { description: 'The invite.', name: 'InviteInfo', schema: z.object({ email: z.string(), name: z.string(), username: z.string(), invitedBy: z.string() }) }, 404: { description: 'Invite not found (or no longer pending)' } },
    },
    {
      method: 'post', path: '/api/user/invite/complete', guard: guard.public, handler: completeInvite, servedIn: notCloud,
      operationId: 'completeInvite', tags: ['signed_in_user'],
      summary: "Sign up with an invite's code: the user is created, joins the invite's organization with its role, and is signed in (a session cookie).",
      body: { name: 'CompleteInviteForm', schema: z.object({ inviteCode: z.string(), email: z.string(), name: z.string().optional(), username: z.string().optional(), password: z.string(), confirmPassword: z.string().optional() }) },
      responses: {
        200: { description: 'User created and logged in', schema: z.object({ message: z.string(), id: z.number().int() }) },
        400: { description: 'bad request data, or Password is missing or too short' }, 404: { description: 'Invite not found' },
        412: { description: 'Invite cannot be used in status <status>, or User with email or username already exists' },
      },
    },
  ],
});
