import type { JsonObject, KindRegistration } from '../meta';
import type { GroupResource, StorageTx } from '../../storage';
import { typeOf } from './folder-tree';
import { historyValueOf, redactsHistory } from './secret-fields';

/** What a namespace's deletion covers beside the namespace itself (see Registry.deleteNamespace). */
export interface NamespaceDeletionOptions {
  /** The organization whose objects kept elsewhere go too (KindRegistration.orgLabel); none: only the namespace. */
  orgId?: number;
  /** Runs first in the deleting transaction, with every type locked (removing what names the namespace). */
  within?: (tx: StorageTx) => Promise<void>;
}

/**
 * The kinds of several registries, each stored type once: a type served in two versions (or by two registries) is
 * one collection.
 */
export function distinctTypes(kinds: readonly KindRegistration[]): KindRegistration[] {
  const seen = new Map<string, KindRegistration>();
  for (const k of kinds) seen.set(`${k.group}/${k.plural}`, seen.get(`${k.group}/${k.plural}`) ?? k);
  return [...seen.values()];
}

/**
 * Deletes, in the caller's transaction, every object of `kinds` in `namespace`, and those of kinds with an `orgLabel`
 * naming `opts.orgId` wherever they are (StorageTx.deleteAll: one DELETED history row each, recording what history may
 * record of the kind). Every type is locked first, in the global order, then `opts.within` runs. Answers how many
 * objects were deleted.
 */
export async function deleteNamespaceWithin(tx: StorageTx, kinds: readonly KindRegistration[], namespace: string, opts: NamespaceDeletionOptions = {}): Promise<number> {
  const types: GroupResource[] = kinds.map(typeOf);
  await tx.lockTypes(types);
  await opts.within?.(tx);
  let deleted = 0;
  for (const kind of kinds) {
    const historyValue = redactsHistory(kind) ? (value: JsonObject) => historyValueOf(kind, value) ?? value : undefined;
    deleted += await tx.deleteAll({ ...typeOf(kind), namespace }, { historyValue });
    if (kind.orgLabel && opts.orgId !== undefined) {
      const labels = [{ key: kind.orgLabel, operator: 'Equals' as const, values: [String(opts.orgId)] }];
      deleted += await tx.deleteAll({ ...typeOf(kind), namespace: '', everyNamespace: true, labels }, { historyValue });
    }
  }
  return deleted;
}
