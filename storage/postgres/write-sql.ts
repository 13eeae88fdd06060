import { sql } from 'kysely';
import type { JsonObject } from '../../pkg/meta';
import type { DeleteAllQuery, ResourceKey } from '../types';
import { labelFilterSql } from './label-sql';
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

/**
 * Deletes every object of `q` (with its search row, unique keys and references) and adds a DELETED history row per
 * object, the i-th in (namespace, name) order at version `rvBase + i - 1`, holding its value, or the value `finals`
 * gives it (by `<namespace>/<name>`). The counter ends at the last version handed out; nothing moves when nothing
 * matched. Answers how many were deleted.
 */
export async function deleteObjects(db: Db, q: DeleteAllQuery, rvBase: number, finals?: ReadonlyMap<string, string>): Promise<number> {
  const inType = (t: string) => sql`${sql.ref(`${t}.group`)} = ${q.group} AND ${sql.ref(`${t}.resource`)} = ${q.resource}`;
  const held = (t: string) => sql`${inType(t)} AND ${sql.ref(`${t}.namespace`)} = d.namespace AND ${sql.ref(`${t}.name`)} = d.name`;
  const where = [inType('r'), ...(q.everyNamespace ? [] : [sql`r.namespace = ${q.namespace}`]), ...labelFilterSql('r', q.labels ?? [])];
  // The final values travel as one JSON object (portable to both backends' parameter encodings).
  const given = finals ? sql`LEFT JOIN jsonb_each(${`{${[...finals].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`}::jsonb) f ON f.key = d.namespace || '/' || d.name` : sql``;
  const { rows } = await sql<{ n: string | number }>`
    WITH doomed AS (
      SELECT r.namespace, r.name, row_number() OVER (ORDER BY r.namespace, r.name) AS i FROM resource r
      WHERE ${sql.join(where, sql` AND `)}),
    deleted AS (
      DELETE FROM resource r USING doomed d WHERE ${held('r')}
      RETURNING r.namespace, r.name, r.folder, r.resource_version, r.value, d.i),
    search AS (DELETE FROM search_index s USING deleted d WHERE ${held('s')}),
    uniques AS (DELETE FROM unique_key u USING deleted d WHERE ${held('u')}),
    refs AS (DELETE FROM object_reference o USING deleted d WHERE ${held('o')}),
    counter AS (
      UPDATE resource_version SET resource_version = ${rvBase}::bigint + (SELECT count(*) FROM deleted) - 1
      WHERE "group" = ${q.group} AND resource = ${q.resource} AND EXISTS (SELECT 1 FROM deleted)),
    history AS (
      INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
      SELECT ${q.group}, ${q.resource}, d.namespace, d.name, d.folder, 'DELETED', ${rvBase}::bigint + d.i - 1, d.resource_version,
        ${finals ? sql`coalesce(f.value, d.value)` : sql`d.value`}
      FROM deleted d ${given}
      RETURNING 1)
    SELECT count(*) AS n FROM history`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
