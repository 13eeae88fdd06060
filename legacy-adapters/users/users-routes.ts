import type { Request, Response } from 'express';
import { isAnonymous, isServiceAccount } from '../../pkg/auth/authorization/org-access';
import { StatusError } from '../../pkg/errors';
import { type AdapterDeps, bodyObject, idParam, queryString, requireUser } from '../shared';
import {
  type AdminCreateUserForm, fromAdminCreateUserForm, fromUserSearchQuery, toAnonymousProfileDTO, toUserOrgDTO, toUserProfileDTO,
  toUserSearchHitDTO,
} from './users-conversions';

/**
 * The signed-in user's endpoints and the server-admin user endpoints of spec §4.11, as clients of the identity
 * kinds: bind the legacy body, write as the caller, convert back. Passwords are hashed at once and never returned.
 * A user the admin creates joins its organization with `users.auto_assign_org_role`.
 */

/** The anchor's minimum password length for local users. */
const MIN_PASSWORD = 4;

const bad = (message: string) => StatusError.badRequest(message);
const userNotFound = () => new StatusError(404, 'NotFound', 'User not found');
const by = (req: Request) => ({ identity: req.user!.identity });

/** The users a search finds, as hits, with their last activity. */
async function search(req: Request, { users, lastSeen }: AdapterDeps) {
  const q = fromUserSearchQuery(req.query as Record<string, unknown>);
  const found = await users.searchUsers({ query: q.query, offset: (q.page - 1) * q.perPage, limit: q.perPage });
  const seen = await lastSeen.of(found.users.map((u) => u.uid));
  const now = Date.now();
  return { q, totalCount: found.totalCount, hits: found.users.map((u) => toUserSearchHitDTO(u, seen.get(u.uid), now)) };
}

export async function searchUsersWithPaging(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const { q, totalCount, hits } = await search(req, deps);
  res.json({ totalCount, users: hits, page: q.page, perPage: q.perPage });
}

export async function listUsers(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json((await search(req, deps)).hits);
}

/** Anonymous visitors get a profile of their own; service accounts are refused (no user). */
export async function getSignedInUser(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  if (isAnonymous(req.user!)) return void res.json(toAnonymousProfileDTO(req.user!));
  requireUser(req);
  const user = await users.userById(req.user!.userId);
  if (!user) throw userNotFound();
  res.json(toUserProfileDTO(user, req.user!.orgId));
}

export async function getSignedInUserOrgs(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  res.json((await users.orgsOf(req.user!.userId)).map(toUserOrgDTO));
}

/** Switches the user's current organization (the one used when a request names none). */
export async function userSetUsingOrg(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const orgId = idParam(req, 'orgId');
  if (!(await users.roleOf(orgId, req.user!.userId))) throw new StatusError(401, 'Unauthorized', 'Not a valid organization');
  await users.updateUser(by(req), req.user!.userId, (spec) => ({ ...spec, orgId }));
  res.json({ message: 'Active organization changed' });
}

/** `GET /api/users/lookup?loginOrEmail=`: the user with that login or email, in any case. */
export async function getUserByLoginOrEmail(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const loginOrEmail = queryString(req.query.loginOrEmail)?.trim() ?? '';
  const user = loginOrEmail ? await users.userByLoginOrEmail(loginOrEmail) : undefined;
  if (!user) throw new StatusError(404, 'NotFound', 'user not found');
  res.json(toUserProfileDTO(user, user.orgId));
}

export async function adminCreateUser(req: Request, res: Response, { users, config }: AdapterDeps): Promise<void> {
  const body = bodyObject(req);
  const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : undefined);
  const orgIdRaw = body.orgId ?? body.OrgId;
  const form: AdminCreateUserForm = { login: str('login'), email: str('email'), name: str('name'), password: str('password') ?? '', orgId: typeof orgIdRaw === 'number' ? orgIdRaw : undefined };
  if (!form.login?.trim() && !form.email?.trim()) throw bad('Validation error, need to specify either username or email');
  if (form.password.length < MIN_PASSWORD) throw bad('Password is missing or too short');
  const wanted = fromAdminCreateUserForm(form);
  if (!(await users.orgById(wanted.orgId ?? 1))) throw bad('Organization not found');
  // The user and its membership in one transaction: a membership refused (a quota) leaves no user behind.
  const created = await users.createUser(by(req), wanted, config.users.auto_assign_org_role).catch((err: unknown) => {
    // The anchor names the login and email as the form gave them.
    if (err instanceof StatusError && err.code === 412) throw new StatusError(412, 'Conflict', `User with email '${form.email ?? ''}' or username '${form.login ?? ''}' already exists`);
    throw err;
  });
  res.json({ id: created.id, uid: created.uid, message: 'User created' });
}

export async function adminUpdateUserPassword(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const id = idParam(req, 'id');
  const password = bodyObject(req).password;
  if (typeof password !== 'string' || password.length < MIN_PASSWORD) throw bad('New password is too short');
  if (!(await users.userById(id))) throw userNotFound();
  await users.setPassword(by(req), id, password);
  res.json({ message: 'User password updated' });
}

export async function adminUpdateUserPermissions(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const id = idParam(req, 'id');
  const flag = bodyObject(req).isSvcAdmin;
  if (typeof flag !== 'boolean') throw bad('bad request data');
  if (!(await users.userById(id))) throw userNotFound();
  await users.updateUser(by(req), id, (spec) => ({ ...spec, isSvcAdmin: flag }));
  res.json({ message: 'User permissions updated' });
}

export async function adminDeleteUser(req: Request, res: Response, { users, sessions }: AdapterDeps): Promise<void> {
  const id = idParam(req, 'id');
  if (!(await users.userById(id))) throw userNotFound();
  if (!isServiceAccount(req.user!) && req.user!.userId === id) throw bad('You cannot delete your own user');
  await users.deleteUser(by(req), id);
  await sessions.revokeAll(by(req), id);
  res.json({ message: 'User deleted' });
}
