import { createHash } from 'node:crypto';
import { resourcePermissionKind as kind, type ResourcePermissionSpec } from '../../../apis/iam.svc.app/v0alpha1/resourcepermission';
import { StatusError } from '../../errors';
import { type JsonObject, type Resource, storedAs } from '../../meta';
import type { Registry, Requester, RequestContext } from '../../registry';
import type { GroupResource, HistoryEvent, StorageTx } from '../../../storage';
import type { ManagedPermissionSource } from './authorizer';
import { ManagedGrants } from './grants';
import { KIND_ACCESS } from './kind-access';
import type { Grantee, ManagedPermissionItem, OrgRole, PermissionLevel } from './permissions';

/** A resource whose kind declares managed permissions (`folders`, `dashboards`). */
type Guarded = string;

const VERB: Record<PermissionLevel, 'view' | 'query' | 'edit' | 'admin'> = { View: 'view', Query: 'query', Edit: 'edit', Admin: 'admin' };
const LEVEL = { view: 'View', query: 'Query', edit: 'Edit', admin: 'Admin' } as const;
const KIND_OF = { role: 'BasicRole', user: 'User', 'service-account': 'ServiceAccount', team: 'Team' } as const;

/** History rows read per query while catching up. */
const EVENTS_PAGE = 1000;
/** History rows of one ResourcePermission read per query while looking for a deletion. */
const HISTORY_PAGE = 20;
/** On the last state of a deleted ResourcePermission: the `metadata.uid` of the object it was deleted with. */
const DELETED_WITH = 'svc.app/deleted-with';
/** A stored ResourcePermission (a history row's value), as the kind's type. */
const stored = (value: JsonObject) => storedAs(kind, value);

/**
 * The name of the ResourcePermission object of a folder or dashboard: a digest, as names are at most 40
 * characters and uids may be 40 already.
 *
 * @example
 *   permissionObjectName('folders', 'f1'); // 'p' + 39 hex digits
 */
export function permissionObjectName(resource: Guarded, uid: string): string {
  return `p${createHash('sha256').update(`${resource}/${uid}`).digest('hex').slice(0, 39)}`;
}

/**
 * A ResourcePermission spec from items (of one folder or dashboard), and back.
 *
 * @example
 *   toPermissionSpec('folders', 'f1', [{ resource: 'folders', uid: 'f1', grantee: { kind: 'role', role: 'Viewer' }, permission: 'View' }]);
 *   // { resource: { apiGroup: 'folder.svc.app', resource: 'folders', name: 'f1' }, permissions: [{ kind: 'BasicRole', name: 'Viewer', verb: 'view' }] }
 */
export function toPermissionSpec(resource: Guarded, uid: string, items: readonly ManagedPermissionItem[]): ResourcePermissionSpec {
  return {
    resource: { apiGroup: KIND_ACCESS.groupOf(resource) ?? '', resource, name: uid },
    permissions: items.map((i) => ({ kind: KIND_OF[i.grantee.kind], name: i.grantee.kind === 'role' ? i.grantee.role : i.grantee.uid, verb: VERB[i.permission] })),
  };
}

/** The items a ResourcePermission spec holds. */
export function fromPermissionSpec(spec: ResourcePermissionSpec): ManagedPermissionItem[] {
  const { resource, name: uid } = spec.resource;
  return spec.permissions.map((p) => {
    const grantee: Grantee =
      p.kind === 'BasicRole'
        ? { kind: 'role', role: p.name as OrgRole }
        : { kind: p.kind === 'User' ? 'user' : p.kind === 'Team' ? 'team' : 'service-account', uid: p.name };
    return { resource, uid, grantee, permission: LEVEL[p.verb] };
  });
}

const scopeOfSpec = (spec: ResourcePermissionSpec) => `${spec.resource.resource}:uid:${spec.resource.name}`;

interface OrgCache {
  version: number;
  grants: ManagedGrants;
}

/**
 * Managed folder and dashboard permissions, stored as ResourcePermission objects (one per folder or dashboard, in
 * its org's namespace) by the identity registry, and the source the authorizer reads them from.
 *
 * Reads are cached per org: each check asks storage only for the kind's resourceVersion (one cheap query, shared
 * by checks running at once); when it moved, the org's index is brought up to date from the kind's history (or
 * reloaded whole when history was compacted away), so changes made by any replica are seen at once.
 *
 * @example
 *   const permissions = new StoredPermissions(identityRegistry);
 *   await permissions.replace(by, 1, 'folders', 'f1', defaultPermissionItems('folders', 'f1', undefined, creator));
 *   (await permissions.grantsFor(1)).levelOf(['user:u1'], 'folders:uid:f1'); // 'Admin'
 */
export class StoredPermissions implements ManagedPermissionSource {
  private readonly orgs = new Map<number, OrgCache>();
  private readonly refreshes = new Map<number, Promise<ManagedGrants>>();
  private versionRead: Promise<{ current: number; oldestResumable: number }> | undefined;

  constructor(private readonly registry: Registry) {}

  /** The storage type of the objects that hold the items (ResourcePermission). */
  readonly type: GroupResource = { group: kind.group, resource: kind.plural };

  grantsFor(orgId: number): Promise<ManagedGrants> {
    let p = this.refreshes.get(orgId);
    if (!p) {
      p = this.refresh(orgId).finally(() => this.refreshes.delete(orgId));
      this.refreshes.set(orgId, p);
    }
    return p;
  }

  /** The items of one folder or dashboard, as stored. */
  async itemsOf(orgId: number, resource: Guarded, uid: string): Promise<ManagedPermissionItem[]> {
    const obj = await this.read(orgId, resource, uid);
    return obj ? fromPermissionSpec(obj.spec) : [];
  }

  /** Replaces every item of one folder or dashboard. */
  async replace(by: Requester, orgId: number, resource: Guarded, uid: string, items: readonly ManagedPermissionItem[]): Promise<void> {
    const name = permissionObjectName(resource, uid);
    const spec = toPermissionSpec(resource, uid, items);
    for (let attempt = 1; ; attempt++) {
      try {
        const current = await this.read(orgId, resource, uid);
        if (current) await this.registry.update(this.ctx(by, orgId), kind, name, { ...current, spec });
        else await this.registry.create(this.ctx(by, orgId), kind, { metadata: { name }, spec });
        return;
      } catch (err) {
        const raced = err instanceof StatusError && (err.reason === 'AlreadyExists' || err.reason === 'Conflict');
        if (!raced || attempt >= 5) throw err;
      }
    }
  }

  /**
   * Replaces the items of one folder or dashboard inside the transaction that creates it (see
   * `AccessCheck.created`), so that it never exists without them.
   */
  async replaceWithin(tx: StorageTx, by: Requester, namespace: string, resource: Guarded, uid: string, items: readonly ManagedPermissionItem[]): Promise<void> {
    const spec = toPermissionSpec(resource, uid, items);
    // Made here from typed items: the registry need not check it against the kind's schema under the lock.
    await this.registry.putWithin(tx, { requester: by, namespace, fieldManager: 'svc-access' }, kind, permissionObjectName(resource, uid), spec, { serverBuilt: true });
  }

  /**
   * Removes the permissions of deleted folders and dashboards, inside the transaction that deletes them. History
   * keeps their last items marked with the deleted object's `metadata.uid` (see {@link itemsAtDeletion}).
   */
  async removeWithin(tx: StorageTx, by: Requester, namespace: string, objects: readonly { resource: Guarded; uid: string; objectUid: string }[]): Promise<void> {
    const ctx = { requester: by, namespace, fieldManager: 'svc-access' };
    for (const { resource, uid, objectUid } of objects) {
      await this.registry.deleteWithin(tx, ctx, kind, permissionObjectName(resource, uid), { [DELETED_WITH]: objectUid });
    }
  }

  /**
   * The items a folder or dashboard had when it was deleted, its permissions with it: from the history of its
   * ResourcePermission, the deletion marked with the object's `metadata.uid` (a name may be used again). Undefined
   * when there is none such (the object had no permissions of its own, or history no longer holds them).
   *
   * @example
   *   await permissions.itemsAtDeletion(1, 'dashboards', 'd1', deleted.metadata.uid); // [{ grantee: role Viewer, permission: 'View' }, …]
   */
  async itemsAtDeletion(orgId: number, resource: Guarded, uid: string, objectUid: string): Promise<ManagedPermissionItem[] | undefined> {
    const [namespace, name] = [this.registry.namespaces.of(orgId), permissionObjectName(resource, uid)];
    let before: number | undefined;
    for (;;) {
      const rows = await this.registry.storedHistory(kind, namespace, name, { limit: HISTORY_PAGE, ...(before ? { before } : {}) });
      const hit = rows.find((r) => r.action === 'DELETED' && stored(r.value).metadata.annotations?.[DELETED_WITH] === objectUid);
      if (hit) return fromPermissionSpec(stored(hit.value).spec);
      if (rows.length < HISTORY_PAGE) return undefined;
      before = rows[rows.length - 1].resourceVersion;
    }
  }

  private ctx(by: Requester, orgId: number): RequestContext {
    return { requester: by, namespace: this.registry.namespaces.of(orgId), fieldManager: 'svc-access' };
  }

  private async read(orgId: number, resource: Guarded, uid: string): Promise<Resource<ResourcePermissionSpec> | undefined> {
    const name = permissionObjectName(resource, uid);
    return this.registry.get(this.ctx({ identity: 'service:access-control' }, orgId), kind, name).catch((err: unknown) => {
      if (err instanceof StatusError && err.reason === 'NotFound') return undefined;
      throw err;
    });
  }

  private versions(): Promise<{ current: number; oldestResumable: number }> {
    return (this.versionRead ??= this.registry.versions(kind).finally(() => (this.versionRead = undefined)));
  }

  private async refresh(orgId: number): Promise<ManagedGrants> {
    const v = await this.versions();
    const cached = this.orgs.get(orgId);
    if (cached && cached.version === v.current) return cached.grants;
    if (cached && cached.version >= v.oldestResumable && (await this.catchUp(orgId, cached))) return cached.grants;
    const list = await this.registry.list(this.ctx({ identity: 'service:access-control' }, orgId), kind, {});
    const grants = new ManagedGrants();
    for (const obj of list.items) {
      grants.set(scopeOfSpec(obj.spec), fromPermissionSpec(obj.spec));
    }
    this.orgs.set(orgId, { version: Number(list.metadata.resourceVersion), grants });
    return grants;
  }

  /** Applies the kind's history since the cached version; false when history no longer reaches back. */
  private async catchUp(orgId: number, cached: OrgCache): Promise<boolean> {
    const namespace = this.registry.namespaces.of(orgId);
    for (;;) {
      const events: HistoryEvent[] = await this.registry.changesSince(kind, cached.version, EVENTS_PAGE);
      if (!events.length) return true;
      for (const ev of events) {
        if (ev.key.namespace === namespace) {
          const { spec } = stored(ev.value);
          cached.grants.set(scopeOfSpec(spec), ev.action === 'DELETED' ? [] : fromPermissionSpec(spec));
        }
        cached.version = ev.resourceVersion;
      }
      if (events.length < EVENTS_PAGE) return true;
    }
  }
}
