import { type Grant, KIND_ACCESS } from './kind-access';
import type { OrgRole, Permission } from './permissions';

/**
 * What each basic role may do, as the anchor grants it: its fixed roles (pkg/api/accesscontrol.go
 * `FixedRoleRegistrations`, pkg/services/accesscontrol/roles.go `DeclareFixedRoles`, the service-account roles of
 * pkg/services/serviceaccounts/manager/roles.go and the `fixed:<resource>.permissions:writer` roles of
 * resourcepermissions) with their `Grants`, trimmed to the resources this server serves. Each role below lists only
 * what it adds: Editor includes Viewer and Admin includes Editor, as the anchor's basic roles inherit.
 *
 * Note what Viewer and Editor do NOT have: `dashboards:read` or `folders:read` on `dashboards:*`/`folders:*`.
 * In the anchor they see folders and dashboards through the managed permissions a new root folder or dashboard
 * receives (see `defaultPermissionItems`), which an admin can take away per folder; only Admin reads everything.
 * Lines marked "ours" have no RBAC action in the anchor, which guards those endpoints with an org-role check.
 *
 * The grants on kinds (folders, dashboards, playlists, data sources, library panels, correlations, snapshots, teams,
 * service accounts) are not listed here: each kind declares them (`access.roles` of its registration, whichever
 * registry stores it), and they are added to each role below. What is left is about no one kind's objects.
 */

/** basic:viewer */
const VIEWER: readonly Grant[] = [
  // Data sources: reading and changing them is the kind's declaration (Admins); querying comes from the Query item a
  // new data source gives Viewers (apis/datasource.svc.app), so that data source permissions can take it away.
  ['datasources.id:read', 'datasources:*'], // fixed:datasources.id:reader
  ['orgs:read', ''], // fixed:organization:reader
  ['orgs.quotas:read', ''],
  ['snapshots:read', ''], // fixed:snapshots:reader
  // GET /api/access-control/status (enterprise): which basic role the anchor gives it is not shown; the frontend of
  // every signed-in user asks it, so every role holds it here.
  ['status:accesscontrol', 'services:accesscontrol'],
];

/** basic:editor, on top of Viewer */
const EDITOR: readonly Grant[] = [
  ['snapshots:create', ''], // fixed:snapshots:creator
  ['snapshots:delete', ''], // fixed:snapshots:deleter
  ['datasources:explore', ''], // fixed:datasources:explorer
];

/** basic:admin, on top of Editor */
const ADMIN: readonly Grant[] = [
  // fixed:apikeys:reader/creator/deleter: the deprecated /api/auth/keys (there are no keys; a create is 410)
  ['apikeys:read', 'apikeys:*'],
  ['apikeys:create', ''],
  ['apikeys:delete', 'apikeys:*'],
  // fixed:organization:writer
  ['orgs:write', ''],
  ['orgs.preferences:read', ''],
  ['orgs.preferences:write', ''],
  // fixed:org.users:writer
  ['org.users:read', 'users:*'],
  ['org.users:add', 'users:*'],
  ['org.users:write', 'users:*'],
  ['org.users:remove', 'users:*'],
  ['users.permissions:read', 'users:*'],
  // fixed:roles:reader, fixed:roles:writer: custom roles and their assignments, in the org (enterprise endpoints only).
  // `permissions:type:delegate`: only roles whose permissions the caller holds itself (no escalation).
  ['roles:read', 'roles:*'],
  ['roles:write', 'permissions:type:delegate'],
  ['roles:delete', 'permissions:type:delegate'],
  ['users.roles:read', 'users:*'],
  ['users.roles:add', 'permissions:type:delegate'],
  ['users.roles:remove', 'permissions:type:delegate'],
  ['teams.roles:read', 'teams:*'],
  ['teams.roles:add', 'permissions:type:delegate'],
  ['teams.roles:remove', 'permissions:type:delegate'],
  // fixed:reports:writer and fixed:reports.settings:writer (enterprise reporting): what is about no one report; the
  // reports' own read/create/write/delete are the Report kind's (apis/reporting.svc.app).
  ['reports:send', 'reports:*'],
  ['reports.settings:read', ''],
  ['reports.settings:write', ''],
];

/** basic:grafana_admin ("server admin", isSvcAdmin): global, on top of whatever the org role gives. */
const SERVER_ADMIN: readonly Grant[] = [
  // fixed:users:reader, fixed:users:writer
  ['users:read', 'global.users:*'],
  ['users:create', ''],
  ['users:write', 'global.users:*'],
  ['users:delete', 'global.users:*'],
  ['users:enable', 'global.users:*'],
  ['users:disable', 'global.users:*'],
  ['users:logout', 'global.users:*'],
  ['users.password:write', 'global.users:*'],
  ['users.permissions:write', 'global.users:*'],
  ['users.authtoken:read', 'global.users:*'],
  ['users.authtoken:write', 'global.users:*'],
  ['users.quotas:read', 'global.users:*'],
  ['users.quotas:write', 'global.users:*'],
  // fixed:org.users:writer is granted to the server admin too, for every org
  ['org.users:read', 'users:*'],
  ['org.users:add', 'users:*'],
  ['org.users:write', 'users:*'],
  ['org.users:remove', 'users:*'],
  ['users.permissions:read', 'users:*'],
  // fixed:organization:maintainer
  ['orgs:read', ''],
  ['orgs.quotas:read', ''],
  ['orgs:create', ''],
  ['orgs:write', ''],
  ['orgs:delete', ''],
  ['orgs.quotas:write', ''],
  // fixed:settings:reader, fixed:authentication.config:writer (PUT /api/admin/settings changes auth.saml only)
  ['settings:read', 'settings:*'],
  ['settings:write', 'settings:auth.saml:*'],
  ['server.stats:read', ''], // fixed:stats:reader
  ['server.usagestats.report:read', ''], // fixed:usagestats:reader
  ['provisioning:reload', 'provisioners:*'], // fixed:provisioning:writer
  ['ldap.config:reload', ''], // fixed:ldap:writer
  // fixed:licensing:reader, fixed:licensing:writer (the enterprise edition's /api/licensing)
  ['licensing:read', ''],
  ['licensing:write', ''],
  ['licensing:delete', ''],
  ['licensing.reports:read', ''],
  ['server.encryption:write', ''], // ours: the anchor checks "is server admin" for /api/admin/encryption/*
];

const toPermissions = (grants: readonly Grant[]): readonly Permission[] =>
  Object.freeze(grants.map(([action, scope]) => Object.freeze({ action, scope })));

const viewerGrants = [...VIEWER, ...KIND_ACCESS.grantsOf('Viewer')];
const editorGrants = [...viewerGrants, ...EDITOR, ...KIND_ACCESS.grantsOf('Editor')];
const viewer = toPermissions(viewerGrants);
const editor = toPermissions(editorGrants);
const admin = toPermissions([...editorGrants, ...ADMIN, ...KIND_ACCESS.grantsOf('Admin')]);

/**
 * The permissions of each basic org role, inheritance applied. `None` has none.
 *
 * @example
 *   BASIC_ROLE_PERMISSIONS.Editor.some((p) => p.action === 'folders:create'); // true (scope folders:uid:general)
 */
export const BASIC_ROLE_PERMISSIONS: Readonly<Record<OrgRole, readonly Permission[]>> = Object.freeze({
  None: Object.freeze([]),
  Viewer: viewer,
  Editor: editor,
  Admin: admin,
});

/**
 * The server administrator's global permissions, added to those of the org role for users with `isSvcAdmin`.
 *
 * @example
 *   SERVER_ADMIN_PERMISSIONS.some((p) => p.action === 'users:create'); // true
 */
export const SERVER_ADMIN_PERMISSIONS: readonly Permission[] = toPermissions(SERVER_ADMIN);

/**
 * Actions only a server administrator holds (none of the org roles has them). Service accounts and anonymous
 * callers are refused these whatever custom roles say: they belong to one org and cannot be server admins (§5.3).
 *
 * @example
 *   SERVER_ADMIN_ONLY_ACTIONS.has('users:create'); // true
 *   SERVER_ADMIN_ONLY_ACTIONS.has('org.users:read'); // false: org admins have it too
 */
export const SERVER_ADMIN_ONLY_ACTIONS: ReadonlySet<string> = new Set(
  SERVER_ADMIN.map(([action]) => action).filter((action) => !admin.some((p) => p.action === action)),
);
