import type { AccessTarget } from '../../registry/context';
import { BASIC_ROLE_PERMISSIONS, SERVER_ADMIN_ONLY_ACTIONS, SERVER_ADMIN_PERMISSIONS } from './basic-roles';
import { GrantIndex, granteeKeysOf, levelGrants, type ManagedGrants, type ManagedLookup } from './grants';
import { folderScope, GENERAL_FOLDER_UID, managedPermissions, type OrgRole, type Permission, type Subject } from './permissions';

export { accessDenied, type AccessDeniedBody } from '../../errors';

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

/** Where managed folder/dashboard permissions come from (pkg/auth/authorization/stored-permissions.ts stores them). */
export interface ManagedPermissionSource {
  /** The managed permissions of an org, as of now. */
  grantsFor(orgId: number): Promise<ManagedGrants>;
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

/**
 * The folder tree and managed permissions a check reads: the current ones, or those of a moment past (see
 * `Authorizer.can`).
 */
export interface AuthorizerView {
  tree: FolderTree;
  managed?: { grantsFor(orgId: number): Promise<ManagedLookup> };
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
   * The scopes a request on `target` can be granted through. A root dashboard inherits from `folders:uid:general`
   * (as in the anchor); a folder does not, so `folders:create` on `general` creates root folders only (§5.6). A
   * target that names its folder is not looked up.
   */
  async expand(target: AccessTarget): Promise<string[]> {
    const { scope, folder } = typeof target === 'string' ? { scope: target, folder: undefined } : target;
    if (scope.endsWith('*')) return [scope];
    if (scope.startsWith('folders:uid:')) {
      const uid = scope.slice('folders:uid:'.length);
      if (uid === GENERAL_FOLDER_UID) return [scope];
      if (folder !== undefined) return [scope, ...(folder && folder !== GENERAL_FOLDER_UID ? await this.folderChain(folder) : [])];
      return [scope, ...(await this.ancestorsOf(uid)).map(folderScope)];
    }
    if (folder !== undefined) return [scope, ...(await this.folderChain(folder))];
    if (scope.startsWith('dashboards:uid:')) {
      return [scope, ...(await this.folderChain(await this.tree.folderOf(scope.slice('dashboards:uid:'.length), this.orgId)))];
    }
    return [scope];
  }
}

/** What a subject holds, worked out once per check: its fixed permissions and, looked up when needed, managed ones. */
class Grants {
  private managed: Promise<ManagedLookup | undefined> | undefined;
  private readonly grantees: string[];

  constructor(
    private readonly fixed: GrantIndex,
    private readonly source: AuthorizerView['managed'],
    private readonly subject: Subject,
  ) {
    this.grantees = granteeKeysOf(subject);
  }

  private managedGrants(): Promise<ManagedLookup | undefined> {
    return (this.managed ??= this.source ? this.source.grantsFor(this.subject.orgId) : Promise.resolve(undefined));
  }

  /** Whether the action is held on any scope. */
  async holds(action: string): Promise<boolean> {
    if (this.fixed.holds(action)) return true;
    return (await this.managedGrants())?.holds(this.grantees, action) ?? false;
  }

  async covers(action: string, scope: string): Promise<boolean> {
    if (this.fixed.covers(action, scope)) return true;
    const level = (await this.managedGrants())?.levelOf(this.grantees, scope);
    return level !== undefined && levelGrants(scope, level, action);
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
  /** The fixed permissions of each role (× server admin), indexed once. */
  private readonly fixed = new Map<string, GrantIndex>();

  constructor(private readonly options: AuthorizerOptions) {}

  /**
   * Everything the subject holds in its org, before inheritance is applied (what the anchor returns from
   * /api/access-control/user/permissions).
   *
   * @example
   *   await authz.permissionsOf(viewer); // [{ action: 'folders:read', scope: 'folders:uid:general' }, …]
   */
  async permissionsOf(subject: Subject): Promise<Permission[]> {
    const out: Permission[] = [...this.fixedPermissions(subject), ...(await this.customPermissions(subject))];
    if (this.options.managed) {
      out.push(...managedPermissions([...(await this.options.managed.grantsFor(subject.orgId)).items()], subject));
    }
    return out;
  }

  /**
   * Whether the subject may do `action` on `target`. With an empty scope, holding the action on any scope is
   * enough (as in the anchor: `users:create`, or "may read some dashboards" for showing a menu).
   *
   * @example
   *   await authz.can(editor, 'folders:create', folderScope(undefined)); // true: root folders
   *   await authz.can(editor, 'folders:create', folderScope('f1')); // only with Edit on f1 or above
   *   await authz.can(viewer, 'dashboards:read', { scope: dashboardScope('d1'), folder: 'f1' }); // folder known
   *   await authz.can(admin, 'users:create'); // false unless server admin
   *
   * `view` replaces the folder tree and managed permissions read (default the current ones): a deleted object is
   * checked with its permissions and folders as they were when it was deleted (see DeletionViews).
   */
  async can(subject: Subject, action: string, target: AccessTarget = '', view?: AuthorizerView): Promise<boolean> {
    const [allowed] = await this.decide(subject, action, [target], (t) => t, view ?? this.options);
    return allowed !== undefined;
  }

  /**
   * The candidates the subject may do `action` on, in their order: strings are scopes, anything else needs
   * `targetOf`. Permissions are looked up once and folder lookups are shared across candidates.
   *
   * @example
   *   await authz.filter(viewer, 'dashboards:read', ['dashboards:uid:a', 'dashboards:uid:b']); // ['dashboards:uid:a']
   *   await authz.filter(viewer, 'folders:read', folders, (f) => folderScope(f.uid));
   */
  filter(subject: Subject, action: string, candidates: readonly string[]): Promise<string[]>;
  filter<T>(subject: Subject, action: string, candidates: readonly T[], targetOf: (c: T) => AccessTarget): Promise<T[]>;
  async filter<T>(subject: Subject, action: string, candidates: readonly T[], targetOf?: (c: T) => AccessTarget): Promise<T[]> {
    return this.decide(subject, action, candidates, targetOf ?? ((c) => c as AccessTarget), this.options);
  }

  private async decide<T>(subject: Subject, action: string, candidates: readonly T[], targetOf: (c: T) => AccessTarget, view: AuthorizerView): Promise<T[]> {
    if (candidates.length === 0) return [];
    if (subject.kind !== 'user' && SERVER_ADMIN_ONLY_ACTIONS.has(action)) return [];
    const custom = await this.customPermissions(subject);
    const fixed = custom.length ? new GrantIndex([...this.fixedPermissions(subject), ...custom]) : this.fixedIndex(subject);
    const grants = new Grants(fixed, view.managed, subject);
    if (!(await grants.holds(action))) return [];
    const resolution = new Resolution(view.tree, subject.orgId);
    const out: T[] = [];
    for (const candidate of candidates) {
      const target = targetOf(candidate);
      if (await this.covered(grants, action, target, resolution)) out.push(candidate);
    }
    return out;
  }

  private async covered(grants: Grants, action: string, target: AccessTarget, resolution: Resolution): Promise<boolean> {
    const scope = typeof target === 'string' ? target : target.scope;
    if (scope === '') return true; // the action is held (checked by filter)
    // Most grants (wildcards, the object's own items) are decided without looking at the folder tree.
    if (await grants.covers(action, scope)) return true;
    for (const s of (await resolution.expand(target)).slice(1)) {
      if (await grants.covers(action, s)) return true;
    }
    return false;
  }

  private fixedPermissions(subject: Subject): readonly Permission[] {
    const base = BASIC_ROLE_PERMISSIONS[subject.orgRole] ?? [];
    return subject.kind === 'user' && subject.isServerAdmin ? [...base, ...SERVER_ADMIN_PERMISSIONS] : base;
  }

  private fixedIndex(subject: Subject): GrantIndex {
    const admin = subject.kind === 'user' && subject.isServerAdmin;
    const key = `${subject.orgRole as OrgRole}:${admin}`;
    let idx = this.fixed.get(key);
    if (!idx) this.fixed.set(key, (idx = new GrantIndex(this.fixedPermissions(subject))));
    return idx;
  }

  /** What the subject holds beyond its role: permission sources (teams), enterprise custom roles. */
  private async customPermissions(subject: Subject): Promise<readonly Permission[]> {
    const out: Permission[] = [];
    for (const source of this.options.sources ?? []) out.push(...(await source.permissionsFor(subject)));
    return [...out, ...(await this.rolePermissions(subject))];
  }

  /** Enterprise custom roles of the subject (none without a role source). */
  private async rolePermissions(subject: Subject): Promise<readonly Permission[]> {
    if (!this.options.roles || subject.kind === 'anonymous') return [];
    const isUser = subject.kind === 'user';
    const assignees: Assignee[] = isUser
      ? [{ kind: 'user', uid: subject.uid }, ...subject.teamUids.map((uid): Assignee => ({ kind: 'team', uid }))]
      : [{ kind: 'service-account', uid: subject.uid }];
    const custom = await this.options.roles.permissionsFor(subject.orgId, assignees);
    // A service account cannot be made a server admin through a custom role either (§5.3).
    return isUser ? custom : custom.filter((p) => !SERVER_ADMIN_ONLY_ACTIONS.has(p.action));
  }
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
