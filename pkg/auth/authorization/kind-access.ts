import { allKinds, identityKinds, internalKinds } from '../../../apis';
import type { AccessVerb, BasicRole, KindRegistration, PermissionLevel } from '../../meta';

/** One grant of a basic role: an action on a scope (`''`: an action without scope). */
export type Grant = readonly [action: string, scope: string];

const GENERAL = 'folders:uid:general';
const BASIC_ROLES: readonly BasicRole[] = ['Viewer', 'Editor', 'Admin'];
const LEVELS: readonly PermissionLevel[] = ['View', 'Query', 'Edit', 'Admin'];

/** Where an item of managed permissions starts: its creator, or a basic role. */
export type DefaultGrantee = { kind: 'creator' } | { kind: 'role'; role: BasicRole };

/**
 * What the kinds' `access` declarations say, gathered once per set of kinds: the basic roles' grants on them, the
 * actions of each managed permission level, and the items a new object starts with. The authorizer, the permission
 * store and the basic roles read these, so a kind gets roles and managed permissions by declaring them.
 *
 * @example
 *   const access = KindAccessRules.of(allKinds);
 *   access.levelActions('dashboards', 'Edit'); // ['dashboards:read', 'dashboards:write', 'dashboards:delete']
 */
export class KindAccessRules {
  private constructor(
    private readonly roleGrants: ReadonlyMap<BasicRole, readonly Grant[]>,
    private readonly levels: ReadonlyMap<string, Readonly<Record<PermissionLevel, ReadonlySet<string>>>>,
    private readonly groups: ReadonlyMap<string, string>,
    private readonly defaults: ReadonlyMap<string, NonNullable<NonNullable<KindRegistration['access']>['managed']>['defaults']>,
  ) {}

  static of(kinds: readonly KindRegistration[]): KindAccessRules {
    const roleGrants = new Map<BasicRole, Grant[]>(BASIC_ROLES.map((r) => [r, []]));
    for (const kind of kinds) {
      for (const role of BASIC_ROLES) roleGrants.get(role)!.push(...grantsOf(kind, role));
    }
    const managed = kinds.filter((k) => k.access?.managed);
    // A folder's level grants, on everything below it, that level's actions of every kind living in folders.
    const inFolders = managed.filter((k) => k.inFolder);
    const levels = new Map(
      managed.map((k) => {
        const own = k.access!.managed!.levels;
        const below = k.isFolder ? inFolders.filter((b) => b !== k) : [];
        // A level the kind does not offer grants nothing.
        const byLevel = Object.fromEntries(LEVELS.map((l) => [l, new Set([...below.flatMap((b) => b.access!.managed!.levels[l] ?? []), ...(own[l] ?? [])])]));
        return [k.access!.resource, byLevel as Record<PermissionLevel, Set<string>>];
      }),
    );
    return new KindAccessRules(
      roleGrants,
      levels,
      new Map(managed.map((k) => [k.access!.resource, k.group])),
      new Map(managed.map((k) => [k.access!.resource, k.access!.managed!.defaults])),
    );
  }

  /** What `role` adds to the role below it on the kinds (Editor on top of Viewer, Admin on top of Editor). */
  grantsOf(role: BasicRole): readonly Grant[] {
    return this.roleGrants.get(role) ?? [];
  }

  /** Whether objects of the resource (`folders`) carry managed permissions. */
  isManaged(resource: string): boolean {
    return this.levels.has(resource);
  }

  /** The API group of a resource with managed permissions (`folder.svc.app`). */
  groupOf(resource: string): string | undefined {
    return this.groups.get(resource);
  }

  /** The actions a managed level grants on an object of the resource; none for a resource without them. */
  levelActions(resource: string, level: PermissionLevel): readonly string[] {
    return [...(this.levels.get(resource)?.[level] ?? [])];
  }

  /** Whether a managed level on an object of the resource grants the action there. */
  levelGrants(resource: string, level: PermissionLevel, action: string): boolean {
    return this.levels.get(resource)?.[level].has(action) ?? false;
  }

  /** The grants a new object of the resource starts with; `atRoot` when it is in no folder. */
  defaultsOf(resource: string, atRoot: boolean): { grantee: DefaultGrantee; permission: PermissionLevel }[] {
    return (this.defaults.get(resource) ?? [])
      .filter((d) => atRoot || !d.rootOnly)
      .map((d) => ({ grantee: d.grantee === 'creator' ? { kind: 'creator' } : { kind: 'role', role: d.grantee }, permission: d.permission }));
  }
}

const actionOf = (access: NonNullable<KindRegistration['access']>, verb: AccessVerb) =>
  verb.startsWith('permissions:') ? `${access.resource}.${verb}` : access.actions?.[verb as keyof typeof access.actions] ?? `${access.resource}:${verb}`;

/** A kind's grants for one role, as {@link KindRoleGrant} says. */
function grantsOf(kind: KindRegistration, role: BasicRole): Grant[] {
  const access = kind.access;
  if (!access) return [];
  const out: Grant[] = [];
  for (const { verbs, on } of access.roles?.[role] ?? []) {
    for (const verb of verbs) {
      const action = actionOf(access, verb);
      if (typeof on === 'object') out.push([action, on.scope]);
      else if (on === 'root') out.push([action, GENERAL]);
      else if (verb === 'create' && !kind.inFolder && !kind.isFolder) out.push([action, '']);
      else {
        // Objects in folders are reached through their folder too; creating one is only checked on its folder.
        if (verb !== 'create' || kind.isFolder) out.push([action, `${access.resource}:*`]);
        if (kind.inFolder && !kind.isFolder) out.push([action, 'folders:*']);
      }
    }
  }
  return out;
}

/**
 * The access rules of every kind the server knows, whichever registry stores it (the kinds served under /apis, the
 * identity kinds such as teams and service accounts, the internal ones): the one place the authorizer, the permission
 * store and the basic roles read a kind's access from, so a kind gets its rules by declaring them.
 */
export const KIND_ACCESS: KindAccessRules = KindAccessRules.of([...allKinds, ...identityKinds, ...internalKinds]);
