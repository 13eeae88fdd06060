import type { Request, Response } from 'express';
import { type IdentityDirectory, lastServerAdmin } from '../../pkg/auth/identity/identity-directory';
import { StatusError } from '../../pkg/errors';
import { z } from 'zod';
import { type AdapterDeps, bind, bodyObject, idParam } from '../shared';
import { type OrgUserDTO, parseRole, toOrgDTO, toOrgUserDTO } from './orgs-conversions';

/**
 * Organizations and the current org's members, as clients of the identity kinds. Creating organizations is for
 * server admins (the anchor's default, `users.allow_org_create = false`); the creator becomes the org's Admin.
 */

const bad = (message: string) => StatusError.badRequest(message);
const by = (req: Request) => ({ identity: req.user!.identity });
/** `POST /api/orgs`: a name that is not blank. */
const createOrgCommand = z.object({ name: z.string().trim().min(1) });
const userNotFound = () => new StatusError(404, 'NotFound', 'User not found');

export async function createOrg(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const { name } = bind(req, createOrgCommand);
  const org = await users.createOrg(by(req), name);
  await users.setRole(by(req), org.id, req.user!.userId, 'Admin');
  res.json({ orgId: org.id, message: 'Organization created' });
}

export async function searchOrgs(_req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  res.json((await users.listOrgs()).map(toOrgDTO));
}

export async function getOrgUsers(req: Request, res: Response, { users, lastSeen }: AdapterDeps): Promise<void> {
  const orgId = req.user!.orgId;
  const out: OrgUserDTO[] = [];
  const seen = await lastSeen.all();
  const now = Date.now();
  for (const m of await users.membersOf(orgId)) {
    const user = await users.userById(m.userId);
    if (user) out.push(toOrgUserDTO(orgId, user, m.role, seen.get(user.uid), now));
  }
  res.json(out);
}

export async function addOrgUser(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const b = bodyObject(req);
  if (typeof b.loginOrEmail !== 'string') throw bad('bad request data');
  const role = parseRole(b.role);
  if (!role) throw bad('Invalid role specified');
  const user = await users.userByLoginOrEmail(b.loginOrEmail);
  if (!user) throw userNotFound();
  const orgId = req.user!.orgId;
  if (await users.roleOf(orgId, user.id)) {
    res.status(409).json({ message: 'User is already member of this organization', userId: user.id });
    return;
  }
  await users.setRole(by(req), orgId, user.id, role);
  res.json({ message: 'User added to organization', userId: user.id });
}

export async function updateOrgUser(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const userId = idParam(req, 'userId');
  const role = parseRole(bodyObject(req).role);
  if (!role) throw bad('Invalid role specified');
  const orgId = req.user!.orgId;
  const current = await users.roleOf(orgId, userId);
  if (!current) throw userNotFound();
  if (current === 'Admin' && role !== 'Admin') await keepOneAdmin(users, orgId, 'Cannot change role so that there is no organization admin left');
  await users.setRole(by(req), orgId, userId, role);
  res.json({ message: 'Organization user updated' });
}

export async function removeOrgUser(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const userId = idParam(req, 'userId');
  const orgId = req.user!.orgId;
  const current = await users.roleOf(orgId, userId);
  if (!current) throw userNotFound();
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
}

/** The anchor refuses to leave an organization without an Admin. */
async function keepOneAdmin(users: IdentityDirectory, orgId: number, message: string): Promise<void> {
  const admins = (await users.membersOf(orgId)).filter((m) => m.role === 'Admin');
  if (admins.length <= 1) throw bad(message);
}
