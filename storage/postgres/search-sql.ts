import { type RawBuilder, sql } from 'kysely';
import type { JsonObject } from '../../pkg/meta';
import type { GroupResource, ResourceKey, SearchFields, SearchHit, SearchPosition, SearchQuery } from '../types';
import type { Db } from './sql-storage';

/**
 * The search index (`search_index`, migration 0003): one row per object of a searchable kind, written by the
 * same transaction as the object. Pages are keyset pages in (sort key, name) order read from
 * `search_index_title_idx` (migration 0005); a search over several types merges one ordered branch per type (a Merge Append), so
 * its first page costs a few index pages whatever the collection's size.
 */

/** Rows written per statement when the index is rebuilt. */
const SYNC_BATCH = 500;

/** The case folding titles are sorted and matched by; done here, not by the database, so every backend agrees. */
export const sortTitle = (title: string): string => title.toLowerCase();

/** One array parameter, however many values: a parameter each would overflow the protocol's 65,535. */
const textArray = (values: readonly string[]) => sql<string[]>`${[...values]}::text[]`;

/**
 * The sort key the title indexes hold (migration 0005): the folded title's first 200 characters, so an index entry
 * stays within a B-tree page whatever the title. Every ORDER BY and keyset condition uses this very expression.
 */
const SORT_KEY = sql`left(sort_title, 200)`;

/** Writes (or replaces) several rows in one statement (the rebuild; an object's own row is written by its write). */
async function writeSearchRows(db: Db, rows: readonly { key: ResourceKey; folder: string; fields: SearchFields }[]): Promise<void> {
  await searchUpsert(sql`VALUES ${sql.join(rows.map(({ key, folder, fields }) => sql`(${searchRow(key, folder, fields)})`))}`).execute(db);
}

/**
 * One row's values, in the column order of {@link searchUpsert}, typed (so they also serve as a SELECT list).
 *
 * @example searchUpsert(sql`SELECT ${searchRow(key, 'ops', { title: 'API latency', tags: ['prod'], internalId: 7 })}`)
 */
export const searchRow = (key: ResourceKey, folder: string, f: SearchFields) =>
  sql`${key.group}, ${key.resource}, ${key.namespace}, ${key.name}, ${folder}, ${f.title}, ${sortTitle(f.title)}, ${textArray(f.tags)}, ${f.internalId}::bigint`;

/**
 * Writes (or replaces) the rows `rows` yields: a VALUES list, or a SELECT (an object's write statement inserts its
 * row from the row it wrote, so a write that did not apply writes none).
 */
export const searchUpsert = (rows: RawBuilder<unknown>) => sql`${sql.raw(SEARCH_INSERT)} ${rows} ${sql.raw(SEARCH_CONFLICT)}`;

/** The text around {@link searchUpsert}'s rows (storage/postgres/write-sql.ts writes it into a constant text). */
export const SEARCH_INSERT = `INSERT INTO search_index ("group", resource, namespace, name, folder, title, sort_title, tags, internal_id)`;
export const SEARCH_CONFLICT = `ON CONFLICT ("group", resource, namespace, name) DO UPDATE SET
      folder = excluded.folder, title = excluded.title, sort_title = excluded.sort_title, tags = excluded.tags,
      internal_id = excluded.internal_id`;

/** Removes an object's row, if it has one. */
export async function deleteSearchRow(db: Db, key: ResourceKey): Promise<void> {
  await db
    .deleteFrom('search_index')
    .where('group', '=', key.group)
    .where('resource', '=', key.resource)
    .where('namespace', '=', key.namespace)
    .where('name', '=', key.name)
    .execute();
}

interface HitRow {
  group: string;
  resource: string;
  namespace: string;
  name: string;
  folder: string;
  title: string;
  sort_key: string;
  tags: string[] | null;
  internal_id: string | number;
}

/** `a` before `b` in the byte order the database compares types in (group, then resource). */
function typeBefore(a: GroupResource, b: GroupResource): boolean {
  const ka = Buffer.from(`${a.group}\0${a.resource}`);
  const kb = Buffer.from(`${b.group}\0${b.resource}`);
  return Buffer.compare(ka, kb) < 0;
}

/**
 * The keyset condition of one type's branch: hits after `pos` in the search order. Hits with pos's exact
 * (sort_title, name) still follow it when their type sorts after pos's type.
 */
function afterCondition(type: GroupResource, pos: SearchPosition, order: 'asc' | 'desc'): RawBuilder<boolean> {
  const posType = { group: pos.group, resource: pos.resource };
  const tieFollows = order === 'asc' ? typeBefore(posType, type) : typeBefore(type, posType);
  const op = order === 'asc' ? (tieFollows ? '>=' : '>') : tieFollows ? '<=' : '<';
  return sql<boolean>`(${SORT_KEY}, name) ${sql.raw(op)} (${pos.sortTitle}, ${pos.name})`;
}

/** `%` and `_` in a user's query are literal characters. */
const likePattern = (s: string) => `%${sortTitle(s).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function branch(q: SearchQuery, type: GroupResource, merged: boolean): RawBuilder<HitRow> {
  const where: RawBuilder<boolean>[] = [
    sql`namespace = ${q.namespace}`,
    sql`"group" = ${type.group}`,
    sql`resource = ${type.resource}`,
  ];
  if (q.title) where.push(sql`sort_title LIKE ${likePattern(q.title)}`);
  if (q.tags?.length) where.push(sql`tags @> ${textArray(q.tags)}`);
  if (q.folders) where.push(sql`folder IN (${sql.join([...q.folders])})`);
  if (q.names) where.push(sql`name IN (${sql.join([...q.names])})`);
  if (q.after) where.push(afterCondition(type, q.after, q.order));
  const dir = sql.raw(q.order);
  // A branch merged with others must hold every row the merge may skip; a lone branch skips them itself.
  const page = merged ? sql`LIMIT ${(q.offset ?? 0) + q.limit + 1}` : sql`LIMIT ${q.limit + 1} OFFSET ${q.offset ?? 0}`;
  return sql<HitRow>`
    SELECT "group", resource, namespace, name, folder, title, ${SORT_KEY} AS sort_key, tags, internal_id FROM search_index
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${SORT_KEY} ${dir}, name ${dir} ${page}`;
}

function toHit(r: HitRow): SearchHit {
  return {
    key: { group: r.group, resource: r.resource, namespace: r.namespace, name: r.name },
    folder: r.folder,
    title: r.title,
    tags: r.tags ?? [],
    internalId: Number(r.internal_id),
    position: { sortTitle: r.sort_key, name: r.name, group: r.group, resource: r.resource },
  };
}

/**
 * One page of hits in the search order (see {@link SearchQuery}).
 *
 * @example await searchRows(db, { namespace: 'default', types: [dashboards], title: 'lat', order: 'asc', limit: 50 })
 */
export async function searchRows(db: Db, q: SearchQuery): Promise<{ hits: SearchHit[]; more: boolean }> {
  if (q.types.length === 0 || q.names?.length === 0 || q.folders?.length === 0) return { hits: [], more: false };
  const dir = sql.raw(q.order);
  const query =
    q.types.length === 1
      ? branch(q, q.types[0], false)
      : sql<HitRow>`
          SELECT * FROM (${sql.join(q.types.map((t) => sql`(${branch(q, t, true)})`), sql` UNION ALL `)}) h
          ORDER BY sort_key ${dir}, name ${dir}, "group" COLLATE "C" ${dir}, resource COLLATE "C" ${dir}
          LIMIT ${q.limit + 1} OFFSET ${q.offset ?? 0}`;
  const { rows } = await query.execute(db);
  const more = rows.length > q.limit;
  return { hits: (more ? rows.slice(0, q.limit) : rows).map(toHit), more };
}

/**
 * Rebuilds a type's rows from its stored objects when their numbers differ; the caller holds the type's lock.
 * Returns the rows written.
 */
export async function syncSearchRows(db: Db, type: GroupResource, fields: (value: JsonObject) => SearchFields): Promise<number> {
  const count = async (table: 'resource' | 'search_index') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('group', '=', type.group)
          .where('resource', '=', type.resource)
          .executeTakeFirstOrThrow()
      ).n,
    );
  if ((await count('resource')) === (await count('search_index'))) return 0;
  await db.deleteFrom('search_index').where('group', '=', type.group).where('resource', '=', type.resource).execute();
  let written = 0;
  let after = { namespace: '', name: '' };
  for (;;) {
    const rows = await db
      .selectFrom('resource')
      .select(['namespace', 'name', 'folder', 'value'])
      .where('group', '=', type.group)
      .where('resource', '=', type.resource)
      .where(sql<boolean>`(namespace, name) > (${after.namespace}, ${after.name})`)
      .orderBy('namespace')
      .orderBy('name')
      .limit(SYNC_BATCH)
      .execute();
    if (rows.length === 0) return written;
    await writeSearchRows(db, rows.map((r) => ({ key: { ...type, namespace: r.namespace, name: r.name }, folder: r.folder, fields: fields(r.value as JsonObject) })));
    written += rows.length;
    const last = rows[rows.length - 1];
    after = { namespace: last.namespace, name: last.name };
  }
}
