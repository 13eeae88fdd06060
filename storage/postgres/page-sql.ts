import { type RawBuilder, sql } from 'kysely';
import type { FieldPath, GroupResource, Page, PageQuery, StoredObject, TagCountQuery } from '../types';
import { labelFilterSql } from './label-sql';
import type { Db } from './sql-storage';

/**
 * Pages selected, sorted and counted by the database (Storage.page), and the tag counts of the search index
 * (Storage.tagCounts): what the legacy API's paged searches ask (users by login, teams by name, an organization's
 * members), so that a page ships its own rows and one number instead of the whole collection.
 */

/** A field of the row's object as text (NULL when absent); `r` is the `resource` row. */
const fieldText = (path: FieldPath) => sql<string>`(r.value #>> ${sql`${[...path]}::text[]`})`;

/** At most 18 digits: every such integer fits a bigint, so the cast never fails. */
const INTEGER = '^-?[0-9]{1,18}$';

function sortKey({ path, as }: PageQuery['order'][number], dir: RawBuilder<unknown>): RawBuilder<unknown> {
  const f = fieldText(path);
  const key = as === 'number' ? sql`(CASE WHEN ${f} ~ ${INTEGER} THEN ${f}::bigint END)` : as === 'exact' ? sql`${f} COLLATE "C"` : sql`lower(${f}) COLLATE "C"`;
  return sql`${key} ${dir}`;
}

function conditions(q: PageQuery): RawBuilder<boolean>[] {
  const where: RawBuilder<boolean>[] = [sql`r."group" = ${q.group}`, sql`r.resource = ${q.resource}`, sql`r.namespace = ${q.namespace}`];
  if (q.names) where.push(sql`r.name = ANY(${sql`${[...q.names]}::text[]`})`);
  if (q.excludeNames?.length) where.push(sql`NOT (r.name = ANY(${sql`${[...q.excludeNames]}::text[]`}))`);
  if (q.folders) where.push(sql`r.folder = ANY(${sql`${[...q.folders]}::text[]`})`);
  if (q.namedAs) {
    const t = q.namedAs;
    where.push(sql`r.name IN (SELECT o.name FROM resource o WHERE o."group" = ${t.group} AND o.resource = ${t.resource} AND o.namespace = ${t.namespace})`);
  }
  for (const { path, values } of q.equal ?? []) {
    where.push(sql`r.value #> ${sql`${[...path]}::text[]`} = ANY(${sql`${values.map((v) => JSON.stringify(v))}::jsonb[]`})`);
  }
  if (q.contains?.text && q.contains.paths.length) {
    // strpos, not LIKE: the text's `%` and `_` are plain characters, and both sides are folded by the same lower().
    const needle = sql`lower(${q.contains.text})`;
    where.push(sql<boolean>`(${sql.join(q.contains.paths.map((p) => sql`strpos(lower(${fieldText(p)}), ${needle}) > 0`), sql` OR `)})`);
  }
  where.push(...labelFilterSql('r', q.labels ?? []));
  return where;
}

interface PageRow {
  namespace: string;
  name: string;
  resource_version: string | number;
  value: unknown;
  total: string | number;
}

/**
 * One page of `q` and the number of matches, in one statement (a second, counting one only for a page past the
 * last match, which has no row to carry the number).
 *
 * @example await pageRows(db, { group: 'iam.svc.app', resource: 'users', namespace: 'svc-identity', contains: { paths: [['spec', 'login']], text: 'an' }, order: [{ path: ['spec', 'login'], as: 'text' }], offset: 0, limit: 10 })
 */
export async function pageRows(db: Db, q: PageQuery): Promise<Page> {
  const nothing = q.names?.length === 0 || q.folders?.length === 0 || q.equal?.some((e) => e.values.length === 0);
  if (nothing || q.limit === 0) return { items: [], total: nothing ? 0 : await countRows(db, q) };
  const where = sql.join(conditions(q), sql` AND `);
  // Reversed, a missing field goes last: the exact reverse of the ascending order.
  const dir = q.descending ? sql`DESC NULLS LAST` : sql`ASC NULLS FIRST`;
  const order = sql.join([...q.order.map((o) => sortKey(o, dir)), sql`r.name COLLATE "C" ${dir}`]);
  const { rows } = await sql<PageRow>`
    SELECT r.namespace, r.name, r.resource_version, r.value, count(*) OVER () AS total
    FROM resource r WHERE ${where}
    ORDER BY ${order} LIMIT ${q.limit ?? null} OFFSET ${q.offset}`.execute(db);
  const type: GroupResource = { group: q.group, resource: q.resource };
  const items = rows.map(
    (r): StoredObject => ({ key: { ...type, namespace: r.namespace, name: r.name }, resourceVersion: Number(r.resource_version), value: r.value as StoredObject['value'] }),
  );
  if (rows.length) return { items, total: Number(rows[0].total) };
  return { items, total: q.offset > 0 ? await countRows(db, q) : 0 };
}

async function countRows(db: Db, q: PageQuery): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM resource r WHERE ${sql.join(conditions(q), sql` AND `)}`.execute(db);
  return Number(rows[0].n);
}

/**
 * Each tag of the search index with how many objects of `q.types` in `q.namespace` carry it (an object carrying a
 * tag twice counts once), by tag in byte order; '' is no tag.
 */
export async function tagCountRows(db: Db, q: TagCountQuery): Promise<{ tag: string; count: number }[]> {
  if (!q.types.length) return [];
  const types = sql.join(q.types.map((t) => sql`(s."group" = ${t.group} AND s.resource = ${t.resource})`), sql` OR `);
  const { rows } = await sql<{ tag: string; n: string | number }>`
    SELECT t.tag, count(DISTINCT (s."group", s.resource, s.name)) AS n
    FROM search_index s CROSS JOIN LATERAL unnest(s.tags) AS t(tag)
    WHERE s.namespace = ${q.namespace} AND (${types}) AND t.tag <> ''
    GROUP BY t.tag ORDER BY t.tag COLLATE "C"`.execute(db);
  return rows.map((r) => ({ tag: r.tag, count: Number(r.n) }));
}
