import { StatusError } from '../errors';
import { Annotations, type KindRegistration, type Resource } from '../meta';
import type { GroupResource, StorageTx } from '../../storage';
import { cascadeKinds } from './cascades';
import { historyValueOf } from './secret-fields';

/**
 * Folders are the one relation between kinds: an `inFolder` object names its folder in the `svc.app/folder`
 * annotation. The rules live here, once, for every kind that opts in.
 */

/** Deeper than this is treated as a broken tree rather than walked forever. */
const MAX_DEPTH = 64;

export const typeOf = (kind: KindRegistration): GroupResource => ({ group: kind.group, resource: kind.plural });

export function folderOf(obj: Resource): string {
  return obj.metadata.annotations?.[Annotations.folder] ?? '';
}

export interface FolderRules {
  folderKind: KindRegistration | undefined;
  nestedFolders: boolean;
}

/**
 * The folder an object names must exist (and stays locked until the write commits, so that a concurrent delete
 * of the folder cannot orphan it); a folder cannot be its own ancestor.
 */
export async function checkFolder(tx: StorageTx, rules: FolderRules, kind: KindRegistration, obj: Resource): Promise<void> {
  const parent = folderOf(obj);
  if (!kind.inFolder || parent === '' || !rules.folderKind) return;
  const { namespace, name } = obj.metadata;
  const folders = typeOf(rules.folderKind);
  if (kind.isFolder) {
    if (!rules.nestedFolders) {
      throw StatusError.badRequest(`nested folders are not enabled: remove the ${Annotations.folder} annotation`);
    }
    if (parent === name) throw StatusError.badRequest('a folder cannot be its own parent');
  }
  const found = await tx.get({ ...folders, namespace, name: parent }, { lock: 'share' });
  if (!found) {
    throw new StatusError(400, 'BadRequest', `folder "${parent}" not found`, {
      causes: [{ reason: 'FieldValueNotFound', field: `metadata.annotations[${Annotations.folder}]`, message: `Not found: "${parent}"` }],
    });
  }
  if (!kind.isFolder) return;
  // Walk up from the new parent: meeting the folder itself means the move would close a cycle.
  let ancestor = folderOf(found.value as unknown as Resource);
  for (let depth = 0; ancestor !== '' && depth < MAX_DEPTH; depth++) {
    if (ancestor === name) throw StatusError.badRequest(`folder "${name}" cannot be moved into its own subfolder "${parent}"`);
    const next = await tx.get({ ...folders, namespace, name: ancestor });
    ancestor = next ? folderOf(next.value as unknown as Resource) : '';
  }
}

/** The types a delete of `kind` writes to, so they are all locked up front in one order. */
export function deleteTouches(kind: KindRegistration, kinds: readonly KindRegistration[]): GroupResource[] {
  const direct = kind.isFolder ? kinds.filter((k) => k === kind || k.inFolder) : [kind];
  const touched = [...new Set(direct.flatMap(cascadeKinds))];
  return touched.map(typeOf);
}

/** An object a delete removed, for the access hooks (its permissions go with it). */
export interface Removed {
  kind: KindRegistration;
  object: Resource;
}

/**
 * Deletes everything inside a folder, subfolders and their contents included, in the caller's transaction;
 * answers what it removed.
 */
export async function deleteFolderContents(tx: StorageTx, folderKind: KindRegistration, kinds: readonly KindRegistration[], namespace: string, folder: string): Promise<Removed[]> {
  const removed: Removed[] = [];
  const contained = kinds.filter((k) => k.inFolder);
  let frontier = [folder];
  for (let depth = 0; frontier.length && depth < MAX_DEPTH; depth++) {
    const next: string[] = [];
    for (const kind of contained) {
      const page = await tx.list({ ...typeOf(kind), namespace, folders: frontier });
      for (const item of page.items) {
        await tx.delete(item.key, undefined, historyValueOf(kind, item.value));
        removed.push({ kind, object: item.value as unknown as Resource });
        if (kind === folderKind) next.push(item.key.name);
      }
    }
    frontier = next;
  }
  return removed;
}
