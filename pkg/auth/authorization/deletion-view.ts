import { Annotations, type KindRegistration } from '../../meta';
import type { AccessObject, Registry } from '../../registry';
import type { AuthorizerView, FolderTree } from './authorizer';
import { type ManagedLookup, OverlayGrants } from './grants';
import { folderScope, type ManagedPermissionItem } from './permissions';
import type { StoredPermissions } from './stored-permissions';

/** Views kept (one per deleted object), so the watches of a process that receive one deletion share its lookups. */
const MAX_VIEWS = 1000;
/** How long a deleted folder's last state is kept: a folder deleted with many dashboards is looked up once. */
const FOLDER_TTL_MS = 5000;

interface DeletedFolder {
  parent: string;
  uid: string;
  at: number;
}

/**
 * The folder tree and managed permissions as they were when an object was deleted, for who could read it then
 * (the DELETED events of watches): its own permissions, and those of folders deleted with it, are gone by the time
 * a watch considers the deletion, so they are read from history. A deleted object's ResourcePermission is found by
 * the object's `metadata.uid` it was deleted with (`StoredPermissions.itemsAtDeletion`); a deleted folder's parent
 * from its last state in history. Folders that still exist, and other objects' permissions, are read as they are
 * now, as for any other check.
 *
 * A deleted object costs a few history reads (its permissions; per deleted folder above it, its last state and
 * permissions), once per process however many watches ask.
 *
 * @example
 *   const views = new DeletionViews(registry, permissions, tree);
 *   await authorizer.can(subject, 'dashboards:read', { scope: 'dashboards:uid:d1', folder: 'f1' }, await views.of(deleted));
 */
export class DeletionViews {
  private readonly views = new Map<string, Promise<AuthorizerView>>();
  private readonly folders = new Map<string, DeletedFolder>();
  private readonly folderKind: KindRegistration | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly permissions: StoredPermissions,
    private readonly tree: FolderTree,
  ) {
    this.folderKind = registry.kinds.find((k) => k.isFolder);
  }

  /** The view of a deleted folder or dashboard (`AccessObject.folder` is where it was). */
  of(obj: AccessObject): Promise<AuthorizerView> {
    const key = `${obj.namespace}\u0000${obj.resource}\u0000${obj.name}\u0000${obj.uid}`;
    let view = this.views.get(key);
    if (!view) {
      if (this.views.size >= MAX_VIEWS) this.views.clear();
      view = this.build(obj);
      this.views.set(key, view);
      view.catch(() => this.views.delete(key));
    }
    return view;
  }

  private async build(obj: AccessObject): Promise<AuthorizerView> {
    const orgId = this.registry.namespaces.orgIdOf(obj.namespace);
    if (orgId === undefined) return { tree: this.tree, managed: this.permissions };
    const replaced = new Map<string, readonly ManagedPermissionItem[]>();
    const own = await this.permissions.itemsAtDeletion(orgId, obj.resource, obj.name, obj.uid);
    if (own) replaced.set(`${obj.resource}:uid:${obj.name}`, own);
    // Up the folders the object was in, as long as they are gone too (deleted with it, or since).
    const parents = new Map<string, string>();
    for (let folder = obj.folder; folder && !parents.has(folder); ) {
      const gone = await this.deletedFolder(obj.namespace, folder);
      if (!gone) break;
      parents.set(folder, gone.parent);
      const items = await this.permissions.itemsAtDeletion(orgId, 'folders', folder, gone.uid);
      if (items) replaced.set(folderScope(folder), items);
      folder = gone.parent;
    }
    const permissions = this.permissions;
    return {
      tree: withDeletedFolders(this.tree, parents),
      managed: { grantsFor: async (id): Promise<ManagedLookup> => new OverlayGrants(await permissions.grantsFor(id), replaced) },
    };
  }

  /** A folder's parent and uid when it was last deleted; undefined while it exists (or history lost it). */
  private async deletedFolder(namespace: string, name: string): Promise<DeletedFolder | undefined> {
    if (!this.folderKind) return undefined;
    const cacheKey = `${namespace}\u0000${name}`;
    const cached = this.folders.get(cacheKey);
    if (cached && Date.now() - cached.at < FOLDER_TTL_MS) return cached;
    // Never cached while it exists: it may be deleted the next moment, its dashboards' DELETED events right behind.
    if (await this.registry.exists(this.folderKind, namespace, name)) return undefined;
    const [last] = await this.registry.storedHistory(this.folderKind, namespace, name, { limit: 1 });
    if (!last || last.action !== 'DELETED') return undefined;
    const meta = last.value.metadata as { uid?: string; annotations?: Record<string, string> } | undefined;
    const gone = { parent: meta?.annotations?.[Annotations.folder] ?? '', uid: meta?.uid ?? '', at: Date.now() };
    if (this.folders.size >= MAX_VIEWS) this.folders.clear();
    this.folders.set(cacheKey, gone);
    return gone;
  }
}

/** The folder tree with deleted folders put back where they were. */
function withDeletedFolders(tree: FolderTree, parents: ReadonlyMap<string, string>): FolderTree {
  if (!parents.size) return tree;
  return {
    folderOf: (uid, orgId) => tree.folderOf(uid, orgId),
    async ancestorsOf(folderUid, orgId) {
      const out: string[] = [];
      let at = folderUid;
      while (parents.has(at)) {
        const parent = parents.get(at)!;
        if (!parent || out.includes(parent)) return out;
        out.push(parent);
        at = parent;
      }
      return at === folderUid ? tree.ancestorsOf(folderUid, orgId) : [...out, ...(await tree.ancestorsOf(at, orgId))];
    },
  };
}
