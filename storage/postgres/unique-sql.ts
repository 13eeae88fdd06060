import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { JsonObject } from '../../pkg/meta';
import { type GroupResource, type ResourceKey, StorageError, type UniqueKey } from '../types';
import type { Db } from './sql-storage';

/**
 * Unique keys (`unique_key`, migration 0006): the values one object of a type alone may hold in a scope, written
 * by the transaction that writes the object. The table's primary key is the constraint; writers of one type also
 * hold the type's lock, so a refusal is decided before anything is written and no statement ever fails on it.
 */

/** Longer values are stored as a digest: a B-tree row holds at most about 2.7 kB. */
const MAX_STORED_BYTES = 512;

/** Rows read per statement when a field is filled in. */
const SYNC_BATCH = 500;

const stored = (value: string) =>
  Buffer.byteLength(value) <= MAX_STORED_BYTES ? value : `sha256:${createHash('sha256').update(value).digest('hex')}`;

const id = (k: UniqueKey) => `${k.scope}\0${k.field}\0${stored(k.value)}`;

/** Each key once (an object may give one value twice, as a login that is also the email). */
function distinct(keys: readonly UniqueKey[]): UniqueKey[] {
  return [...new Map(keys.map((k) => [id(k), k])).values()];
}

/**
 * Makes `keys` the object's keys: drops those it held and no longer gives, adds the new ones.
 *
 * @throws StorageError 'UniqueViolation' when another object holds one of them (nothing is written then).
 */
export async function writeUniqueKeys(db: Db, key: ResourceKey, keys: readonly UniqueKey[]): Promise<void> {
  const wanted = distinct(keys);
  if (wanted.length) {
    const tuples = wanted.map((k) => sql`(${k.scope}, ${k.field}, ${stored(k.value)})`);
    const { rows } = await sql<{ scope: string; field: string; value: string }>`
      SELECT scope, field, value FROM unique_key
      WHERE "group" = ${key.group} AND resource = ${key.resource} AND (scope, field, value) IN (${sql.join(tuples)})
        AND NOT (namespace = ${key.namespace} AND name = ${key.name})
      LIMIT 1`.execute(db);
    const held = rows[0];
    if (held) {
      const taken = wanted.find((k) => id(k) === `${held.scope}\0${held.field}\0${held.value}`)!;
      throw new StorageError('UniqueViolation', key, `${taken.field} ${JSON.stringify(taken.value)} is held by another object`, taken);
    }
  }
  await deleteUniqueKeys(db, key);
  if (wanted.length) await insertKeys(db, key, wanted);
}

async function insertKeys(db: Db, key: ResourceKey, keys: readonly UniqueKey[]): Promise<void> {
  await db
    .insertInto('unique_key')
    .values(keys.map((k) => ({ group: key.group, resource: key.resource, scope: k.scope, field: k.field, value: stored(k.value), namespace: key.namespace, name: key.name })))
    .execute();
}

/** Frees every key of the object. */
export async function deleteUniqueKeys(db: Db, key: ResourceKey): Promise<void> {
  await db
    .deleteFrom('unique_key')
    .where('group', '=', key.group)
    .where('resource', '=', key.resource)
    .where('namespace', '=', key.namespace)
    .where('name', '=', key.name)
    .execute();
}

/**
 * See Storage.syncUniqueKeys; the caller holds the type's lock.
 *
 * @example await syncUniqueRows(trx, teams, ['name'], (v) => [{ scope: ns(v), field: 'name', value: name(v) }])
 */
export async function syncUniqueRows(
  db: Db,
  type: GroupResource,
  fields: readonly string[],
  keysOf: (value: JsonObject) => readonly UniqueKey[],
): Promise<{ written: number; shared: number }> {
  const ofType = { group: type.group, resource: type.resource };
  const done = new Set(
    (await db.selectFrom('unique_field').select('field').where('group', '=', type.group).where('resource', '=', type.resource).execute()).map((r) => r.field),
  );
  const dropped = [...done].filter((f) => !fields.includes(f));
  if (dropped.length) {
    await db.deleteFrom('unique_key').where('group', '=', type.group).where('resource', '=', type.resource).where('field', 'in', dropped).execute();
    await db.deleteFrom('unique_field').where('group', '=', type.group).where('resource', '=', type.resource).where('field', 'in', dropped).execute();
  }
  const missing = new Set(fields.filter((f) => !done.has(f)));
  const result = { written: 0, shared: 0 };
  if (!missing.size) return result;
  await db.deleteFrom('unique_key').where('group', '=', type.group).where('resource', '=', type.resource).where('field', 'in', [...missing]).execute();
  const taken = new Set<string>();
  let after = { namespace: '', name: '' };
  for (;;) {
    const rows = await db
      .selectFrom('resource')
      .select(['namespace', 'name', 'value'])
      .where('group', '=', type.group)
      .where('resource', '=', type.resource)
      .where(sql<boolean>`(namespace, name) > (${after.namespace}, ${after.name})`)
      .orderBy('namespace')
      .orderBy('name')
      .limit(SYNC_BATCH)
      .execute();
    for (const r of rows) {
      const keys = distinct(keysOf(r.value as JsonObject).filter((k) => missing.has(k.field)));
      const free = keys.filter((k) => !taken.has(id(k)));
      result.shared += keys.length - free.length;
      for (const k of free) taken.add(id(k));
      if (free.length) await insertKeys(db, { ...ofType, namespace: r.namespace, name: r.name }, free);
      result.written += free.length;
    }
    if (rows.length < SYNC_BATCH) break;
    const last = rows[rows.length - 1];
    after = { namespace: last.namespace, name: last.name };
  }
  await db.insertInto('unique_field').values([...missing].map((field) => ({ ...ofType, field }))).execute();
  return result;
}
