/**
 * The authorization model, in the anchor's RBAC terms: a permission is an action (`dashboards:read`) on a scope
 * (`dashboards:uid:abc`, `folders:*`, `*`); a caller holds the permissions of its org role, of the server-admin
 * flag, of managed folder/dashboard permissions and (enterprise) of custom roles; authorizer.ts decides.
 */

/** An organization role. `None` is a member with no basic permissions. */
export type OrgRole = 'None' | 'Viewer' | 'Editor' | 'Admin';

/** An action on a scope. An empty scope means the action is not about one resource (`users:create`). */
export interface Permission {
  action: string;
  scope: string;
}

/** Who is asking: the authenticated identity, in the org the request applies to. */
export interface Subject {
  kind: 'user' | 'service-account' | 'anonymous';
  uid: string;
  orgId: number;
  orgRole: OrgRole;
  /** Server administrator (`isSvcAdmin`); only ever honoured for users. */
  isServerAdmin: boolean;
  teamUids: string[];
}

/** The root "folder" of an org: dashboards and folders without a parent live in it. */
export const GENERAL_FOLDER_UID = 'general';

/**
 * Scope of one dashboard.
 *
 * @example
 *   dashboardScope('abc'); // 'dashboards:uid:abc'
 */
export function dashboardScope(uid: string): string {
  return `dashboards:uid:${uid}`;
}

/**
 * Scope of one folder; the root is `folders:uid:general`.
 *
 * @example
 *   folderScope('f1'); // 'folders:uid:f1'
 *   folderScope(undefined); // 'folders:uid:general'
 */
export function folderScope(uid: string | undefined): string {
  return `folders:uid:${uid || GENERAL_FOLDER_UID}`;
}

/**
 * Whether a granted scope covers a requested one, by the anchor's rule: equal, or the granted scope ends in `*`
 * and the requested one starts with what precedes it. A `*` anywhere else makes the granted scope invalid (it
 * covers nothing). A requested wildcard is covered only by a grant at least as wide.
 *
 * @example
 *   scopeCovers('dashboards:*', 'dashboards:uid:abc'); // true
 *   scopeCovers('dashboards:uid:*', 'dashboards:*'); // false: narrower than asked
 *   scopeCovers('*', 'folders:uid:f1'); // true
 */
export function scopeCovers(granted: string, requested: string): boolean {
  if (granted === '') return false;
  const body = granted.slice(0, -1);
  if (body.includes('*') || body.includes('?')) return false;
  if (granted.endsWith('*')) return requested.startsWith(body);
  return granted === requested;
}

/** Permission levels of managed (per folder / per dashboard) permissions, as the anchor's permission UI offers. */
export type PermissionLevel = 'View' | 'Edit' | 'Admin';

/** Who a managed permission is for. A role grant also applies to the roles above it (Viewer → Editor, Admin). */
export type Grantee =
  | { kind: 'role'; role: OrgRole }
  | { kind: 'user'; uid: string }
  | { kind: 'service-account'; uid: string }
  | { kind: 'team'; uid: string };

/** One row of a folder's or dashboard's permission list. */
export interface ManagedPermissionItem {
  resource: 'folders' | 'dashboards';
  uid: string;
  grantee: Grantee;
  permission: PermissionLevel;
}

/**
 * Actions per level, from the anchor's ossaccesscontrol dashboard.go and folder.go (`DashboardViewActions`,
 * `FolderViewActions`... without alerting). A folder level carries the dashboard actions too, so that with
 * inheritance it grants them on every dashboard below. `folders:create` is in folder Edit: an editor of a folder
 * may create subfolders in it (spec §5.6), as the anchor's folder action sets allow.
 */
const ACTIONS: Record<'folders' | 'dashboards', Record<PermissionLevel, readonly string[]>> = (() => {
  const dashView = ['dashboards:read'];
  const dashEdit = [...dashView, 'dashboards:write', 'dashboards:delete'];
  const dashAdmin = [...dashEdit, 'dashboards.permissions:read', 'dashboards.permissions:write'];
  const folderView = ['folders:read', 'library.panels:read'];
  const folderEdit = [
    ...folderView,
    'folders:write',
    'folders:delete',
    'folders:create',
    'dashboards:create',
    'library.panels:create',
    'library.panels:write',
    'library.panels:delete',
  ];
  const folderAdmin = [...folderEdit, 'folders.permissions:read', 'folders.permissions:write'];
  return {
    dashboards: { View: dashView, Edit: dashEdit, Admin: dashAdmin },
    folders: {
      View: [...dashView, ...folderView],
      Edit: [...dashEdit, ...folderEdit],
      Admin: [...dashAdmin, ...folderAdmin],
    },
  };
})();

/**
 * The actions a managed permission level grants on a folder or dashboard.
 *
 * @example
 *   actionsFor('dashboards', 'Edit'); // ['dashboards:read', 'dashboards:write', 'dashboards:delete']
 */
export function actionsFor(resource: 'folders' | 'dashboards', level: PermissionLevel): readonly string[] {
  return ACTIONS[resource][level];
}

const RANK: Record<OrgRole, number> = { None: 0, Viewer: 1, Editor: 2, Admin: 3 };

/**
 * Whether a member with `role` gets what is granted to `granted`: Admin includes Editor includes Viewer, as the
 * anchor's basic roles inherit. `None` includes nothing else and is included by nothing else.
 *
 * @example
 *   roleIncludes('Editor', 'Viewer'); // true
 *   roleIncludes('Viewer', 'None'); // false
 */
export function roleIncludes(role: OrgRole, granted: OrgRole): boolean {
  if (granted === 'None' || role === 'None') return role === granted;
  return (RANK[role] ?? 0) >= RANK[granted];
}

function appliesTo(grantee: Grantee, subject: Subject): boolean {
  switch (grantee.kind) {
    case 'role':
      return roleIncludes(subject.orgRole, grantee.role);
    case 'user':
      return subject.kind === 'user' && subject.uid === grantee.uid;
    case 'service-account':
      return subject.kind === 'service-account' && subject.uid === grantee.uid;
    case 'team':
      return subject.kind === 'user' && subject.teamUids.includes(grantee.uid);
  }
}

/**
 * The permissions a list of managed permission items gives a subject: the items for its user or service account,
 * its teams and its role, each level turned into actions on that folder's or dashboard's scope. Inheritance down
 * nested folders is not expanded here; the authorizer resolves it when it checks.
 *
 * @example
 *   managedPermissions(
 *     [{ resource: 'folders', uid: 'f1', grantee: { kind: 'team', uid: 'ops' }, permission: 'View' }],
 *     { kind: 'user', uid: 'u1', orgId: 1, orgRole: 'None', isServerAdmin: false, teamUids: ['ops'] },
 *   );
 *   // [{ action: 'dashboards:read', scope: 'folders:uid:f1' }, { action: 'folders:read', scope: 'folders:uid:f1' }, …]
 */
export function managedPermissions(items: readonly ManagedPermissionItem[], subject: Subject): Permission[] {
  const out: Permission[] = [];
  for (const item of items) {
    if (!appliesTo(item.grantee, subject)) continue;
    const scope = item.resource === 'folders' ? folderScope(item.uid) : dashboardScope(item.uid);
    for (const action of actionsFor(item.resource, item.permission)) out.push({ action, scope });
  }
  return out;
}

/**
 * The permission items a new folder or dashboard starts with, as the anchor sets them: its creator is Admin, and a
 * root-level one also gives Editors Edit and Viewers View. Nested ones inherit from their parents instead.
 *
 * @example
 *   defaultPermissionItems('folders', 'f1', undefined, { kind: 'user', uid: 'u1' });
 *   // creator Admin, Editor Edit, Viewer View
 */
export function defaultPermissionItems(
  resource: 'folders' | 'dashboards',
  uid: string,
  parentFolderUid: string | undefined,
  creator: { kind: 'user' | 'service-account'; uid: string } | undefined,
): ManagedPermissionItem[] {
  const items: ManagedPermissionItem[] = [];
  if (creator) items.push({ resource, uid, grantee: { kind: creator.kind, uid: creator.uid }, permission: 'Admin' });
  if (!parentFolderUid || parentFolderUid === GENERAL_FOLDER_UID) {
    items.push({ resource, uid, grantee: { kind: 'role', role: 'Editor' }, permission: 'Edit' });
    items.push({ resource, uid, grantee: { kind: 'role', role: 'Viewer' }, permission: 'View' });
  }
  return items;
}
