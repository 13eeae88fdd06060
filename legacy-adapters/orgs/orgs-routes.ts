import { type Request, Router } from 'express';
import { type IdentityDirectory, lastServerAdmin } from '../../pkg/auth/identity-directory';
import type { LastSeenTracker } from '../../pkg/auth/last-seen';
import { permissionDeniedError } from '../../pkg/auth/org-access';
import { StatusError } from '../../pkg/errors';
import { idParam } from '../users/users-routes';
import { type OrgUserDTO, parseRole, toOrgDTO, toOrgUserDTO } from './orgs-conversions';

const bad = (message: string) => new StatusError(400, 'BadRequest', message);

function body(req: Request): Record<string, unknown> {
  const b: unknown = req.body;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw bad('bad request data');
  return b as Record<string, unknown>;
}

/**
 * The org role an endpoint needs in the request's org (server admins pass, as the anchor's Grafana-admin role does):
 * else 403 "Permission denied".
 *
 * @example
 *   router.put('/api/org/preferences', (req) => { requireOrgAdmin(req); ... });
 */
export function requireOrgAdmin(req: Request): void {
  if (!req.user!.isServerAdmin && req.user!.orgRole !== 'Admin') throw permissionDeniedError();
}

/**
 * Organizations and the current org's members, as clients of the identity kinds. Creating organizations is for
 * server admins (the anchor's default, `users.allow_org_create = false`); the creator becomes the org's Admin.
 */
export function legacyOrgsRouter(users: IdentityDirectory, lastSeen?: LastSeenTracker): Router {
  const router = Router();
  const by = (req: Request) => ({ identity: req.user!.identity });

  router.post('/api/orgs', async (req, res) => {
    if (!req.user!.isServerAdmin) throw permissionDeniedError();
    const name = body(req).name;
    if (typeof name !== 'string' || name.trim() === '') throw bad('bad request data');
    const org = await users.createOrg(by(req), name.trim());
    await users.setRole(by(req), org.id, req.user!.userId, 'Admin');
    res.json({ orgId: org.id, message: 'Organization created' });
  });

  router.get('/api/orgs', async (req, res) => {
    if (!req.user!.isServerAdmin) throw permissionDeniedError();
    res.json((await users.listOrgs()).map(toOrgDTO));
  });

  router.get('/api/org/users', async (req, res) => {
    requireOrgAdmin(req);
    const orgId = req.user!.orgId;
    const out: OrgUserDTO[] = [];
    const seen = (await lastSeen?.all()) ?? new Map<string, string>();
    const now = Date.now();
    for (const m of await users.membersOf(orgId)) {
      const user = await users.userById(m.userId);
      if (user) out.push(toOrgUserDTO(orgId, user, m.role, seen.get(user.uid), now));
    }
    res.json(out);
  });

  router.post('/api/org/users', async (req, res) => {
    requireOrgAdmin(req);
    const b = body(req);
    if (typeof b.loginOrEmail !== 'string') throw bad('bad request data');
    const role = parseRole(b.role);
    if (!role) throw bad('Invalid role specified');
    const user = await users.userByLoginOrEmail(b.loginOrEmail);
    if (!user) throw new StatusError(404, 'NotFound', 'User not found');
    const orgId = req.user!.orgId;
    if (await users.roleOf(orgId, user.id)) {
      res.status(409).json({ message: 'User is already member of this organization', userId: user.id });
      return;
    }
    await users.setRole(by(req), orgId, user.id, role);
    res.json({ message: 'User added to organization', userId: user.id });
  });

  router.patch('/api/org/users/:userId', async (req, res) => {
    requireOrgAdmin(req);
    const userId = idParam(req, 'userId');
    const role = parseRole(body(req).role);
    if (!role) throw bad('Invalid role specified');
    const orgId = req.user!.orgId;
    const current = await users.roleOf(orgId, userId);
    if (!current) throw new StatusError(404, 'NotFound', 'User not found');
    if (current === 'Admin' && role !== 'Admin') await keepOneAdmin(users, orgId, 'Cannot change role so that there is no organization admin left');
    await users.setRole(by(req), orgId, userId, role);
    res.json({ message: 'Organization user updated' });
  });

  router.delete('/api/org/users/:userId', async (req, res) => {
    requireOrgAdmin(req);
    const userId = idParam(req, 'userId');
    const orgId = req.user!.orgId;
    const current = await users.roleOf(orgId, userId);
    if (!current) throw new StatusError(404, 'NotFound', 'User not found');
    if (current === 'Admin') await keepOneAdmin(users, orgId, 'Cannot remove last organization admin');
    await users.removeMember(by(req), orgId, userId);
    // As the anchor: a user removed from its last organization is deleted, unless it is the last server admin.
    if ((await users.orgsOf(userId)).length === 0) {
      const deleted = await users.deleteUser(by(req), userId).then(
        () => true,
        (err: unknown) => {
          if (err instanceof StatusError && err.message === lastServerAdmin().message) return false;
          throw err;
        },
      );
      if (deleted) return void res.json({ message: 'User deleted' });
    }
    res.json({ message: 'User removed from organization' });
  });

  return router;
}

/** The anchor refuses to leave an organization without an Admin. */
async function keepOneAdmin(users: IdentityDirectory, orgId: number, message: string): Promise<void> {
  const admins = (await users.membersOf(orgId)).filter((m) => m.role === 'Admin');
  if (admins.length <= 1) throw bad(message);
}
