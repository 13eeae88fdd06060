import type { RequestHandler } from 'express';
import { notFoundAsUndefined } from '../../errors';
import { Annotations, type KindRegistration } from '../../meta';
import type { AccessCheck, AccessObject, Registry, RequestContext } from '../../registry';
import { Authorizer, type FolderTree, type ManagedPermissionSource, type PermissionSource, type RoleSource } from './authorizer';
import type { Identity } from '../authentication/basic-auth';
import { DeletionViews } from './deletion-view';
import { KIND_ACCESS } from './kind-access';
import { defaultPermissionItems, type OrgRole, type Subject } from './permissions';
import type { StoredPermissions } from './stored-permissions';

/** The teams a user belongs to in an org (teams feed managed permissions and custom roles). */
export interface TeamMembership {
  teamUidsOf(orgId: number, userUid: string): Promise<string[]>;
}

export interface AccessControlOptions {
  /** The registry of folders and dashboards: the folder tree is read from it. */
  registry: Registry;
  /** Stored managed permissions: read by checks, written when callers create and delete folders and dashboards. */
  permissions?: StoredPermissions;
  /** Another source of managed permissions (tests); `permissions` is used when given. */
  managed?: ManagedPermissionSource;
  /** Enterprise custom roles. */
  roles?: RoleSource;
  teams?: TeamMembership;
  /** Permissions that come with memberships (a team's members read the team). */
  sources?: readonly PermissionSource[];
}

/**
 * The caller's identity as the authorizer sees it. `identity` is `<type>:<uid>` (`user:ab12`,
 * `service-account:cd34`, `anonymous:…`).
 */
export function subjectKindOf(identity: string): Subject['kind'] {
  if (identity.startsWith('service-account:')) return 'service-account';
  if (identity.startsWith('anonymous:')) return 'anonymous';
  return 'user';
}

/**
 * Authorization, wired: one {@link Authorizer} over the stored folder tree, managed permissions, custom roles and
 * teams, and the per-request {@link AccessCheck} the registry and the legacy adapters ask. Every endpoint goes
 * through it; no adapter decides access itself.
 *
 * @example
 *   const access = new AccessControl({ registry });
 *   app.use(['/api', '/apis'], attachAccess(access)); // after authentication and org selection
 *   await req.access!.can('dashboards:write', dashboardScope(uid));
 */
export class AccessControl {
  readonly authorizer: Authorizer;
  /** Who could read a deleted object (watch DELETED events); only with stored permissions, which history keeps. */
  private readonly deletions: DeletionViews | undefined;

  constructor(private readonly options: AccessControlOptions) {
    const tree = registryFolderTree(options.registry);
    this.authorizer = new Authorizer({ tree, managed: options.permissions ?? options.managed, roles: options.roles, sources: options.sources });
    this.deletions = options.permissions && new DeletionViews(options.registry, options.permissions, tree);
  }

  /** The subject of an authenticated caller in the org it acts in. */
  async subjectOf(user: Identity): Promise<Subject> {
    const kind = subjectKindOf(user.identity);
    const uid = user.identity.slice(user.identity.indexOf(':') + 1);
    const teamUids = kind === 'user' && this.options.teams ? await this.options.teams.teamUidsOf(user.orgId, uid) : [];
    return { kind, uid, orgId: user.orgId, orgRole: user.orgRole ?? 'None', isServerAdmin: kind === 'user' && user.isServerAdmin, teamUids };
  }

  /**
   * The access check of one caller; the subject is worked out once, on first use. Its hooks keep managed
   * permissions with the objects: a folder or dashboard the caller creates gets the anchor's default items
   * (`defaultPermissionItems`: creator Admin; at the root also Editor Edit and Viewer View), a deleted one loses
   * its items. The registry calls them after its transaction commits, for every kind declaring `access`.
   */
  forIdentity(user: Identity): AccessCheck {
    let subject: Promise<Subject> | undefined;
    const get = () => (subject ??= this.subjectOf(user));
    const permissions = this.options.permissions;
    const by = { identity: user.identity, login: user.login };
    const deletions = this.deletions;
    return {
      can: async (action, target = '') => this.authorizer.can(await get(), action, target),
      couldBeforeDeletion: async (action, obj) => {
        const scope = `${obj.resource}:uid:${obj.name}`;
        if (!isGuarded(obj)) return this.authorizer.can(await get(), action, scope);
        return this.authorizer.can(await get(), action, { scope, folder: obj.folder }, deletions && (await deletions.of(obj)));
      },
      filter: async (action, candidates, targetOf) => this.authorizer.filter(await get(), action, candidates, targetOf),
      // The hooks run inside the registry's transaction: they do no I/O but through `tx`.
      created: async (obj, tx) => {
        if (!permissions || !isGuarded(obj)) return;
        const kind = subjectKindOf(user.identity);
        const creator = kind === 'anonymous' ? undefined : { kind, uid: user.identity.slice(user.identity.indexOf(':') + 1) };
        await permissions.replaceWithin(tx, by, obj.namespace, obj.resource, obj.name, defaultPermissionItems(obj.resource, obj.name, obj.folder, creator));
      },
      createdTypes: (resource) => (permissions && KIND_ACCESS.isManaged(resource) ? [permissions.type] : []),
      deleted: async (objects, tx) => {
        for (const namespace of new Set(objects.map((o) => o.namespace))) {
          const guarded = objects.filter((o) => o.namespace === namespace && isGuarded(o)).map((o) => ({ resource: o.resource, uid: o.name, objectUid: o.uid }));
          if (permissions && guarded.length) await permissions.removeWithin(tx, by, namespace, guarded);
        }
      },
    };
  }
}

/** Objects of kinds that declare managed permissions (folders, dashboards) carry them; others (playlists) do not. */
function isGuarded(obj: AccessObject): boolean {
  return KIND_ACCESS.isManaged(obj.resource);
}

/** Sets `req.access` from `req.user`: mount after authentication and organization selection. */
export function attachAccess(access: AccessControl): RequestHandler {
  return (req, _res, next) => {
    if (req.user) {
      const user = req.user;
      req.access = access.forIdentity(user);
      // A list across namespaces checks each org's objects with the caller's role there.
      req.accessIn = (orgId, orgRole) => access.forIdentity({ ...user, orgId, orgRole });
    }
    next();
  };
}

/** The folder tree as stored: parents through the `svc.app/folder` annotation, read without access checks. */
export function registryFolderTree(registry: Registry): FolderTree {
  const folderKind = registry.kinds.find((k) => k.isFolder);
  const dashboardKind = registry.kinds.find((k) => k.inFolder && !k.isFolder && k.access?.resource === 'dashboards');
  const system = (orgId: number): RequestContext => ({ requester: { identity: 'service:access-control' }, namespace: registry.namespaces.of(orgId), fieldManager: 'svc-access' });
  const parents = folderKind ? folderParents(registry, folderKind, system) : async () => new Map<string, string>();
  return {
    async ancestorsOf(folderUid, orgId) {
      const parentOf = await parents(orgId);
      const out: string[] = [];
      const seen = new Set([folderUid]);
      let parent = parentOf.get(folderUid);
      while (parent && !seen.has(parent)) {
        out.push(parent);
        seen.add(parent);
        parent = parentOf.get(parent);
      }
      return out;
    },
    async folderOf(dashboardUid, orgId) {
      if (!dashboardKind) return undefined;
      const dashboard = await registry.get(system(orgId), dashboardKind, dashboardUid).catch(notFoundAsUndefined);
      return dashboard?.metadata.annotations?.[Annotations.folder];
    },
  };
}

/**
 * Each folder's parent in an org, read once and kept while the folder type's resourceVersion stays the same: a
 * check costs one small query (shared by the checks running at that moment) instead of a read per ancestor, and a
 * move or delete anywhere is seen by the next check.
 */
function folderParents(registry: Registry, folderKind: KindRegistration, system: (orgId: number) => RequestContext): (orgId: number) => Promise<Map<string, string>> {
  const cached = new Map<number, { version: number; parents: Promise<Map<string, string>> }>();
  let asking: Promise<number> | undefined;
  const currentVersion = () =>
    (asking ??= registry.versions(folderKind).then(
      (v) => ((asking = undefined), v.current),
      (err: unknown) => {
        asking = undefined;
        throw err;
      },
    ));
  const load = async (orgId: number) => {
    const list = await registry.list(system(orgId), folderKind, {});
    const parents = new Map<string, string>();
    for (const folder of list.items) {
      const parent = folder.metadata.annotations?.[Annotations.folder];
      if (parent) parents.set(folder.metadata.name, parent);
    }
    return parents;
  };
  return async (orgId) => {
    const version = await currentVersion();
    const hit = cached.get(orgId);
    if (hit && hit.version === version) return hit.parents;
    const parents = load(orgId);
    cached.set(orgId, { version, parents });
    parents.catch(() => cached.delete(orgId));
    return parents;
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The caller's permissions (attachAccess). */
      access?: AccessCheck;
      /** The caller's permissions in another of its organizations, with its role there (attachAccess). */
      accessIn?: (orgId: number, orgRole: OrgRole) => AccessCheck;
      /** A list across namespaces: the caller's organizations it may list the kind in, with its role (apisOrgAccess). */
      orgScopes?: { orgId: number; role: OrgRole }[];
      /** A list across namespaces: every membership of the caller when the request was authorized (apisOrgAccess). */
      orgMemberships?: { orgId: number; role: OrgRole }[];
    }
  }
}
