import { randomInt } from 'node:crypto';
import { BASIC_ROLE_PERMISSIONS, SERVER_ADMIN_ONLY_ACTIONS, SERVER_ADMIN_PERMISSIONS } from './basic-roles';
import {
  folderScope,
  GENERAL_FOLDER_UID,
  managedPermissions,
  scopeCovers,
  type ManagedPermissionItem,
  type Permission,
  type Subject,
} from './permissions';

/**
 * The one place that answers "may this caller do this": every endpoint declares the action and scope it needs
 * (`dashboards:read` on `dashboards:uid:<uid>`, `folders:create` on `folders:uid:<parent>`, `users:create` with no
 * scope) and asks {@link Authorizer.can}, or {@link Authorizer.filter} for lists.
 *
 * Folder inheritance is computed at check time, never stored: a dashboard's scope is also checked as its folder's
 * and that folder's ancestors', a folder's as its ancestors'. So `dashboards:read` on `folders:uid:team` reaches
 * every dashboard below `team`, however deep, and moving a folder moves its inherited permissions with it.
 */

/** The folder tree of an org, as the authorizer needs it. */
export interface FolderTree {
  /** Ancestors of a folder, nearest first, without the folder itself and without `general`; [] at the root. */
  ancestorsOf(folderUid: string, orgId: number): Promise<readonly string[]>;
  /** The folder a dashboard is in; undefined, '' or 'general' for the root. */
  folderOf(dashboardUid: string, orgId: number): Promise<string | undefined>;
}

/** Where managed folder/dashboard permission items come from (storage, later). */
export interface ManagedPermissionSource {
  /** Items of the subject's org that may concern it; a superset is fine, they are filtered again. */
  itemsFor(subject: Subject): Promise<readonly ManagedPermissionItem[]>;
}

/** Who a custom role can be assigned to. */
export interface Assignee {
  kind: 'user' | 'team' | 'service-account';
  uid: string;
}

/** Enterprise custom roles: extra permissions assigned to users, teams or service accounts within an org. */
export interface RoleSource {
  permissionsFor(orgId: number, assignees: readonly Assignee[]): Promise<readonly Permission[]>;
}

/**
 * Permissions that come with something the subject holds rather than with a role: a team's members read that team,
 * its team admins manage it (the anchor's team permissions).
 */
export interface PermissionSource {
  permissionsFor(subject: Subject): Promise<readonly Permission[]>;
}

export interface AuthorizerOptions {
  tree: FolderTree;
  managed?: ManagedPermissionSource;
  sources?: readonly PermissionSource[];
  /** Only in the enterprise edition; without it custom roles do not exist. */
  roles?: RoleSource;
}

/** Caches folder lookups for the length of one can() or filter() call. */
class Resolution {
  private readonly ancestors = new Map<string, Promise<readonly string[]>>();
  constructor(
    private readonly tree: FolderTree,
    private readonly orgId: number,
  ) {}

  private ancestorsOf(folderUid: string): Promise<readonly string[]> {
    let p = this.ancestors.get(folderUid);
    if (!p) {
      p = this.tree.ancestorsOf(folderUid, this.orgId);
      this.ancestors.set(folderUid, p);
    }
    return p;
  }

  private async folderChain(folderUid: string | undefined): Promise<string[]> {
    if (!folderUid || folderUid === GENERAL_FOLDER_UID) return [folderScope(GENERAL_FOLDER_UID)];
    return [folderUid, ...(await this.ancestorsOf(folderUid))].map(folderScope);
  }

  /**
   * The scopes a request on `scope` can be granted through. A root dashboard inherits from `folders:uid:general`
   * (as in the anchor); a folder does not, so `folders:create` on `general` creates root folders only (§5.6).
   */
  async expand(scope: string): Promise<string[]> {
    if (scope.startsWith('dashboards:uid:') && !scope.endsWith('*')) {
      const folder = await this.tree.folderOf(scope.slice('dashboards:uid:'.length), this.orgId);
      return [scope, ...(await this.folderChain(folder))];
    }
    if (scope.startsWith('folders:uid:') && !scope.endsWith('*')) {
      const uid = scope.slice('folders:uid:'.length);
      if (uid === GENERAL_FOLDER_UID) return [scope];
      return [scope, ...(await this.ancestorsOf(uid)).map(folderScope)];
    }
    return [scope];
  }
}

/**
 * Decides requests from the caller's org role, server-admin flag, managed permissions and custom roles.
 *
 * @example
 *   const authz = new Authorizer({ tree: { ancestorsOf: async () => [], folderOf: async () => undefined } });
 *   if (!(await authz.can(subject, 'dashboards:read', dashboardScope(uid)))) throw forbidden(accessDenied('dashboards:read'));
 *   const visible = await authz.filter(subject, 'folders:read', folders, (f) => folderScope(f.uid));
 */
export class Authorizer {
  constructor(private readonly options: AuthorizerOptions) {}

  /**
   * Everything the subject holds in its org, before inheritance is applied (what the anchor returns from
   * /api/access-control/user/permissions).
   *
   * @example
   *   await authz.permissionsOf(viewer); // [{ action: 'folders:read', scope: 'folders:uid:general' }, …]
   */
  async permissionsOf(subject: Subject): Promise<Permission[]> {
    const out: Permission[] = [...(BASIC_ROLE_PERMISSIONS[subject.orgRole] ?? [])];
    const isUser = subject.kind === 'user';
    if (isUser && subject.isServerAdmin) out.push(...SERVER_ADMIN_PERMISSIONS);
    if (this.options.managed) {
      out.push(...managedPermissions(await this.options.managed.itemsFor(subject), subject));
    }
    for (const source of this.options.sources ?? []) out.push(...(await source.permissionsFor(subject)));
    if (this.options.roles && subject.kind !== 'anonymous') {
      const assignees: Assignee[] = isUser
        ? [{ kind: 'user', uid: subject.uid }, ...subject.teamUids.map((uid): Assignee => ({ kind: 'team', uid }))]
        : [{ kind: 'service-account', uid: subject.uid }];
      const custom = await this.options.roles.permissionsFor(subject.orgId, assignees);
      // A service account cannot be made a server admin through a custom role either (§5.3).
      out.push(...(isUser ? custom : custom.filter((p) => !SERVER_ADMIN_ONLY_ACTIONS.has(p.action))));
    }
    return out;
  }

  /**
   * Whether the subject may do `action` on `scope`. With an empty scope, holding the action on any scope is
   * enough (as in the anchor: `users:create`, or "may read some dashboards" for showing a menu).
   *
   * @example
   *   await authz.can(editor, 'folders:create', folderScope(undefined)); // true: root folders
   *   await authz.can(editor, 'folders:create', folderScope('f1')); // only with Edit on f1 or above
   *   await authz.can(admin, 'users:create'); // false unless server admin
   */
  async can(subject: Subject, action: string, scope = ''): Promise<boolean> {
    const [allowed] = await this.filter(subject, action, [scope]);
    return allowed !== undefined;
  }

  /**
   * The candidates the subject may do `action` on, in their order: strings are scopes, anything else needs
   * `scopeOf`. Folder lookups are shared across candidates.
   *
   * @example
   *   await authz.filter(viewer, 'dashboards:read', ['dashboards:uid:a', 'dashboards:uid:b']); // ['dashboards:uid:a']
   *   await authz.filter(viewer, 'folders:read', folders, (f) => folderScope(f.uid));
   */
  filter(subject: Subject, action: string, candidates: readonly string[]): Promise<string[]>;
  filter<T>(subject: Subject, action: string, candidates: readonly T[], scopeOf: (c: T) => string): Promise<T[]>;
  async filter<T>(
    subject: Subject,
    action: string,
    candidates: readonly T[],
    scopeOf?: (c: T) => string,
  ): Promise<T[]> {
    if (candidates.length === 0) return [];
    if (subject.kind !== 'user' && SERVER_ADMIN_ONLY_ACTIONS.has(action)) return [];
    const granted = (await this.permissionsOf(subject)).filter((p) => p.action === action).map((p) => p.scope);
    if (granted.length === 0) return [];
    const resolution = new Resolution(this.options.tree, subject.orgId);
    const out: T[] = [];
    for (const candidate of candidates) {
      const scope = scopeOf ? scopeOf(candidate) : String(candidate);
      if (scope === '' || (await this.covered(granted, scope, resolution))) out.push(candidate);
    }
    return out;
  }

  private async covered(granted: readonly string[], scope: string, resolution: Resolution): Promise<boolean> {
    // Most denials and wildcard grants are decided without looking at the folder tree.
    if (granted.some((g) => scopeCovers(g, scope))) return true;
    const inherited = await resolution.expand(scope);
    return inherited.some((s) => granted.some((g) => scopeCovers(g, s)));
  }
}

/** The anchor's RBAC 403 body. */
export interface AccessDeniedBody {
  title: 'Access denied';
  message: string;
  accessErrorId: string;
}

/**
 * The body of a 403 for a missing RBAC permission, with a fresh `ACE` + 10 digits id to find it in the logs.
 *
 * @example
 *   accessDenied('dashboards:write');
 *   // { title: 'Access denied', message: "You'll need additional permissions to perform this action.
 *   //   Permissions needed: dashboards:write", accessErrorId: 'ACE0123456789' }
 */
export function accessDenied(action: string): AccessDeniedBody {
  let digits = '';
  for (let i = 0; i < 10; i++) digits += String(randomInt(10));
  return {
    title: 'Access denied',
    message: `You'll need additional permissions to perform this action. Permissions needed: ${action}`,
    accessErrorId: `ACE${digits}`,
  };
}

/**
 * The body of a 403 from an org-role check (endpoints the anchor guards by role rather than by action).
 *
 * @example
 *   permissionDenied(); // { message: 'Permission denied' }
 */
export function permissionDenied(): { message: 'Permission denied' } {
  return { message: 'Permission denied' };
}
