import type { KindRegistration, Resource } from '../meta';
import type { Storage, StoredObject } from '../../storage';
import { typeOf } from './folder-tree';

/** Deeper than this is treated as a broken tree rather than walked forever (as deleteFolderContents). */
const MAX_DEPTH = 64;
/** Objects read per storage round trip. */
const PAGE = 500;

export interface CountWalk {
  storage: Storage;
  namespace: string;
  folderKind: KindRegistration;
  /** The kinds that live in folders (the folder kind among them). */
  contained: readonly KindRegistration[];
  /** The objects of a page the caller may read, as the registry shows them. */
  readable: (kind: KindRegistration, page: readonly StoredObject[]) => Promise<Resource[]>;
}

/**
 * How many objects of each kind lie under `folder`: in it and in its subfolders at any depth, level by level (every
 * subfolder is walked, only what the caller may read is counted). Every contained kind has an entry, 0 included.
 *
 * @example await countDescendants(walk, 'team-a') // Map { folders => 2, dashboards => 5, librarypanels => 0 }
 */
export async function countDescendants(walk: CountWalk, folder: string): Promise<Map<KindRegistration, number>> {
  const counts = new Map(walk.contained.map((k) => [k, 0]));
  let frontier = [folder];
  const seen = new Set(frontier);
  for (let depth = 0; frontier.length && depth < MAX_DEPTH; depth++) {
    const next: string[] = [];
    for (const kind of walk.contained) {
      let after: string | undefined;
      do {
        const page = await walk.storage.list({ ...typeOf(kind), namespace: walk.namespace, folders: frontier, after, limit: PAGE });
        counts.set(kind, counts.get(kind)! + (await walk.readable(kind, page.items)).length);
        if (kind === walk.folderKind) for (const item of page.items) if (!seen.has(item.key.name)) (seen.add(item.key.name), next.push(item.key.name));
        after = page.more ? page.items[page.items.length - 1]?.key.name : undefined;
      } while (after);
    }
    frontier = next;
  }
  return counts;
}
