import type { PermissionLevel, Grantee, ManagedPermissionItem, Permission, Subject } from './permissions';
import { KIND_ACCESS } from './kind-access';
import { roleIncludes, scopeCovers } from './permissions';

/**
 * Permission lookups that stay fast with many grants: exact scopes in a Set, wildcard grants (`dashboards:*`) in a
 * short list, per action.
 *
 * @example
 *   const idx = new GrantIndex([{ action: 'dashboards:read', scope: 'dashboards:*' }]);
 *   idx.covers('dashboards:read', 'dashboards:uid:abc'); // true
 */
export class GrantIndex {
  private readonly byAction = new Map<string, { exact: Set<string>; wild: string[] }>();

  constructor(permissions: Iterable<Permission> = []) {
    for (const p of permissions) this.add(p);
  }

  add({ action, scope }: Permission): void {
    let entry = this.byAction.get(action);
    if (!entry) this.byAction.set(action, (entry = { exact: new Set(), wild: [] }));
    if (scope.endsWith('*')) entry.wild.push(scope);
    else entry.exact.add(scope);
  }

  /** Whether the action is held on any scope (what an empty requested scope asks). */
  holds(action: string): boolean {
    return this.byAction.has(action);
  }

  covers(action: string, scope: string): boolean {
    const entry = this.byAction.get(action);
    if (!entry) return false;
    return (scope !== '' && entry.exact.has(scope)) || entry.wild.some((g) => scopeCovers(g, scope));
  }
}

/** How a grantee is keyed in {@link ManagedGrants}: `role:Viewer`, `user:<uid>`, `team:<uid>`, `service-account:<uid>`. */
export function granteeKey(g: Grantee): string {
  return g.kind === 'role' ? `role:${g.role}` : `${g.kind}:${g.uid}`;
}

const ROLES = ['None', 'Viewer', 'Editor', 'Admin'] as const;

/**
 * The grantee keys whose managed items apply to a subject: its role and the roles below it, itself, its teams.
 *
 * @example
 *   granteeKeysOf({ kind: 'user', uid: 'u1', orgRole: 'Editor', teamUids: ['t1'], orgId: 1, isServerAdmin: false });
 *   // ['role:Viewer', 'role:Editor', 'user:u1', 'team:t1']
 */
export function granteeKeysOf(subject: Subject): string[] {
  const keys = ROLES.filter((r) => roleIncludes(subject.orgRole, r)).map((r) => `role:${r}`);
  if (subject.kind !== 'anonymous') keys.push(`${subject.kind}:${subject.uid}`);
  if (subject.kind === 'user') keys.push(...subject.teamUids.map((t) => `team:${t}`));
  return keys;
}

/** Query and View are the first level of kinds offering one or the other (data sources, folders). */
const RANK: Record<PermissionLevel, number> = { View: 1, Query: 1, Edit: 2, Admin: 3 };
/** Whether a managed level on a scope (`folders:uid:f1`, `dashboards:uid:d1`) grants an action there, as the kind declares. */
export function levelGrants(scope: string, level: PermissionLevel, action: string): boolean {
  return KIND_ACCESS.levelGrants(scope.slice(0, scope.indexOf(':')), level, action);
}

const itemScope = (item: ManagedPermissionItem) => `${item.resource}:uid:${item.uid}`;

/**
 * The managed (per folder, per dashboard) permissions of one org, indexed by grantee then exact scope: a check
 * costs a few map lookups however many items the org holds. Items are kept per object, so that one object's items
 * can be replaced without rebuilding the rest.
 *
 * @example
 *   const grants = new ManagedGrants();
 *   grants.set('folders:uid:f1', defaultPermissionItems('folders', 'f1', undefined, { kind: 'user', uid: 'u1' }));
 *   grants.levelOf(['user:u1'], 'folders:uid:f1'); // 'Admin'
 */
export class ManagedGrants {
  private readonly byObject = new Map<string, readonly ManagedPermissionItem[]>();
  private readonly byGrantee = new Map<string, Map<string, PermissionLevel>>();

  /** Indexes a flat list of items (tests, the first load). */
  static of(items: readonly ManagedPermissionItem[]): ManagedGrants {
    const grouped = new Map<string, ManagedPermissionItem[]>();
    for (const item of items) {
      const scope = itemScope(item);
      grouped.set(scope, [...(grouped.get(scope) ?? []), item]);
    }
    const out = new ManagedGrants();
    for (const [scope, list] of grouped) out.set(scope, list);
    return out;
  }

  /** Replaces the items of one object (`<resource>:uid:<uid>`); [] removes them. */
  set(scope: string, items: readonly ManagedPermissionItem[]): void {
    for (const old of this.byObject.get(scope) ?? []) this.byGrantee.get(granteeKey(old.grantee))?.delete(scope);
    if (items.length) this.byObject.set(scope, items);
    else this.byObject.delete(scope);
    for (const item of items) {
      const key = granteeKey(item.grantee);
      let scopes = this.byGrantee.get(key);
      if (!scopes) this.byGrantee.set(key, (scopes = new Map()));
      const held = scopes.get(scope);
      if (!held || RANK[item.permission] > RANK[held]) scopes.set(scope, item.permission);
    }
  }

  /** The highest level any of the grantees holds on the scope. */
  levelOf(grantees: readonly string[], scope: string): PermissionLevel | undefined {
    let best: PermissionLevel | undefined;
    for (const key of grantees) {
      const level = this.byGrantee.get(key)?.get(scope);
      if (level && (!best || RANK[level] > RANK[best])) best = level;
    }
    return best;
  }

  /** Whether one of the grantees holds the action on some object. */
  holds(grantees: readonly string[], action: string): boolean {
    return grantees.some((key) => [...(this.byGrantee.get(key) ?? [])].some(([scope, level]) => levelGrants(scope, level, action)));
  }

  /** The items of one object. */
  itemsOf(scope: string): readonly ManagedPermissionItem[] {
    return this.byObject.get(scope) ?? [];
  }

  /** Every item. */
  *items(): Iterable<ManagedPermissionItem> {
    for (const list of this.byObject.values()) yield* list;
  }
}

/** What a check asks of managed permissions: {@link ManagedGrants}, or a view of them such as {@link OverlayGrants}. */
export type ManagedLookup = Pick<ManagedGrants, 'levelOf' | 'holds'>;

/**
 * Managed permissions with the items of some objects replaced: the permissions of deleted objects as they were
 * when deleted, over the org's current ones (who could read an object just before its deletion).
 *
 * @example
 *   const then = new OverlayGrants(await permissions.grantsFor(1), new Map([['dashboards:uid:d1', itemsWhenDeleted]]));
 *   then.levelOf(['role:Viewer'], 'dashboards:uid:d1'); // 'View'
 */
export class OverlayGrants implements ManagedLookup {
  private readonly top = new ManagedGrants();

  constructor(
    private readonly base: ManagedLookup,
    private readonly replaced: ReadonlyMap<string, readonly ManagedPermissionItem[]>,
  ) {
    for (const [scope, items] of replaced) this.top.set(scope, items);
  }

  levelOf(grantees: readonly string[], scope: string): PermissionLevel | undefined {
    return this.replaced.has(scope) ? this.top.levelOf(grantees, scope) : this.base.levelOf(grantees, scope);
  }

  holds(grantees: readonly string[], action: string): boolean {
    return this.top.holds(grantees, action) || this.base.holds(grantees, action);
  }
}
