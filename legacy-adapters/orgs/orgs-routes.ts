import type { Request, Response } from 'express';
import { type IdentityDirectory, lastServerAdmin } from '../../pkg/auth/identity/identity-directory';
import { StatusError } from '../../pkg/errors';
import { z } from 'zod';
import { type AdapterDeps, bind, bodyObject, idParam, positiveQueryInt, queryInt, queryString, requireRoleAtMostOwn } from '../shared';
import { fromUserSearchQuery } from '../users/users-conversions';
import { type OrgUserDTO, parseRole, toOrgDTO, toOrgUserDTO, toUserLookupDTO } from './orgs-conversions';

/**
 * Organizations and the current org's members, as clients of the identity kinds. Creating organizations is for
 * server admins (the anchor's default, `users.allow_org_create = false`); the creator becomes the org's Admin.
 */

const bad = (message: string) => StatusError.badRequest(message);
const by = (req: Request) => ({ identity: req.user!.identity });
/** `POST /api/orgs`: a name that is not blank. */
const createOrgCommand = z.object({ name: z.string().trim().min(1) });
const userNotFound = () => new StatusError(404, 'NotFound', 'User not found');
export const orgNotFound = () => new StatusError(404, 'NotFound', 'Organization not found');

/**
 * The organization a members route acts on: the path's `:orgId` (`/api/orgs/:orgId/users`, 400 "orgId is invalid",
 * 404 when there is none), else the one the request acts in (`/api/org/users`).
 */
export async function orgOf(req: Request, users: IdentityDirectory): Promise<number> {
  if (req.params.orgId === undefined) return req.user!.orgId;
  const org = await users.orgById(idParam(req, 'orgId'));
  if (!org) throw orgNotFound();
  return org.id;
}

/**
 * One page of the members of `orgId` whose login, email or name holds `query` (any case), as the anchor lists them
 * (by user id, or by login), with their role and last activity and how many match in all: three reads, whatever the
 * org's size.
 */
async function orgUsers(orgId: number, q: { query: string; orderBy: 'id' | 'login'; offset: number; limit?: number }, { users, lastSeen }: AdapterDeps) {
  const found = await users.searchUsers({ ...q, orgId });
  const [roles, seen] = await Promise.all([users.rolesOf(orgId, found.users.map((u) => u.id)), lastSeen.of(found.users.map((u) => u.uid))]);
  const now = Date.now();
  const members = found.users.filter((u) => roles.has(u.id));
  return { totalCount: found.totalCount, orgUsers: members.map((u): OrgUserDTO => toOrgUserDTO(orgId, u, roles.get(u.id)!, seen.get(u.uid), now)) };
}

export async function createOrg(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const { name } = bind(req, createOrgCommand);
  // The organization and its creator's membership in one transaction.
  const org = await users.createOrg(by(req), name, undefined, req.user!.userId);
  res.json({ orgId: org.id, message: 'Organization created' });
}

/**
 * `GET /api/orgs`, as the anchor's org store searches: `query` a prefix of the name (any case, as its default
 * SQLite's LIKE), `name` the exact name, `perpage` organizations (default 1000) after skipping `perpage` × `page`:
 * the anchor's page counts from 0, so its documented default `page=1` skips the first page. By id.
 */
export async function searchOrgs(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const prefix = (queryString(req.query.query) ?? '').toLowerCase();
  const name = queryString(req.query.name) ?? '';
  const perPage = positiveQueryInt(req.query.perpage, 1000);
  const page = Math.max(0, queryInt(req.query.page));
  const orgs = (await users.listOrgs()).filter((o) => o.name.toLowerCase().startsWith(prefix) && (name === '' || o.name === name));
  res.json(orgs.slice(perPage * page, perPage * page + perPage).map(toOrgDTO));
}

export async function getOrgUsers(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  res.json((await orgUsers(await orgOf(req, deps.users), { query: '', orderBy: 'id', offset: 0 }, deps)).orgUsers);
}

/**
 * `GET /api/orgs/:orgId/users/search`: the members whose login, email or name contains `query` (any case), a page
 * at a time (`perpage` default 1000, `page` from 1), by login.
 */
export async function searchOrgUsers(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const orgId = await orgOf(req, deps.users);
  const q = fromUserSearchQuery(req.query as Record<string, unknown>);
  const found = await orgUsers(orgId, { query: q.query, orderBy: 'login', offset: (q.page - 1) * q.perPage, limit: q.perPage }, deps);
  res.json({ ...found, page: q.page, perPage: q.perPage });
}

/** `GET /api/org/users/lookup`: members of the current org matching `query`, at most `limit` (default 1000), by login. */
export async function lookupOrgUsers(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const query = (queryString(req.query.query) ?? '').trim();
  const found = await users.searchUsers({ query, orgId: req.user!.orgId, offset: 0, limit: positiveQueryInt(req.query.limit, 1000) });
  res.json(found.users.map(toUserLookupDTO));
}

export async function addOrgUser(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const b = bodyObject(req);
  if (typeof b.loginOrEmail !== 'string') throw bad('bad request data');
  const role = parseRole(b.role);
  if (!role) throw bad('Invalid role specified');
  requireRoleAtMostOwn(req, role);
  const orgId = await orgOf(req, users);
  const user = await users.userByLoginOrEmail(b.loginOrEmail);
  if (!user) throw userNotFound();
  if (await users.roleOf(orgId, user.id)) {
    res.status(409).json({ message: 'User is already member of this organization', userId: user.id });
    return;
  }
  await users.setRole(by(req), orgId, user.id, role);
  res.json({ message: 'User added to organization', userId: user.id });
}

export async function updateOrgUser(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const orgId = await orgOf(req, users);
  const userId = idParam(req, 'userId');
  const role = parseRole(bodyObject(req).role);
  if (!role) throw bad('Invalid role specified');
  requireRoleAtMostOwn(req, role);
  const current = await users.roleOf(orgId, userId);
  if (!current) throw userNotFound();
  if (current === 'Admin' && role !== 'Admin') await keepOneAdmin(users, orgId, 'Cannot change role so that there is no organization admin left');
  await users.setRole(by(req), orgId, userId, role);
  res.json({ message: 'Organization user updated' });
}

export async function removeOrgUser(req: Request, res: Response, { users }: AdapterDeps): Promise<void> {
  const orgId = await orgOf(req, users);
  const userId = idParam(req, 'userId');
  const current = await users.roleOf(orgId, userId);
  if (!current) throw userNotFound();
  if (current === 'Admin') await keepOneAdmin(users, orgId, 'Cannot remove last organization admin');
  await users.removeMember(by(req), orgId, userId);
  // As the anchor: a user removed from its last organization through /api/org/users is deleted, unless it is the
  // last server admin; through /api/orgs/:orgId/users it stays (the anchor's ShouldDeleteOrphanedUser).
  if (req.params.orgId === undefined && (await users.orgsOf(userId)).length === 0) {
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
