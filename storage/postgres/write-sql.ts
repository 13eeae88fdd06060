import { sql } from 'kysely';
import type { JsonObject } from '../../pkg/meta';
import type { ResourceKey } from '../types';
import type { Db } from './sql-storage';

/**
 * The object writes, each one statement: the type's counter, the object row and its history row move together in
 * data-modifying CTEs, so a write holds its type's lock for fewer round trips (issue 16: that lock is what makes
 * writes of one type run one at a time). The caller holds the type's lock and has chosen `rv`.
 *
 * A write that does not apply (the name taken, the object gone or changed) changes no row but the counter and
 * answers undefined: the caller throws, which rolls the counter back with the transaction.
 */

const counter = (key: ResourceKey, rv: number) =>
  sql`UPDATE resource_version SET resource_version = ${rv}::bigint WHERE "group" = ${key.group} AND resource = ${key.resource}`;

/** Inserts the object and its ADDED history row; false when the name is taken (nothing inserted). */
export async function insertObject(db: Db, key: ResourceKey, rv: number, folder: string, json: string, historyJson: string): Promise<boolean> {
  const { rows } = await sql<{ written: number }>`
    WITH counter AS (${counter(key, rv)}),
    inserted AS (
      INSERT INTO resource ("group", resource, namespace, name, folder, resource_version, value)
      VALUES (${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, ${folder}, ${rv}::bigint, ${json}::jsonb)
      ON CONFLICT DO NOTHING
      RETURNING folder)
    INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
    SELECT ${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, inserted.folder, 'ADDED', ${rv}::bigint, 0, ${historyJson}::jsonb
    FROM inserted
    RETURNING 1 AS written`.execute(db);
  return rows.length === 1;
}

/** Replaces the object stored at version `expected` and adds its MODIFIED history row; false when there is none. */
export async function updateObject(db: Db, key: ResourceKey, rv: number, expected: number, folder: string, json: string, historyJson: string): Promise<boolean> {
  const { rows } = await sql<{ written: number }>`
    WITH counter AS (${counter(key, rv)}),
    updated AS (
      UPDATE resource SET folder = ${folder}, resource_version = ${rv}::bigint, value = ${json}::jsonb
      WHERE "group" = ${key.group} AND resource = ${key.resource} AND namespace = ${key.namespace} AND name = ${key.name}
        AND resource_version = ${expected}::bigint
      RETURNING folder)
    INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
    SELECT ${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, updated.folder, 'MODIFIED', ${rv}::bigint, ${expected}::bigint, ${historyJson}::jsonb
    FROM updated
    RETURNING 1 AS written`.execute(db);
  return rows.length === 1;
}

/**
 * Deletes the object (at version `expected` when given) with its search row, unique keys and references, and adds
 * its DELETED history row holding `finalJson` or else the object's last value; undefined when nothing was deleted.
 */
export async function deleteObject(db: Db, key: ResourceKey, rv: number, expected: number | undefined, finalJson: string | undefined): Promise<{ folder: string; previous: number; value: JsonObject } | undefined> {
  const where = sql`"group" = ${key.group} AND resource = ${key.resource} AND namespace = ${key.namespace} AND name = ${key.name}`;
  const { rows } = await sql<{ folder: string; previous: string | number; value: JsonObject }>`
    WITH counter AS (${counter(key, rv)}),
    deleted AS (
      DELETE FROM resource WHERE ${where} ${expected === undefined ? sql`` : sql`AND resource_version = ${expected}::bigint`}
      RETURNING folder, resource_version, value),
    search AS (DELETE FROM search_index WHERE ${where} AND EXISTS (SELECT 1 FROM deleted)),
    uniques AS (DELETE FROM unique_key WHERE ${where} AND EXISTS (SELECT 1 FROM deleted)),
    refs AS (DELETE FROM object_reference WHERE ${where} AND EXISTS (SELECT 1 FROM deleted))
    INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
    SELECT ${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, deleted.folder, 'DELETED', ${rv}::bigint, deleted.resource_version,
      ${finalJson === undefined ? sql`deleted.value` : sql`${finalJson}::jsonb`}
    FROM deleted
    RETURNING folder, previous_resource_version AS previous, value`.execute(db);
  const row = rows[0];
  return row && { folder: row.folder, previous: Number(row.previous), value: row.value };
}
