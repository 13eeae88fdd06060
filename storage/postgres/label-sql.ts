import { type RawBuilder, sql } from 'kysely';
import type { LabelFilter } from '../types';

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
