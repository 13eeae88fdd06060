import type { OrgRole } from '../../../apis/iam.svc.app/v0alpha1/orgmember';
import type { PermissionLevel as MetaPermissionLevel } from '../../meta';
import { KIND_ACCESS } from './kind-access';

/**
 * The authorization model, in the anchor's RBAC terms: a permission is an action (`dashboards:read`) on a scope
 * (`dashboards:uid:abc`, `folders:*`, `*`); a caller holds the permissions of its org role, of the server-admin
 * flag, of managed folder/dashboard permissions and (enterprise) of custom roles; authorizer.ts decides.
 */

export type { OrgRole };

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

/** Permission levels of managed (per object) permissions, as the anchor's permission UI offers; kinds declare them. */
export type PermissionLevel = MetaPermissionLevel;

/** Who a managed permission is for. A role grant also applies to the roles above it (Viewer → Editor, Admin). */
export type Grantee =
  | { kind: 'role'; role: OrgRole }
  | { kind: 'user'; uid: string }
  | { kind: 'service-account'; uid: string }
  | { kind: 'team'; uid: string };

/** One row of an object's permission list; `resource` is a kind with managed permissions (`folders`, `dashboards`). */
export interface ManagedPermissionItem {
  resource: string;
  uid: string;
  grantee: Grantee;
  permission: PermissionLevel;
}

/**
 * The actions a managed permission level grants on an object, as its kind declares them (`access.managed.levels`;
 * a folder's levels carry those of the kinds in folders, so that with inheritance they hold on everything below).
 *
 * @example
 *   actionsFor('dashboards', 'Edit'); // ['dashboards:read', 'dashboards:write', 'dashboards:delete']
 */
export function actionsFor(resource: string, level: PermissionLevel): readonly string[] {
  return KIND_ACCESS.levelActions(resource, level);
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
    const scope = `${item.resource}:uid:${item.uid}`;
    for (const action of actionsFor(item.resource, item.permission)) out.push({ action, scope });
  }
  return out;
}

/**
 * The permission items a new object starts with, as its kind declares them (`access.managed.defaults`; folders and
 * dashboards as the anchor sets them: its creator is Admin, and a root-level one also gives Editors Edit and Viewers
 * View; nested ones inherit from their parents instead). Anonymous creators get no item.
 *
 * @example
 *   defaultPermissionItems('folders', 'f1', undefined, { kind: 'user', uid: 'u1' });
 *   // creator Admin, Editor Edit, Viewer View
 */
export function defaultPermissionItems(
  resource: string,
  uid: string,
  parentFolderUid: string | undefined,
  creator: { kind: 'user' | 'service-account'; uid: string } | undefined,
): ManagedPermissionItem[] {
  const atRoot = !parentFolderUid || parentFolderUid === GENERAL_FOLDER_UID;
  return KIND_ACCESS.defaultsOf(resource, atRoot).flatMap(({ grantee, permission }): ManagedPermissionItem[] => {
    if (grantee.kind === 'role') return [{ resource, uid, grantee, permission }];
    return creator ? [{ resource, uid, grantee: { kind: creator.kind, uid: creator.uid }, permission }] : [];
  });
}
