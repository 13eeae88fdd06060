import type { Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type InviteStatus, MAX_INVITE_EMAIL_LENGTH, MAX_INVITE_NAME_LENGTH, orgInviteKind, type OrgInviteSpec } from '../../apis/iam.svc.app/v0alpha1/orginvite';
import { ORG_ROLES, type OrgRole } from '../../apis/iam.svc.app/v0alpha1/orgmember';
import { StatusError } from '../../pkg/errors';
import { Labels, nameProblem, type Resource } from '../../pkg/meta';
import { type AdapterDeps, bind, requireRoleAtMostOwn } from '../shared';

/**
 * Org invites (the anchor's temp users), as a client of the OrgInvite kind. No mail server is configured here (the
 * anchor's `[smtp] enabled = false`), so an invite is only created, never sent: the inviter hands its link (`url`) on.
 */

const KIND = orgInviteKind;

/** The anchor's TempUserDTO. */
export interface TempUserDTO {
  id: number;
  orgId: number;
  name: string;
  email: string;
  role: OrgRole;
  invitedByLogin: string;
  invitedByEmail: string;
  invitedByName: string;
  code: string;
  status: InviteStatus;
  url: string;
  emailSent: boolean;
  emailSentOn: string;
  createdOn: string;
}

/** The anchor's AddInviteForm; the role is checked apart, for the anchor's own 400. */
const addInviteForm = z.object({
  loginOrEmail: z.string().trim().min(1).max(MAX_INVITE_EMAIL_LENGTH),
  name: z.string().max(MAX_INVITE_NAME_LENGTH).optional(),
  role: z.string(),
  sendEmail: z.boolean().optional(),
});

/** The anchor's answer when an email is asked for and SMTP is disabled (notifications.ErrSmtpNotEnabled), 412. */
export const SMTP_NOT_CONFIGURED = "SMTP not configured, check your config file's [smtp] section";

const by = (req: Request) => ({ identity: req.user!.identity });
const inviteNotFound = () => new StatusError(404, 'NotFound', 'Invite not found');

/** A new invite code: 120 bits from the CSPRNG, 30 hex characters (the anchor's codes are 30 characters too). */
export function newInviteCode(): string {
  return randomBytes(15).toString('hex');
}

/** Login, email and name of whoever invited (`user:<uid>` or `service-account:<uid>`); empty when gone. */
async function inviter(deps: AdapterDeps, orgId: number, identity: string): Promise<{ login: string; email: string; name: string }> {
  const [kind, uid] = [identity.slice(0, identity.indexOf(':')), identity.slice(identity.indexOf(':') + 1)];
  if (kind === 'user') {
    const u = await deps.users.userByUid(uid);
    if (u) return { login: u.login, email: u.email, name: u.name };
  }
  if (kind === 'service-account') {
    const sa = await deps.accounts.byUid(orgId, uid);
    if (sa) return { login: sa.login, email: '', name: sa.name };
  }
  return { login: '', email: '', name: '' };
}

/** An invite object as the anchor's TempUserDTO; `url` is where the invitee signs up (`<root_url>invite/<code>`). */
async function toTempUserDTO(deps: AdapterDeps, orgId: number, obj: Resource<OrgInviteSpec>): Promise<TempUserDTO> {
  const s = obj.spec;
  const by = await inviter(deps, orgId, s.invitedBy);
  const created = obj.metadata.creationTimestamp!;
  return {
    id: Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0),
    orgId,
    name: s.name,
    email: s.email,
    role: s.role,
    invitedByLogin: by.login,
    invitedByEmail: by.email,
    invitedByName: by.name,
    code: obj.metadata.name!,
    status: s.status,
    url: `${deps.config.server.root_url.replace(/\/?$/, '/')}invite/${obj.metadata.name!}`,
    emailSent: false,
    emailSentOn: created,
    createdOn: created,
  };
}

/** GET /api/org/invites: the pending invites of the current organization, newest first (org.users:add). */
export async function getPendingOrgInvites(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const orgId = req.user!.orgId;
  const pending = (await deps.users.listInOrg(orgId, KIND)).filter((o) => o.spec.status === 'InvitePending');
  const id = (o: Resource<OrgInviteSpec>) => Number(o.metadata.labels?.[Labels.deprecatedInternalID] ?? 0);
  pending.sort((a, b) => id(b) - id(a));
  res.json(await Promise.all(pending.map((o) => toTempUserDTO(deps, orgId, o))));
}

/**
 * POST /api/org/invites `{loginOrEmail, name, role, sendEmail}` (org.users:add), in the anchor's order: the form, the
 * role (400 "Invalid role specified"), no role above the caller's (403); an existing user is added to the org at
 * once (412 when a member already), anyone else gets a pending invite. `sendEmail: true` is the anchor's 412 for a
 * disabled SMTP, answered before anything is written (the anchor stores the invite first, or adds the user and then
 * answers 500): a refused request changes nothing.
 */
export async function addOrgInvite(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const form = bind(req, addInviteForm);
  const role = ORG_ROLES.find((r) => r === form.role);
  if (!role) throw StatusError.badRequest('Invalid role specified');
  requireRoleAtMostOwn(req, role);
  const orgId = req.user!.orgId;
  const existing = await deps.users.userByLoginOrEmail(form.loginOrEmail);
  if (existing) {
    if (!(await req.access?.can('org.users:add', `users:id:${existing.id}`))) {
      throw new StatusError(403, 'Forbidden', 'Permission denied: not permitted to add an existing user to this organisation');
    }
    if (await deps.users.roleOf(orgId, existing.id)) throw new StatusError(412, 'Conflict', `User ${form.loginOrEmail} is already added to organization`);
    if (form.sendEmail) throw new StatusError(412, 'Conflict', SMTP_NOT_CONFIGURED);
    await deps.users.setRole(by(req), orgId, existing.id, role);
    const org = await deps.users.orgById(orgId);
    const name = existing.name || existing.login || existing.email;
    res.json({ message: `Existing user ${name} added to org ${org?.name ?? ''}`, userId: existing.id });
    return;
  }
  // As the anchor, only an email address is mailed; another login gets an invite without an email.
  if (form.sendEmail && form.loginOrEmail.includes('@')) throw new StatusError(412, 'Conflict', SMTP_NOT_CONFIGURED);
  const spec: OrgInviteSpec = { email: form.loginOrEmail, name: form.name ?? '', role, invitedBy: req.user!.identity, status: 'InvitePending' };
  await deps.users.registry.create(deps.users.inOrg(by(req), orgId), KIND, { metadata: { name: newInviteCode() }, spec });
  res.json({ message: `Created invite for ${form.loginOrEmail}` });
}

/** DELETE /api/org/invites/:code/revoke (org.users:add): the invite of the current org named by its code is revoked. */
export async function revokeInvite(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const code = String(req.params.code ?? '');
  if (nameProblem(code)) throw inviteNotFound();
  try {
    // One read-modify-write: the anchor sets the status whatever it was (a completed invite too).
    await deps.users.registry.patch(deps.users.inOrg(by(req), req.user!.orgId), KIND, code, (current) => ({ ...current, spec: { ...current.spec, status: 'Revoked' } }));
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) throw inviteNotFound();
    throw err;
  }
  res.json({ message: 'Invite revoked' });
}
