import type { Permission } from '../../pkg/auth/authorization/permissions';
import type { RoleFields, RoleSubject, StoredRole } from '../../pkg/auth/authorization/role-directory';

/** A permission of a RoleDTO. */
export interface RolePermissionDTO {
  action: string;
  scope: string;
  created: string;
  updated: string;
}

/** `GET /api/access-control/roles/:roleUID`: RoleDTO. */
export interface RoleDTO {
  version: number;
  uid: string;
  name: string;
  displayName: string;
  description: string;
  group: string;
  hidden: boolean;
  permissions: RolePermissionDTO[];
  created: string;
  updated: string;
}

/** A parsed `CreateRoleForm` / `UpdateRoleCommand`. */
export interface RoleForm {
  uid?: string;
  fields: RoleFields;
}

/** A role's permissions are replaced whole by every update, so each is as old as the role's last version. */
export function toRoleDTO(role: StoredRole): RoleDTO {
  return {
    version: role.version,
    uid: role.uid,
    name: role.name,
    displayName: role.displayName,
    description: role.description,
    group: role.group,
    hidden: role.hidden,
    permissions: role.permissions.map((p) => ({ action: p.action, scope: p.scope, created: role.updated, updated: role.updated })),
    created: role.created,
    updated: role.updated,
  };
}

export function fromRoleDTO(dto: RoleDTO): RoleForm {
  const { name, displayName, description, group, hidden } = dto;
  return { uid: dto.uid, fields: { name, displayName, description, group, hidden, permissions: dto.permissions.map((p) => ({ action: p.action, scope: p.scope })) } };
}

const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

function parsePermissions(v: unknown): Permission[] | undefined {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return undefined;
  const out: Permission[] = [];
  for (const p of v as unknown[]) {
    if (!p || typeof p !== 'object') return undefined;
    const { action, scope } = p as Record<string, unknown>;
    if (typeof action !== 'string' || action.trim() === '' || !optionalString(scope)) return undefined;
    out.push({ action: action.trim(), scope: typeof scope === 'string' ? scope.trim() : '' });
  }
  return out;
}

/**
 * A `CreateRoleForm` or `UpdateRoleCommand` body, or the message of the 400 it gets. Only org roles exist here:
 * `global: true` is refused.
 *
 * @example
 *   parseRoleForm({ name: 'custom:reader', permissions: [{ action: 'dashboards:read', scope: 'dashboards:*' }] });
 *   // { fields: { name: 'custom:reader', permissions: [...] } }
 */
export function parseRoleForm(body: Record<string, unknown>): RoleForm | string {
  const { uid, name, displayName, description, group, hidden, global } = body;
  if (typeof name !== 'string' || name.trim() === '') return 'Role name is required';
  if (!optionalString(uid) || !optionalString(displayName) || !optionalString(description) || !optionalString(group)) return 'bad request data';
  if (hidden !== undefined && typeof hidden !== 'boolean') return 'bad request data';
  if (global === true) return 'global roles are not supported: create the role in an organization';
  const permissions = parsePermissions(body.permissions);
  if (!permissions) return 'bad request data';
  const fields: RoleFields = { name: name.trim(), permissions };
  if (displayName !== undefined) fields.displayName = displayName as string;
  if (description !== undefined) fields.description = description as string;
  if (group !== undefined) fields.group = group as string;
  if (hidden !== undefined) fields.hidden = hidden;
  return uid ? { uid: uid as string, fields } : { fields };
}

/**
 * Permissions as `GET /api/access-control/user/permissions` answers them: the scopes of each action, without
 * repeats ('' for an action held without a scope), as the anchor's GroupScopesByAction.
 *
 * @example
 *   scopesByAction([{ action: 'teams:read', scope: 'teams:id:1' }, { action: 'teams:create', scope: '' }]);
 *   // { 'teams:read': ['teams:id:1'], 'teams:create': [''] }
 */
export function scopesByAction(permissions: readonly Permission[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of permissions) {
    const scopes = (out[p.action] ??= []);
    if (!scopes.includes(p.scope)) scopes.push(p.scope);
  }
  return out;
}

/** `GET/PUT /api/access-control/roles/:roleUID/assignments`: RoleAssignmentsDTO. */
export interface RoleAssignmentsDTO {
  role_uid: string;
  users: number[];
  teams: number[];
  service_accounts: number[];
}

/** The numeric ids of a `SetRoleAssignmentsCommand`, by kind. */
export interface RoleAssignmentIds {
  user: number[];
  team: number[];
  'service-account': number[];
}

export function toRoleAssignmentsDTO(roleUid: string, subjects: readonly RoleSubject[]): RoleAssignmentsDTO {
  const ids = (kind: RoleSubject['kind']) => subjects.filter((s) => s.kind === kind).map((s) => s.id).sort((a, b) => a - b);
  return { role_uid: roleUid, users: ids('user'), teams: ids('team'), service_accounts: ids('service-account') };
}

export function fromRoleAssignmentsDTO(dto: RoleAssignmentsDTO): RoleAssignmentIds {
  return { user: dto.users, team: dto.teams, 'service-account': dto.service_accounts };
}

/**
 * The ids of a `SetRoleAssignmentsCommand` body ({users, teams, service_accounts}, each optional), or undefined when
 * one is not a list of positive integers.
 *
 * @example
 *   parseRoleAssignments({ users: [3], teams: [1, 2] }); // { user: [3], team: [1, 2], 'service-account': [] }
 */
export function parseRoleAssignments(body: Record<string, unknown>): RoleAssignmentIds | undefined {
  const ids = (v: unknown): number[] | undefined => {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || !v.every((n) => Number.isSafeInteger(n) && (n as number) > 0)) return undefined;
    return [...new Set(v as number[])];
  };
  const [user, team, sa] = [ids(body.users), ids(body.teams), ids(body.service_accounts)];
  return user && team && sa ? { user, team, 'service-account': sa } : undefined;
}
