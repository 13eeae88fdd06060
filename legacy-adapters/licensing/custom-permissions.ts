import { dashboardKind, folderKind, resourcePermissionKind } from '../../apis';
import type { ResourcePermissionSpec } from '../../apis/iam.svc.app/v0alpha1/resourcepermission';
import type { OrgRole } from '../../pkg/auth/authorization/permissions';
import { fromPermissionSpec } from '../../pkg/auth/authorization/stored-permissions';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind, Labels } from '../../pkg/meta';
import { type AdapterDeps, teamsByUid, usersByUid } from '../shared';
import { type CustomPermissionsRecord, isBelowEditor, isCustomLevel, type ReportTarget, toRecord } from './licensing-conversions';

const GUARDED = { folders: anyKind(folderKind), dashboards: anyKind(dashboardKind) } as const;

/** The folders and dashboards of one org named by `uids`, by `<resource>/<uid>`: one read per kind. */
async function targetsOf(deps: AdapterDeps, orgId: number, wanted: ReadonlyMap<'folders' | 'dashboards', Set<string>>): Promise<Map<string, ReportTarget>> {
  const ctx = { requester: SYSTEM, namespace: deps.registry.namespaces.of(orgId), fieldManager: 'svc-licensing' };
  const out = new Map<string, ReportTarget>();
  for (const [resource, uids] of wanted) {
    if (!uids.size) continue;
    const { items } = await deps.registry.page(ctx, GUARDED[resource], { names: [...uids] });
    for (const obj of items) {
      const title = String((obj.spec as { title?: unknown }).title ?? '');
      out.set(`${resource}/${obj.metadata.name}`, { id: Number(obj.metadata.labels?.[Labels.deprecatedInternalID] ?? 0), uid: obj.metadata.name, title, isFolder: resource === 'folders', orgId });
    }
  }
  return out;
}

/**
 * The custom permissions of one organization: every managed permission of a folder or dashboard that lets users
 * whose basic role is Viewer (or None) edit or administer it, granted to such a user, to a team with such members,
 * or to the Viewer role itself. (An Editor's Admin on the dashboards it made is the default, not custom.)
 */
async function orgRecords(deps: AdapterDeps, orgId: number): Promise<CustomPermissionsRecord[]> {
  const stored = await deps.users.listInOrg(orgId, anyKind(resourcePermissionKind));
  const items = stored.flatMap((o) => fromPermissionSpec(o.spec as ResourcePermissionSpec)).filter((i) => isCustomLevel(i.permission) && i.grantee.kind !== 'service-account');
  if (!items.length) return [];
  const wanted = new Map<'folders' | 'dashboards', Set<string>>([['folders', new Set()], ['dashboards', new Set()]]);
  for (const i of items) if (i.resource === 'folders' || i.resource === 'dashboards') wanted.get(i.resource)!.add(i.uid);
  const userUids = items.flatMap((i) => (i.grantee.kind === 'user' ? [i.grantee.uid] : []));
  const teamUids = items.flatMap((i) => (i.grantee.kind === 'team' ? [i.grantee.uid] : []));
  const [targets, members, users, teams, memberships] = await Promise.all([
    targetsOf(deps, orgId, wanted),
    deps.users.membersOf(orgId),
    usersByUid(deps.users, userUids),
    teamsByUid(deps.users, orgId, teamUids),
    teamUids.length ? deps.teams.allMemberships(orgId) : Promise.resolve([]),
  ]);
  const roleOf = new Map<number, OrgRole>(members.map((m) => [m.userId, m.role]));
  const records: CustomPermissionsRecord[] = [];
  for (const item of items) {
    const on = targets.get(`${item.resource}/${item.uid}`);
    if (!on) continue;
    const g = item.grantee;
    if (g.kind === 'role') {
      if (!isBelowEditor(g.role)) continue;
      const count = members.filter((m) => m.role === g.role).length;
      if (count) records.push(toRecord(on, { type: 'role', name: g.role }, item.permission, g.role, count));
    } else if (g.kind === 'user') {
      const user = users.get(g.uid);
      const role = user && roleOf.get(user.id);
      if (user && role && isBelowEditor(role)) records.push(toRecord(on, { type: 'user', name: user.login, uid: user.uid }, item.permission, role, 1));
    } else if (g.kind === 'team') {
      const team = teams.get(g.uid);
      const lifted = memberships.filter((m) => m.teamUid === g.uid && isBelowEditor(roleOf.get(m.userId))).length;
      if (team && lifted) records.push(toRecord(on, { type: 'team', name: team.name, uid: team.uid }, item.permission, 'Viewer', lifted));
    }
  }
  return records;
}

/**
 * The custom permissions report of the installation (every organization), ordered by organization, then folders
 * before dashboards, then title and grantee.
 */
export async function customPermissions(deps: AdapterDeps): Promise<CustomPermissionsRecord[]> {
  const orgs = await deps.users.listOrgs();
  const records = (await Promise.all(orgs.map((o) => orgRecords(deps, o.id)))).flat();
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return records.sort((a, b) => a.orgId - b.orgId || Number(b.isFolder) - Number(a.isFolder) || cmp(a.title, b.title) || cmp(a.uid, b.uid) || cmp(a.granteeType, b.granteeType) || cmp(a.granteeName, b.granteeName));
}
