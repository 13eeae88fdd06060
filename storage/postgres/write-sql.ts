import { CompiledQuery, sql } from 'kysely';
import type { JsonObject } from '../../pkg/meta';
import type { DeleteAllQuery, GroupResource, ResourceKey, SearchFields } from '../types';
import { labelFilterSql } from './label-sql';
import { SEARCH_CONFLICT, SEARCH_INSERT, searchRow, searchUpsert, sortTitle } from './search-sql';
import { PREPARED } from './prepared';
import { THEN_COMMIT } from './folded-statements';
import type { Db } from './sql-storage';

/**
 * The object writes, each one statement: the type's counter (its version, and its last internal id when one was
 * handed out), the object row, its history row and its search row move together in data-modifying CTEs, so a write
 * holds its type's lock for fewer round trips (issue 16: that lock is what makes writes of one type run one at a
 * time, so each round trip under it is paid by every concurrent writer). The caller holds the type's lock and has
 * chosen `rv`.
 *
 * A write that does not apply (the name taken, the object gone or changed) changes no row but the counter and
 * answers undefined: the caller throws, which rolls the counter back with the transaction.
 */

/** What an insert or update writes: the version it takes, the object's folder, value and history value. */
export interface ObjectWrite {
  rv: number;
  /** The type's last internal id, when this transaction handed one out that is not stored yet. */
  internalId?: number;
  folder: string;
  json: string;
  historyJson: string;
  /** The object's search row (searchable kinds), written when the object is. */
  search?: SearchFields;
}

/** The counter update of a write. */
const counter = (key: GroupResource, w: { rv: number; internalId?: number }) => sql`
  UPDATE resource_version SET resource_version = ${w.rv}::bigint
    ${w.internalId === undefined ? sql`` : sql`, last_internal_id = greatest(last_internal_id, ${w.internalId}::bigint)`}
  WHERE "group" = ${key.group} AND resource = ${key.resource}`;

/** A type's counter: its last version and last internal id. */
export interface CounterState {
  version: number;
  internalId: number;
}

/** The search row of the object `written` (a CTE's name) returns, if it returned one. */
const searchOf = (key: ResourceKey, w: ObjectWrite, written: 'inserted' | 'updated') =>
  w.search ? sql`, search AS (${searchUpsert(sql`SELECT ${searchRow(key, w.folder, w.search)} FROM ${sql.raw(written)}`)})` : sql``;

/** The error of an {@link insertObjects} with `thenCommit` that did not insert every object (division_by_zero). */
export const NOT_ALL_WRITTEN = '22012';

/** Inserts the object with its ADDED history row and its search row; false when the name is taken (nothing inserted). */
export async function insertObject(db: Db, key: ResourceKey, w: ObjectWrite): Promise<boolean> {
  const { rows } = await sql<{ written: number }>`${sql.raw(PREPARED)}
    WITH counter AS (${counter(key, w)}),
    inserted AS (
      INSERT INTO resource ("group", resource, namespace, name, folder, resource_version, value)
      VALUES (${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, ${w.folder}, ${w.rv}::bigint, ${w.json}::jsonb)
      ON CONFLICT DO NOTHING
      RETURNING folder) ${searchOf(key, w, 'inserted')}
    INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
    SELECT ${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, inserted.folder, 'ADDED', ${w.rv}::bigint, 0, ${w.historyJson}::jsonb
    FROM inserted
    RETURNING 1 AS written`.execute(db);
  return rows.length === 1;
}

/**
 * The objects of {@link insertObjects} as one JSON array, one member per object: its key, folder and version, its value
 * and history value as they were stored (their JSON text written in, not quoted: the database parses the whole text
 * once), and its search row's fields when it has one.
 */
function objectRows(writes: readonly { key: ResourceKey; w: ObjectWrite }[]): string {
  const rows = writes.map(({ key, w }) => {
    const search = w.search
      ? `,"title":${JSON.stringify(w.search.title)},"sort_title":${JSON.stringify(sortTitle(w.search.title))},"tags":${JSON.stringify(w.search.tags)},"internal_id":${w.search.internalId}`
      : '';
    // A history value equal to the value is sent once (null here).
    const history = w.historyJson === w.json ? 'null' : w.historyJson;
    return `{"group":${JSON.stringify(key.group)},"resource":${JSON.stringify(key.resource)},"namespace":${JSON.stringify(key.namespace)},"name":${JSON.stringify(key.name)},"folder":${JSON.stringify(w.folder)},"rv":${w.rv},"value":${w.json},"history":${history}${search}}`;
  });
  return `[${rows.join(',')}]`;
}

/**
 * The counters of {@link insertObjects}'s types as one JSON array: each type's last version and last internal id
 * (null: none handed out), and, when assumed, what each must still hold.
 */
function counterRows(writes: readonly { key: ResourceKey; w: ObjectWrite }[], assumed?: ReadonlyMap<string, CounterState>): string {
  const types = new Map<string, { key: ResourceKey; rv: number; internalId?: number }>();
  for (const { key, w } of writes) {
    const k = `${key.group}/${key.resource}`;
    const t = types.get(k);
    const internalId = w.internalId === undefined ? t?.internalId : Math.max(w.internalId, t?.internalId ?? 0);
    types.set(k, { key, rv: Math.max(w.rv, t?.rv ?? 0), internalId });
  }
  const rows = [...types].map(([k, t]) => {
    const from = assumed?.get(k);
    const held = from ? `,"from_version":${from.version},"from_internal_id":${from.internalId}` : '';
    return `{"group":${JSON.stringify(t.key.group)},"resource":${JSON.stringify(t.key.resource)},"rv":${t.rv},"internal_id":${t.internalId ?? 'null'}${held}}`;
  });
  return `[${rows.join(',')}]`;
}

/**
 * The statement of {@link insertObjects}, one text whatever the batch (so PostgreSQL parses and plans it once per
 * connection): $1 the objects (objectRows), $2 their types' counters (counterRows), $3 how many must be inserted, or
 * null. It locks the counters in the global lock order (SqlTx.lockTypes; a transaction that holds them already
 * holds them again: `counter` reads the whole of `locked`, always true, so those locks are taken, sorted, before it
 * updates any row), moves each (only from the version assumed, when one is), and inserts the objects only if every
 * counter moved; each object whose name is free gets its history row and its search row. With $3, it fails unless
 * that many were inserted: a division by zero (22012, NOT_ALL_WRITTEN), which rolls back everything it did.
 */
const INSERT_OBJECTS = `
    WITH input AS (
      SELECT * FROM jsonb_to_recordset($1::jsonb) AS t ("group" text, resource text, namespace text, name text, folder text, rv bigint,
        value jsonb, history jsonb, title text, sort_title text, tags text[], internal_id bigint)),
    types AS (
      SELECT * FROM jsonb_to_recordset($2::jsonb) AS c ("group" text, resource text, rv bigint, internal_id bigint, from_version bigint, from_internal_id bigint)),
    locked AS (
      SELECT v."group" FROM resource_version v WHERE (v."group", v.resource) IN (SELECT "group", resource FROM types)
      ORDER BY (v."group" || '/' || v.resource) COLLATE "C" FOR UPDATE),
    counter AS (
      UPDATE resource_version v SET resource_version = c.rv, last_internal_id = greatest(v.last_internal_id, coalesce(c.internal_id, v.last_internal_id))
      FROM types c
      WHERE v."group" = c."group" AND v.resource = c.resource AND (SELECT count(*) FROM locked) >= 0
        AND (c.from_version IS NULL OR (v.resource_version = c.from_version AND v.last_internal_id = c.from_internal_id))
      RETURNING 1),
    inserted AS (
      INSERT INTO resource ("group", resource, namespace, name, folder, resource_version, value)
      SELECT "group", resource, namespace, name, folder, rv, value FROM input
      WHERE (SELECT count(*) FROM counter) = (SELECT count(*) FROM types)
      ON CONFLICT DO NOTHING
      RETURNING "group", resource, resource_version),
    search AS (${SEARCH_INSERT}
      SELECT i."group", i.resource, i.namespace, i.name, i.folder, i.title, i.sort_title, coalesce(i.tags, '{}'), i.internal_id
      FROM input i JOIN inserted d ON d."group" = i."group" AND d.resource = i.resource AND d.resource_version = i.rv
      WHERE i.title IS NOT NULL
      ${SEARCH_CONFLICT}),
    history AS (
      INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
      SELECT i."group", i.resource, i.namespace, i.name, i.folder, 'ADDED', i.rv, 0, coalesce(i.history, i.value)
      FROM input i JOIN inserted d ON d."group" = i."group" AND d.resource = i.resource AND d.resource_version = i.rv
      RETURNING 1)
    SELECT count(*) AS written, 1 / (count(*) = coalesce($3::int, count(*)))::int AS whole FROM history`;

/**
 * Inserts several objects, each with its ADDED history row and its search row, in one statement (the deferred creates
 * of a transaction, of one type or several, in version order); answers how many were inserted. One whose name is
 * taken, or taken by an earlier one of them, is not: the caller compares the count and throws, which rolls back the
 * rest with the transaction. The counter of each type ends at its last version.
 *
 * With `thenCommit`, it is sent with COMMIT in one message (folded-statements.ts) and fails unless every object was
 * inserted. With `assumed` (a batch that did not read its counters: SqlTx.commitAssumed, outside any transaction),
 * it is a transaction of its own: it locks the counters, and moves each only from what was assumed of it; when one
 * holds anything else (another process wrote the type), it inserts nothing and fails as when an object is not
 * inserted.
 */
export async function insertObjects(db: Db, writes: readonly { key: ResourceKey; w: ObjectWrite }[], opts: { thenCommit?: boolean; assumed?: ReadonlyMap<string, CounterState> } = {}): Promise<number> {
  const whole = opts.thenCommit || opts.assumed ? writes.length : null;
  const text = `${opts.thenCommit && !opts.assumed ? THEN_COMMIT : PREPARED}${INSERT_OBJECTS}`;
  const { rows } = await db.executeQuery<{ written: string | number }>(CompiledQuery.raw(text, [objectRows(writes), counterRows(writes, opts.assumed), whole]));
  return Number(rows[0]?.written ?? 0);
}

/**
 * Replaces the object stored at version `expected`, adds its MODIFIED history row and replaces its search row;
 * false when there is none.
 */
export async function updateObject(db: Db, key: ResourceKey, expected: number, w: ObjectWrite): Promise<boolean> {
  const { rows } = await sql<{ written: number }>`${sql.raw(PREPARED)}
    WITH counter AS (${counter(key, w)}),
    updated AS (
      UPDATE resource SET folder = ${w.folder}, resource_version = ${w.rv}::bigint, value = ${w.json}::jsonb
      WHERE "group" = ${key.group} AND resource = ${key.resource} AND namespace = ${key.namespace} AND name = ${key.name}
        AND resource_version = ${expected}::bigint
      RETURNING folder) ${searchOf(key, w, 'updated')}
    INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
    SELECT ${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, updated.folder, 'MODIFIED', ${w.rv}::bigint, ${expected}::bigint, ${w.historyJson}::jsonb
    FROM updated
    RETURNING 1 AS written`.execute(db);
  return rows.length === 1;
}

/**
 * Deletes the object (at version `expected` when given) with its search row, unique keys and references, and adds
 * its DELETED history row holding `finalJson` or else the object's last value; undefined when nothing was deleted.
 */
export async function deleteObject(db: Db, key: ResourceKey, w: { rv: number; internalId?: number }, expected: number | undefined, finalJson: string | undefined): Promise<{ folder: string; previous: number; value: JsonObject } | undefined> {
  const where = sql`"group" = ${key.group} AND resource = ${key.resource} AND namespace = ${key.namespace} AND name = ${key.name}`;
  const { rows } = await sql<{ folder: string; previous: string | number; value: JsonObject }>`${sql.raw(PREPARED)}
    WITH counter AS (${counter(key, w)}),
    deleted AS (
      DELETE FROM resource WHERE ${where} ${expected === undefined ? sql`` : sql`AND resource_version = ${expected}::bigint`}
      RETURNING folder, resource_version, value),
    search AS (DELETE FROM search_index WHERE ${where} AND EXISTS (SELECT 1 FROM deleted)),
    uniques AS (DELETE FROM unique_key WHERE ${where} AND EXISTS (SELECT 1 FROM deleted)),
    refs AS (DELETE FROM object_reference WHERE ${where} AND EXISTS (SELECT 1 FROM deleted))
    INSERT INTO resource_history ("group", resource, namespace, name, folder, action, resource_version, previous_resource_version, value)
    SELECT ${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, deleted.folder, 'DELETED', ${w.rv}::bigint, deleted.resource_version,
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
