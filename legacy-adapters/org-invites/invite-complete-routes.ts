import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { orgInviteKind, type OrgInviteSpec } from '../../apis/iam.svc.app/v0alpha1/orginvite';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { StatusError } from '../../pkg/errors';
import { describeProblem, jsonProblem, nameProblem, type Resource } from '../../pkg/meta';
import { type AdapterDeps, bind } from '../shared';

/**
 * Completing an invite (the anchor's sign-up by invite): whoever holds the code reads the invite, then creates its
 * user, which joins the invite's organization with the invite's role and is signed in. Not in the cloud edition,
 * which has no login sessions.
 */

const KIND = orgInviteKind;
/** The anchor's minimum password length for local users (as `POST /api/admin/users`). */
const MIN_PASSWORD = 4;
const inviteNotFound = () => new StatusError(404, 'NotFound', 'Invite not found');

/** The anchor's CompleteInviteForm. */
const completeInviteForm = z.object({
  inviteCode: z.string().min(1),
  email: z.string().trim().min(1).max(190),
  name: z.string().max(255).optional(),
  username: z.string().trim().max(190).optional(),
  password: z.string().max(1024),
  confirmPassword: z.string().optional(),
});

/**
 * The JSON body, parsed here: public /api routes are served before authentication and so before the server's body
 * parser and its input check, which this repeats (nothing PostgreSQL refuses, nothing nested too deep).
 */
async function parseJsonBody(req: Request, res: Response, limit: number): Promise<void> {
  if (req.body === undefined) await new Promise<void>((resolve, reject) => express.json({ limit, strict: false })(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  const problem = req.body === undefined ? undefined : jsonProblem(req.body);
  if (problem) throw StatusError.badRequest(`the request body is not valid: ${describeProblem(problem, 'the body')}`);
}

/**
 * The invite named `code` and its organization, else 404. The code does not say which organization invited, so
 * each organization's namespace is asked (one read each).
 */
async function inviteByCode(deps: AdapterDeps, code: string): Promise<{ orgId: number; invite: Resource<OrgInviteSpec> }> {
  if (nameProblem(code)) throw inviteNotFound();
  for (const org of await deps.users.listOrgs()) {
    try {
      return { orgId: org.id, invite: await deps.users.registry.get(deps.users.inOrg(SYSTEM, org.id), KIND, code) };
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  throw inviteNotFound();
}

/** GET /api/user/invite/:code (public): who is invited and by whom, for a pending invite; else 404. */
export async function getInviteInfoByCode(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { invite } = await inviteByCode(deps, String(req.params.code ?? ''));
  const s = invite.spec;
  if (s.status !== 'InvitePending') throw inviteNotFound();
  const [kind, uid] = [s.invitedBy.slice(0, s.invitedBy.indexOf(':')), s.invitedBy.slice(s.invitedBy.indexOf(':') + 1)];
  const by = kind === 'user' ? await deps.users.userByUid(uid) : undefined;
  res.json({ email: s.email, name: s.name, username: s.email, invitedBy: by ? by.name || by.login || by.email : '' });
}

/**
 * POST /api/user/invite/complete `{inviteCode, email, name, username, password}` (public): creates the user, adds it
 * to the invite's organization with its role, marks the invite Completed and signs the user in. The invite is
 * claimed first (a read-modify-write, so of two completions one wins; the other is the anchor's 412), and given back
 * when the user cannot be created (login or email taken), so a refused request changes nothing.
 */
export async function completeInvite(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  await parseJsonBody(req, res, deps.config.server.max_request_body_bytes);
  const form = bind(req, completeInviteForm);
  const { orgId, invite } = await inviteByCode(deps, form.inviteCode);
  const status = invite.spec.status;
  if (status !== 'InvitePending') throw new StatusError(412, 'Conflict', `Invite cannot be used in status ${status}`);
  if (form.password.length < MIN_PASSWORD) throw StatusError.badRequest('Password is missing or too short');
  const ctx = deps.users.inOrg(SYSTEM, orgId);
  const setStatus = (from: OrgInviteSpec['status'], to: OrgInviteSpec['status']) =>
    deps.users.registry.patch(ctx, KIND, form.inviteCode, (current) => {
      const s = current.spec;
      if (s.status !== from) throw new StatusError(412, 'Conflict', `Invite cannot be used in status ${s.status}`);
      return { ...current, spec: { ...s, status: to } };
    });
  const claimed = (await setStatus('InvitePending', 'Completed')).spec;
  const login = form.username || form.email;
  // The user and its membership in one transaction: a membership refused (a quota) leaves no user, and the invite pending.
  const user = await deps.users.createUser(SYSTEM, { login, email: form.email, name: form.name ?? '', password: form.password, orgId }, claimed.role).catch(async (err: unknown) => {
    await setStatus('Completed', 'InvitePending');
    if (err instanceof StatusError && err.code === 412) throw new StatusError(412, 'Conflict', `User with email '${form.email}' or username '${login}' already exists`);
    throw err;
  });
  const { token } = await deps.sessions.create(user.id, (req.ip ?? '').replace(/^::ffff:/, ''), req.get('user-agent'), { identity: `user:${user.uid}` });
  res.cookie(deps.config.auth.login_cookie_name, token, { httpOnly: true, sameSite: 'lax', path: '/', secure: deps.config.server.protocol === 'https', maxAge: deps.config.auth.login_maximum_lifetime_duration });
  res.json({ message: 'User created and logged in', id: user.id });
}
