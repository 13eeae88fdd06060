import { type RawBuilder, sql } from 'kysely';
import type { FieldPath, LabelFilter } from '../types';

/**
 * A label selector as SQL over the stored envelope, so that pages are filled in the database.
 * Semantics of k8s.io/apimachinery/pkg/labels: `!=` and `notin` also match objects without the key.
 */
export function labelFilterSql(table: string, filters: readonly LabelFilter[]): RawBuilder<boolean>[] {
  const labels = sql`(${sql.ref(`${table}.value`)} -> 'metadata' -> 'labels')`;
  return filters.map((f) => {
    const value = sql`(${labels} ->> ${f.key})`;
    const list = sql.join(f.values.map((v) => sql`${v}`));
    switch (f.operator) {
      case 'Equals':
        return sql<boolean>`${value} = ${f.values[0]}`;
      case 'NotEquals':
        return sql<boolean>`${value} IS DISTINCT FROM ${f.values[0]}`;
      case 'In':
        return sql<boolean>`${value} IN (${list})`;
      case 'NotIn':
        return sql<boolean>`(${value} IS NULL OR ${value} NOT IN (${list}))`;
      case 'Exists':
        return sql<boolean>`${value} IS NOT NULL`;
      case 'DoesNotExist':
        return sql<boolean>`${value} IS NULL`;
      case 'GreaterThan':
      case 'LessThan': {
        const op = f.operator === 'GreaterThan' ? sql`>` : sql`<`;
        // CASE keeps the cast from running on values that are not integers.
        return sql<boolean>`(CASE WHEN ${value} ~ '^-?[0-9]+$' THEN ${value}::numeric ${op} ${f.values[0]}::numeric ELSE false END)`;
      }
    }
  });
}

/**
 * `table.value #> path @> value` (JSON containment), with the path written as a literal so that an expression index
 * on that path (migration 0008) serves it.
 *
 * @example containsSql('r', { path: ['spec', 'permissions'], value: [{ kind: 'User', name: 'u1' }] })
 */
export function containsSql(table: string, c: { path: FieldPath; value: unknown }): RawBuilder<boolean> {
  const path = `{${c.path.map((step) => `"${step.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  return sql<boolean>`(${sql.ref(`${table}.value`)} #> ${sql.lit(path)}::text[]) @> ${JSON.stringify(c.value)}::jsonb`;
}
