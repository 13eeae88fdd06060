import type { KindRegistration, Resource } from '../meta';
import type { LabelFilter, StorageTx, StoredObject } from '../../storage';
import { typeOf } from './folder-tree';

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

/** The stored dependents of a deleted `owner` of `kind`, by dependent kind, read in the deleting transaction. */
export async function dependentsOf(tx: StorageTx, kind: KindRegistration, owner: Resource): Promise<{ kind: KindRegistration; items: StoredObject[] }[]> {
  const out: { kind: KindRegistration; items: StoredObject[] }[] = [];
  for (const cascade of kind.cascades ?? []) {
    const { namespace = owner.metadata.namespace, labels = {}, names } = cascade.dependents(owner);
    const filters: LabelFilter[] = Object.entries(labels).map(([key, value]) => ({ key, operator: 'Equals', values: [value] }));
    // A selection of nothing in particular must not read as "everything".
    if (!filters.length && !names) continue;
    const page = await tx.list({ ...typeOf(cascade.kind), namespace, everyNamespace: namespace === '*', labels: filters, ...(names ? { names } : {}) });
    out.push({ kind: cascade.kind, items: page.items });
  }
  return out;
}
