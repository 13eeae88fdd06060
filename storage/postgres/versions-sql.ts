import { sql } from 'kysely';
import type { HistoryEvent, ResourceKey, VersionsQuery, WatchAction } from '../types';
import type { Db } from './sql-storage';

/**
 * An object's versions (its generations) selected, ranked and paged by the database (Storage.objectVersions): the
 * legacy version list reads its page's rows, not every row of the object's past up to it.
 */

interface VersionRow {
  namespace: string;
  name: string;
  resource_version: string | number;
  previous_resource_version: string | number;
  action: string;
  value: unknown;
}

/**
 * The versions of the current life of `key` (rows of `q.uid` after its last deletion or earlier object of the same
 * name), newest first, each as the oldest row of its generation; with `keep`, only the newest `keep` exist.
 *
 * @example await versionRows(db, key, { uid, offset: 10, limit: 10 }) // the 11th to 20th newest versions
 */
export async function versionRows(db: Db, key: ResourceKey, q: VersionsQuery): Promise<HistoryEvent[]> {
  if (q.limit === 0) return [];
  const ofKey = (t: string) =>
    sql`${sql.ref(`${t}.group`)} = ${key.group} AND ${sql.ref(`${t}.resource`)} = ${key.resource} AND ${sql.ref(`${t}.namespace`)} = ${key.namespace} AND ${sql.ref(`${t}.name`)} = ${key.name}`;
  const where = [sql<boolean>`true`];
  if (q.keep !== undefined) where.push(sql<boolean>`v.rank <= ${q.keep}`);
  if (q.before !== undefined) where.push(sql<boolean>`v.resource_version < ${q.before}`);
  if (q.generation !== undefined) where.push(sql<boolean>`v.generation = ${JSON.stringify(q.generation)}::jsonb`);
  const { rows } = await sql<VersionRow>`
    WITH life AS (
      SELECT h.namespace, h.name, h.resource_version, h.previous_resource_version, h.action, h.value, h.value #> '{metadata,generation}' AS generation
      FROM resource_history h
      WHERE ${ofKey('h')} AND h.resource_version > COALESCE((
        SELECT max(d.resource_version) FROM resource_history d
        WHERE ${ofKey('d')} AND (d.action = 'DELETED' OR (d.value #>> '{metadata,uid}') IS DISTINCT FROM ${q.uid})), 0)
    ), made AS (
      SELECT DISTINCT ON (generation) * FROM life ORDER BY generation DESC, resource_version ASC
    ), v AS (
      SELECT *, row_number() OVER (ORDER BY generation DESC) AS rank FROM made
    )
    SELECT namespace, name, resource_version, previous_resource_version, action, value FROM v
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY generation DESC LIMIT ${q.limit ?? null} OFFSET ${q.offset ?? 0}`.execute(db);
  return rows.map((r) => ({
    key: { ...key, namespace: r.namespace, name: r.name },
    resourceVersion: Number(r.resource_version),
    value: r.value as HistoryEvent['value'],
    action: r.action as WatchAction,
    previousResourceVersion: Number(r.previous_resource_version),
  }));
}
