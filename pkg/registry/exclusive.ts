import type { KindRegistration, Resource } from '../meta';
import type { StorageTx, StoredObject } from '../../storage';
import { typeOf } from './folder-tree';

/**
 * The kinds' exclusive flags (KindRegistration.exclusive): at most one object of a namespace holds each true. Read
 * in the write's transaction with the kind's type locked, so no concurrent write can make a second holder.
 */

const holds = (obj: Resource, field: string) => (obj.spec as Record<string, unknown> | undefined)?.[field] === true;

/**
 * Sets the flags a new object takes because it is the first of its namespace (`firstHolds`). May mutate `obj`.
 *
 * @example await takeFirstFlags(tx, dataSourceKind, ds); // the org's first data source becomes its default
 */
export async function takeFirstFlags(tx: StorageTx, kind: KindRegistration, obj: Resource): Promise<void> {
  const first = (kind.exclusive ?? []).filter((f) => f.firstHolds && !holds(obj, f.field));
  if (!first.length) return;
  const existing = await tx.list({ ...typeOf(kind), namespace: obj.metadata.namespace, limit: 1 });
  if (existing.items.length) return;
  obj.spec = { ...(obj.spec as Record<string, unknown>), ...Object.fromEntries(first.map((f) => [f.field, true])) } as Resource['spec'];
}

/**
 * The other objects of the namespace holding a flag `obj` holds, each with the fields to clear on it: what the write
 * of `obj` takes the flags from.
 */
export async function flagHolders(tx: StorageTx, kind: KindRegistration, obj: Resource): Promise<{ stored: StoredObject; fields: string[] }[]> {
  const fields = (kind.exclusive ?? []).map((f) => f.field).filter((f) => holds(obj, f));
  if (!fields.length) return [];
  const page = await tx.list({ ...typeOf(kind), namespace: obj.metadata.namespace });
  return page.items
    .filter((s) => s.key.name !== obj.metadata.name)
    .map((stored) => ({ stored, fields: fields.filter((f) => holds(stored.value as unknown as Resource, f)) }))
    .filter((h) => h.fields.length > 0);
}
