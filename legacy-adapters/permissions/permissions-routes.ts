import type { Request, Response } from 'express';
import { dashboardKind as typedDashboardKind, folderKind as typedFolderKind } from '../../apis';
import { type Grantee, type ManagedPermissionItem } from '../../pkg/auth/authorization/permissions';
import { notFoundAsUndefined, StatusError } from '../../pkg/errors';
import { Annotations, anyKind, Labels, type Resource } from '../../pkg/meta';
import type { RequestContext } from '../../pkg/registry';
import { requestContext } from '../shared/request-context';
import { type AdapterDeps, byKind, type LegacyErrors, granteeDirectory } from '../shared';
import { type AclInfoDTO, type AclTarget, type AclUpdateItem, parseAclUpdate, toAclInfoDTO } from './permissions-conversions';

export type Guarded = 'folders' | 'dashboards';

/** What differs between the folder and the dashboard routes. */
const GUARDED = {
  folders: { kind: anyKind(typedFolderKind), updated: 'Folder permissions updated' },
  dashboards: { kind: anyKind(typedDashboardKind), updated: 'Dashboard permissions updated' },
} as const;

/** The registry's 404 for the object of the path, in the anchor's words (the area's, for every route). */
export const permissionErrors: LegacyErrors = {
  notFound: byKind({
    folders: () => new StatusError(404, 'NotFound', 'Folder not found'),
    dashboards: () => new StatusError(404, 'NotFound', 'Dashboard not found'),
  }),
};

const folderOf = (obj: Resource) => obj.metadata.annotations?.[Annotations.folder] ?? '';

function aclTarget(resource: Guarded, obj: Resource): AclTarget {
  const created = obj.metadata.creationTimestamp ?? '';
  return {
    isFolder: resource === 'folders',
    uid: obj.metadata.name,
    title: String((obj.spec as { title?: unknown }).title ?? ''),
    id: Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0),
    created,
    updated: obj.metadata.annotations?.[Annotations.updatedTimestamp] ?? created,
  };
}

/**
 * Folder and dashboard permissions (the anchor's `/api/folders/:uid/permissions` and
 * `/api/dashboards/uid/:uid/permissions`): the managed permission items of one object, listed with those it inherits
 * from its folders, and replaced whole. A thin client of the registry (the object, read as the caller) and of the
 * stored ResourcePermission objects; reading needs `<resource>.permissions:read`, replacing
 * `<resource>.permissions:write` on the object (folder Admins and org Admins hold them).
 */
/** The object of the path, read as the caller (403 when it may not read it), once it may do `action` there. */
async function guarded(deps: AdapterDeps, req: Request, resource: Guarded, action: 'read' | 'write'): Promise<Resource> {
  const { kind } = GUARDED[resource];
  const uid = req.params.uid as string;
  const obj = await deps.registry.get(requestContext(req, deps.registry), kind, uid);
  const needed = `${resource}.permissions:${action}`;
  if (!(await req.access?.can(needed, { scope: `${resource}:uid:${uid}`, folder: folderOf(obj) }))) {
    throw StatusError.accessDenied({ group: kind.group, resource: kind.plural }, uid, needed, req.user!.login);
  }
  return obj;
}

/** The object's items, then those of each folder above it (inherited), as the anchor lists them. */
async function list(deps: AdapterDeps, req: Request, resource: Guarded, obj: Resource): Promise<AclInfoDTO[]> {
  const orgId = req.user!.orgId;
  const target = aclTarget(resource, obj);
  const sources: { on: AclTarget; items: readonly ManagedPermissionItem[] }[] = [{ on: target, items: await deps.permissions.itemsOf(orgId, resource, obj.metadata.name) }];
  // Folders above are read without the caller's checks: an Admin of a subfolder sees what it inherits.
  const system: RequestContext = { ...requestContext(req, deps.registry), access: undefined };
  const seen = new Set<string>();
  for (let parent = folderOf(obj); parent && !seen.has(parent); ) {
    seen.add(parent);
    const folder = await deps.registry.get(system, GUARDED.folders.kind, parent).catch(notFoundAsUndefined);
    if (!folder) break;
    sources.push({ on: aclTarget('folders', folder), items: await deps.permissions.itemsOf(orgId, 'folders', parent) });
    parent = folderOf(folder);
  }
  const who = await granteeDirectory(deps.users, req.user!.orgId, sources.flatMap((s) => s.items.map((i) => i.grantee)));
  return sources.flatMap(({ on, items }) => items.map((i) => toAclInfoDTO(i.grantee, i.permission, who(i.grantee), on, target)));
}

/** The items of a replacing POST, with users and teams named by their uids (404 for an unknown one). */
async function toItems(deps: AdapterDeps, req: Request, resource: Guarded, uid: string, update: readonly AclUpdateItem[]): Promise<ManagedPermissionItem[]> {
  const out: ManagedPermissionItem[] = [];
  for (const item of update) {
    let grantee: Grantee;
    if ('role' in item) grantee = { kind: 'role', role: item.role };
    else if ('userId' in item) {
      const user = await deps.users.userById(item.userId);
      if (!user) throw new StatusError(404, 'NotFound', 'User not found');
      grantee = { kind: 'user', uid: user.uid };
    } else {
      const team = await deps.teams.teamById(req.user!.orgId, item.teamId);
      if (!team) throw new StatusError(404, 'NotFound', 'Team not found');
      grantee = { kind: 'team', uid: team.uid };
    }
    out.push({ resource, uid, grantee, permission: item.permission });
  }
  return out;
}

/** `GET` of a folder's or dashboard's permissions. */
export const getPermissions = (resource: Guarded) => async (req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
  const obj = await guarded(deps, req, resource, 'read');
  res.json(await list(deps, req, resource, obj));
};

/** `POST`: replaces them. */
export const updatePermissions = (resource: Guarded) => async (req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
  const update = parseAclUpdate(req.body);
  const obj = await guarded(deps, req, resource, 'write');
  const items = await toItems(deps, req, resource, obj.metadata.name, update);
  await deps.permissions.replace({ identity: req.user!.identity, login: req.user!.login }, req.user!.orgId, resource, obj.metadata.name, items);
  res.json({ message: GUARDED[resource].updated });
};
