import { roleBindingKind, roleKind } from '../../../apis';
import type { RoleSpec } from '../../../apis/iam.svc.app/v0alpha1/role';
import { ROLE_BINDING_LABELS, type RoleBindingSpec, type RoleSubjectKind, roleKeyOf, roleSubjectId } from '../../../apis/iam.svc.app/v0alpha1/rolebinding';
import { notFoundAsUndefined, StatusError } from '../../errors';
import { Annotations, type KindRegistration, labelKey, randomUid, type Resource, type SpecOf } from '../../meta';
import type { Requester, RequestContext } from '../../registry';
import type { Assignee, RoleSource } from './authorizer';
import { type IdentityDirectory, SYSTEM } from '../identity/identity-directory';
import type { Permission } from './permissions';

export interface StoredRole {
  uid: string;
  orgId: number;
  name: string;
  displayName: string;
  description: string;
  group: string;
  hidden: boolean;
  version: number;
  permissions: Permission[];
  created: string;
  updated: string;
}

export interface RoleFields {
  name: string;
  displayName?: string;
  description?: string;
  group?: string;
  hidden?: boolean;
  permissions: Permission[];
}

/** Whom a role is assigned to: the authorizer knows it by uid, the legacy API by numeric id. */
export interface RoleSubject {
  kind: RoleSubjectKind;
  uid: string;
  id: number;
}

const ROLES = roleKind;
const BINDINGS = roleBindingKind;

/** Labels that find a role by name and assignments by role or subject without reading them all. */
const { roleKey: ROLE_KEY, subjectKey: SUBJECT_KEY, subjectId: SUBJECT_ID } = ROLE_BINDING_LABELS;
const keyOf = labelKey;
const subjectKey = (s: { kind: string; uid: string }) => keyOf(`${s.kind}:${s.uid}`);
const subjectId = (s: { kind: RoleSubjectKind; id: number }) => roleSubjectId(s.kind, s.id);

/** Role names the anchor keeps for its own roles. */
const RESERVED_PREFIXES = ['fixed:', 'basic:', 'managed:', 'plugins:'];

export const roleNotFound = () => new StatusError(404, 'NotFound', 'Role not found');

function toRole(orgId: number, obj: Resource<RoleSpec>): StoredRole {
  const s = obj.spec;
  return {
    uid: obj.metadata.name,
    orgId,
    name: s.name,
    displayName: s.displayName,
    description: s.description,
    group: s.group,
    hidden: s.hidden,
    version: s.version,
    permissions: s.permissions.map((p) => ({ action: p.action, scope: p.scope })),
    created: obj.metadata.creationTimestamp!,
    updated: obj.metadata.annotations?.[Annotations.updatedTimestamp] ?? obj.metadata.creationTimestamp!,
  };
}

/**
 * Custom roles of the enterprise edition and their assignments to users, teams and service accounts, stored as
 * `iam.svc.app/v0alpha1` Role and RoleBinding kinds in each organization's namespace. It is the authorizer's
 * {@link RoleSource}: a caller holds the permissions of the roles assigned to it and to its teams.
 *
 * @example
 *   const roles = new RoleDirectory(users);
 *   const role = await roles.createRole(by, 1, { name: 'custom:dash-reader', permissions: [{ action: 'dashboards:read', scope: 'dashboards:*' }] });
 *   await roles.assign(by, 1, role, { kind: 'team', uid: team.uid, id: team.id });
 *   new AccessControl({ registry, roles, teams });
 */
export class RoleDirectory implements RoleSource {
  // Assignments go with their subject: the cascades of memberships, teams and service accounts.
  constructor(private readonly users: IdentityDirectory) {}

  private get registry() {
    return this.users.registry;
  }

  private ctx(by: Requester, orgId: number): RequestContext {
    return this.users.inOrg(by, orgId);
  }

  private listIn<S>(orgId: number, kind: KindRegistration<S>, labelSelector?: string): Promise<Resource<SpecOf<S>>[]> {
    return this.users.listInOrg(orgId, kind, labelSelector);
  }

  // Roles

  /** The org's custom roles, by name. */
  async listRoles(orgId: number): Promise<StoredRole[]> {
    return (await this.listIn(orgId, ROLES)).map((o) => toRole(orgId, o)).sort((a, b) => a.name.localeCompare(b.name));
  }

  async roleByUid(orgId: number, uid: string): Promise<StoredRole | undefined> {
    try {
      return toRole(orgId, await this.registry.get(this.ctx(SYSTEM, orgId), ROLES, uid));
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 400)) return undefined;
      throw err;
    }
  }

  /** Names are also unique in the org (the role kind's unique field: 409 when taken). */
  private checkName(name: string): void {
    if (RESERVED_PREFIXES.some((p) => name.startsWith(p))) {
      throw new StatusError(400, 'BadRequest', `the role name cannot start with ${RESERVED_PREFIXES.map((p) => `"${p}"`).join(', ')}: they name built-in roles`);
    }
  }

  /**
   * Creates a custom role: 400 for a reserved name prefix or an invalid uid, 409 for a name or uid the org has.
   *
   * @example
   *   await roles.createRole(by, 1, { name: 'custom:folder-creator', permissions: [{ action: 'folders:create', scope: 'folders:uid:general' }] });
   */
  async createRole(by: Requester, orgId: number, fields: RoleFields, uid = randomUid()): Promise<StoredRole> {
    this.checkName(fields.name);
    const spec: RoleSpec = { displayName: '', description: '', group: '', hidden: false, ...fields, version: 1 };
    try {
      const obj = await this.registry.create(this.ctx(by, orgId), ROLES, { metadata: { name: uid }, spec });
      return toRole(orgId, obj);
    } catch (err) {
      if (err instanceof StatusError && err.reason === 'AlreadyExists') throw new StatusError(409, 'Conflict', 'A role with the same uid already exists');
      if (err instanceof StatusError && err.code === 422) throw new StatusError(400, 'BadRequest', `invalid role: ${err.message}`);
      throw err;
    }
  }

  /** Replaces a role's fields; its version grows by one. */
  async updateRole(by: Requester, current: StoredRole, fields: RoleFields): Promise<StoredRole> {
    this.checkName(fields.name);
    const obj = await this.registry.patch(this.ctx(by, current.orgId), ROLES, current.uid, (o) => {
      const spec: RoleSpec = { displayName: '', description: '', group: '', hidden: false, ...fields, version: o.spec.version + 1 };
      return { ...o, spec };
    });
    return toRole(current.orgId, obj);
  }

  /** Deletes a role and, in its transaction (the role kind's cascades), every assignment of it. */
  async deleteRole(by: Requester, role: StoredRole): Promise<void> {
    await this.registry.delete(this.ctx(by, role.orgId), ROLES, role.uid);
  }

  // Assignments

  private bindingName(subject: { kind: RoleSubjectKind; id: number }, roleUid: string): string {
    return `${subjectId(subject)}-${keyOf(roleUid).slice(0, 16)}`;
  }

  /** The roles directly assigned to a user, team or service account (not those it has through a team). */
  async rolesOf(orgId: number, subject: { kind: RoleSubjectKind; id: number }): Promise<StoredRole[]> {
    const out: StoredRole[] = [];
    for (const b of await this.listIn(orgId, BINDINGS, `${SUBJECT_ID}=${subjectId(subject)}`)) {
      const role = await this.roleByUid(orgId, b.spec.roleUid);
      if (role) out.push(role);
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Assigns a role; assigning it again changes nothing. */
  async assign(by: Requester, orgId: number, role: StoredRole, subject: RoleSubject): Promise<void> {
    const spec: RoleBindingSpec = { roleUid: role.uid, subject: { kind: subject.kind, uid: subject.uid, id: subject.id } };
    const labels = { [ROLE_KEY]: roleKeyOf(role.uid), [SUBJECT_KEY]: subjectKey(subject), [SUBJECT_ID]: subjectId(subject) };
    try {
      await this.registry.create(this.ctx(by, orgId), BINDINGS, { metadata: { name: this.bindingName(subject, role.uid), labels }, spec });
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === 'AlreadyExists')) throw err;
    }
  }

  /** Takes a role back (404 "Role assignment not found" when it was not assigned). */
  async unassign(by: Requester, orgId: number, roleUid: string, subject: { kind: RoleSubjectKind; id: number }): Promise<void> {
    try {
      await this.registry.delete(this.ctx(by, orgId), BINDINGS, this.bindingName(subject, roleUid));
    } catch (err) {
      if (err instanceof StatusError && err.code === 404) throw new StatusError(404, 'NotFound', 'Role assignment not found');
      throw err;
    }
  }

  /** Everyone a role is assigned to. */
  async assignmentsOf(role: StoredRole): Promise<RoleSubject[]> {
    const bindings = await this.listIn(role.orgId, BINDINGS, `${ROLE_KEY}=${roleKeyOf(role.uid)}`);
    return bindings.map((b) => b.spec.subject).sort((a, b) => a.kind.localeCompare(b.kind) || a.id - b.id);
  }

  /** Makes `subjects` exactly whom the role is assigned to: the missing are added, the others taken back. */
  async setAssignments(by: Requester, role: StoredRole, subjects: readonly RoleSubject[]): Promise<void> {
    const wanted = new Set(subjects.map(subjectId));
    for (const current of await this.assignmentsOf(role)) {
      if (!wanted.has(subjectId(current))) await this.unassign(by, role.orgId, role.uid, current).catch(notFoundAsUndefined);
    }
    for (const subject of subjects) await this.assign(by, role.orgId, role, subject);
  }

  /** Takes back every role of a subject. */
  async unassignAll(by: Requester, orgId: number, subject: { kind: RoleSubjectKind; id: number }): Promise<void> {
    for (const b of await this.listIn(orgId, BINDINGS, `${SUBJECT_ID}=${subjectId(subject)}`)) {
      await this.registry.delete(this.ctx(by, orgId), BINDINGS, b.metadata.name).catch(notFoundAsUndefined);
    }
  }

  // What the authorizer asks

  async permissionsFor(orgId: number, assignees: readonly Assignee[]): Promise<readonly Permission[]> {
    if (assignees.length === 0) return [];
    const bindings = await this.listIn(orgId, BINDINGS, `${SUBJECT_KEY} in (${assignees.map(subjectKey).join(',')})`);
    const roleUids = new Set(bindings.map((b) => b.spec.roleUid));
    const out: Permission[] = [];
    for (const uid of roleUids) out.push(...((await this.roleByUid(orgId, uid))?.permissions ?? []));
    return out;
  }
}
