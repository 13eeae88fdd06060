import type { CascadeRead, CascadeSelection, KindRegistration, Resource } from '../meta';
import type { LabelFilter, StorageTx, StoredObject } from '../../storage';
import { typeOf } from './folder-tree';
import { toResource } from './object-meta';

/**
 * The kinds a delete of `kind` may write to through its cascades, `kind` first, each once (a dependent's own
 * dependents included): their types are locked up front with the owner's.
 */
export function cascadeKinds(kind: KindRegistration): KindRegistration[] {
  const seen: KindRegistration[] = [kind];
  for (let i = 0; i < seen.length; i++) {
    for (const c of seen[i].cascades ?? []) if (!seen.includes(c.kind)) seen.push(c.kind);
  }
  return seen;
}

/** The dependents of one cascade: the objects selected, and how each goes (deleted, or rewritten by `prune`). */
export interface Dependents {
  kind: KindRegistration;
  items: StoredObject[];
  prune?: CascadeSelection['prune'];
}

/** The stored dependents of a deleted `owner` of `kind`, by dependent kind, read in the deleting transaction. */
export async function dependentsOf(tx: StorageTx, kind: KindRegistration, owner: Resource): Promise<Dependents[]> {
  const out: Dependents[] = [];
  const read: CascadeRead = async (type, name, namespace = '*') => {
    const page = await tx.list({ group: type.group, resource: type.plural, namespace, everyNamespace: namespace === '*', names: [name] });
    return page.items[0] && toResource(page.items[0]);
  };
  for (const cascade of kind.cascades ?? []) {
    const { namespace = owner.metadata.namespace, labels = {}, names, contains, all, prune } = await cascade.dependents(owner, read);
    const filters: LabelFilter[] = Object.entries(labels).map(([key, value]) => ({ key, operator: 'Equals', values: [value] }));
    // A selection of nothing in particular must not read as "everything".
    if (!filters.length && !names && !contains && !all) continue;
    const page = await tx.list({ ...typeOf(cascade.kind), namespace, everyNamespace: namespace === '*', labels: filters, ...(names ? { names } : {}), ...(contains ? { contains } : {}) });
    out.push({ kind: cascade.kind, items: page.items, prune });
  }
  return out;
}
