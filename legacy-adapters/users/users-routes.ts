import { type Request, Router } from 'express';
import type { IdentityDirectory } from '../../pkg/auth/identity-directory';
import { isAnonymous, isServiceAccount, permissionDeniedError } from '../../pkg/auth/org-access';
import type { LastSeenTracker } from '../../pkg/auth/last-seen';
import type { OrgRole } from '../../pkg/auth/permissions';
import type { SessionStore } from '../../pkg/auth/sessions';
import { StatusError } from '../../pkg/errors';
import {
  type AdminCreateUserForm, fromAdminCreateUserForm, fromUserSearchQuery, searchUsers, toAnonymousProfileDTO, toUserOrgDTO, toUserProfileDTO,
  toUserSearchHitDTO,
} from './users-conversions';

/** The anchor's minimum password length for local users. */
const MIN_PASSWORD = 4;

const bad = (message: string) => new StatusError(400, 'BadRequest', message);
const userNotFound = () => new StatusError(404, 'NotFound', 'User not found');

/** A positive integer path parameter, else 400 as the anchor answers `id is invalid`. */
export function idParam(req: Request, name: string): number {
  const v = String(req.params[name] ?? '');
  if (!/^[1-9][0-9]{0,14}$/.test(v)) throw bad(`${name} is invalid`);
  return Number(v);
}

/** Spec §5.3: only a user can be a server admin; a service account is refused whatever its org role. */
export function requireServerAdmin(req: Request): void {
  if (!req.user?.isServerAdmin || isServiceAccount(req.user)) throw permissionDeniedError();
}

/**
 * The signed-in *user's* endpoints: a service account is no user (its numeric id is not a user's), so these answer
 * it the anchor's 403 rather than reading or changing the user that happens to have the same number; nor is an
 * anonymous visitor.
 */
export function requireUser(req: Request): void {
  if (isServiceAccount(req.user!) || isAnonymous(req.user!)) throw new StatusError(403, 'Forbidden', 'Endpoint only available for users');
}

export function object(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('bad request data');
  return body as Record<string, unknown>;
}

/**
 * The signed-in user's endpoints and the server-admin user endpoints of spec §4.11, as clients of the identity
 * kinds: bind the legacy body, write as the caller, convert back. Passwords are hashed at once and never returned.
 * A user the admin creates joins its organization with `newUserRole` (`users.auto_assign_org_role`).
 */
export function legacyUsersRouter(users: IdentityDirectory, sessions?: SessionStore, lastSeen?: LastSeenTracker, newUserRole: OrgRole = 'Viewer'): Router {
  const router = Router();

  /** The users a search finds, as hits, with their last activity. */
  async function search(req: Request) {
    requireServerAdmin(req);
    const q = fromUserSearchQuery(req.query as Record<string, unknown>);
    const found = searchUsers(await users.listUsers(), q);
    const seen = (await lastSeen?.all()) ?? new Map<string, string>();
    const now = Date.now();
    return { q, totalCount: found.totalCount, hits: found.users.map((u) => toUserSearchHitDTO(u, seen.get(u.uid), now)) };
  }

  router.get('/api/users/search', async (req, res) => {
    const { q, totalCount, hits } = await search(req);
    res.json({ totalCount, users: hits, page: q.page, perPage: q.perPage });
  });

  router.get('/api/users', async (req, res) => {
    res.json((await search(req)).hits);
  });

  router.get('/api/user', async (req, res) => {
    if (isAnonymous(req.user!)) return void res.json(toAnonymousProfileDTO(req.user!));
    requireUser(req);
    const user = await users.userById(req.user!.userId);
    if (!user) throw userNotFound();
    res.json(toUserProfileDTO(user, req.user!.orgId));
  });

  router.get('/api/user/orgs', async (req, res) => {
    requireUser(req);
    res.json((await users.orgsOf(req.user!.userId)).map(toUserOrgDTO));
  });

  /** Switches the user's current organization (the one used when a request names none). */
  router.post('/api/user/using/:orgId', async (req, res) => {
    requireUser(req);
    const orgId = idParam(req, 'orgId');
    if (!(await users.roleOf(orgId, req.user!.userId))) throw new StatusError(401, 'Unauthorized', 'Not a valid organization');
    await users.updateUser({ identity: req.user!.identity }, req.user!.userId, (spec) => ({ ...spec, orgId }));
    res.json({ message: 'Active organization changed' });
  });

  router.post('/api/admin/users', async (req, res) => {
    requireServerAdmin(req);
    const body = object(req.body);
    const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : undefined);
    const orgIdRaw = body.orgId ?? body.OrgId;
    const form: AdminCreateUserForm = { login: str('login'), email: str('email'), name: str('name'), password: str('password') ?? '', orgId: typeof orgIdRaw === 'number' ? orgIdRaw : undefined };
    if (!form.login?.trim() && !form.email?.trim()) throw bad('Validation error, need to specify either username or email');
    if (form.password.length < MIN_PASSWORD) throw bad('Password is missing or too short');
    const wanted = fromAdminCreateUserForm(form);
    if (!(await users.orgById(wanted.orgId ?? 1))) throw new StatusError(400, 'BadRequest', 'Organization not found');
    const created = await users.createUser({ identity: req.user!.identity }, wanted);
    await users.setRole({ identity: req.user!.identity }, created.orgId, created.id, newUserRole);
    res.json({ id: created.id, uid: created.uid, message: 'User created' });
  });

  router.put('/api/admin/users/:id/password', async (req, res) => {
    requireServerAdmin(req);
    const id = idParam(req, 'id');
    const password = object(req.body).password;
    if (typeof password !== 'string' || password.length < MIN_PASSWORD) throw bad('New password is too short');
    if (!(await users.userById(id))) throw userNotFound();
    await users.setPassword({ identity: req.user!.identity }, id, password);
    res.json({ message: 'User password updated' });
  });

  router.put('/api/admin/users/:id/permissions', async (req, res) => {
    requireServerAdmin(req);
    const id = idParam(req, 'id');
    const flag = object(req.body).isSvcAdmin;
    if (typeof flag !== 'boolean') throw bad('bad request data');
    if (!(await users.userById(id))) throw userNotFound();
    await users.updateUser({ identity: req.user!.identity }, id, (spec) => ({ ...spec, isSvcAdmin: flag }));
    res.json({ message: 'User permissions updated' });
  });

  router.delete('/api/admin/users/:id', async (req, res) => {
    requireServerAdmin(req);
    const id = idParam(req, 'id');
    if (!(await users.userById(id))) throw userNotFound();
    if (!isServiceAccount(req.user!) && req.user!.userId === id) throw bad('You cannot delete your own user');
    await users.deleteUser({ identity: req.user!.identity }, id);
    await sessions?.revokeAll({ identity: req.user!.identity }, id);
    res.json({ message: 'User deleted' });
  });

  return router;
}
