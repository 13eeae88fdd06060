import type { Reference, ReferenceTarget, ReferrersQuery, ResourceKey } from '../types';
import type { Db } from './sql-storage';

/**
 * Object references (`object_reference`, migration 0007): what an object names of other objects of its namespace,
 * written by the transaction that writes the object, so that a reader sees an object's references exactly as the
 * object it sees (a deleted dashboard never still connects to a library panel).
 */

/** Each target once. */
function distinct(targets: readonly ReferenceTarget[]): ReferenceTarget[] {
  return [...new Map(targets.map((t) => [`${t.group}\0${t.resource}\0${t.name}`, t])).values()];
}

/**
 * Makes `targets` the object's references: those it no longer names go, new ones are added.
 *
 * @example await writeReferences(trx, dashboardKey, [{ group: 'dashboard.svc.app', resource: 'librarypanels', name: 'cpu' }])
 */
export async function writeReferences(db: Db, key: ResourceKey, targets: readonly ReferenceTarget[], opts = { replace: true }): Promise<void> {
  if (opts.replace) await deleteReferences(db, key);
  const rows = distinct(targets).map((t) => ({
    group: key.group,
    resource: key.resource,
    namespace: key.namespace,
    name: key.name,
    target_group: t.group,
    target_resource: t.resource,
    target_name: t.name,
  }));
  if (rows.length) await db.insertInto('object_reference').values(rows).execute();
}

/** Removes every reference the object makes. */
export async function deleteReferences(db: Db, key: ResourceKey): Promise<void> {
  await db
    .deleteFrom('object_reference')
    .where('group', '=', key.group)
    .where('resource', '=', key.resource)
    .where('namespace', '=', key.namespace)
    .where('name', '=', key.name)
    .execute();
}

/** The references pointing at the objects of `q`, in (target name, referrer name) order. */
export async function referrerRows(db: Db, q: ReferrersQuery): Promise<Reference[]> {
  if (!q.names.length) return [];
  const rows = await db
    .selectFrom('object_reference')
    .select(['group', 'resource', 'namespace', 'name', 'target_name'])
    .where('target_group', '=', q.group)
    .where('target_resource', '=', q.resource)
    .where('namespace', '=', q.namespace)
    .where('target_name', 'in', [...q.names])
    .orderBy('target_name')
    .orderBy('group')
    .orderBy('resource')
    .orderBy('name')
    .execute();
  return rows.map((r) => ({
    from: { group: r.group, resource: r.resource, namespace: r.namespace, name: r.name },
    to: { group: q.group, resource: q.resource, namespace: q.namespace, name: r.target_name },
  }));
}
