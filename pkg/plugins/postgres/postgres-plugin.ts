/**
 * The PostgreSQL data source plugin (`svc-postgresql-datasource`, alias `postgres`; anchor-breadth §3.7, §4): a
 * query's `rawSql` goes through the macros, runs read-only on the data source's pool, and its rows become a
 * `table` or `time_series` frame with the executed SQL in `meta.executedQueryString`.
 */
import type { DataQuery, DataResponse, DataSourceInstance, DataSourcePlugin, HealthResult, QueryContext } from '../types';
import { healthFailure, queryErrorText } from './postgres-errors';
import { ConversionError, type QueryFormat, rowsToFields, sqlFrame, toTimeSeries } from './postgres-frames';
import { expandMacros, MacroError } from './postgres-macros';
import { PostgresPools } from './postgres-pools';
import { runReadOnly } from './read-only-query';

export const POSTGRES_HEALTH_OK = 'Database Connection OK';

/** The anchor's notice when a result had more rows than `[dataproxy] row_limit`. */
export const rowLimitNotice = (rowLimit: number) => `Results have been limited to ${rowLimit} because the SQL row limit was reached`;

async function runQuery(pools: PostgresPools, ds: DataSourceInstance, q: DataQuery, ctx: QueryContext): Promise<DataResponse | undefined> {
  const rawSql = typeof q.model.rawSql === 'string' ? q.model.rawSql : '';
  // The anchor skips a query without SQL: no entry in `results`.
  if (rawSql.trim() === '') return undefined;
  const format: QueryFormat = q.model.format === 'table' ? 'table' : 'time_series';
  const { pool, settings } = pools.get(ds);
  let expanded;
  try {
    expanded = expandMacros(rawSql, { range: ctx.range, intervalMs: q.intervalMs, timescaledb: settings.timescaledb });
  } catch (err) {
    if (!(err instanceof MacroError)) throw err;
    return { frames: [sqlFrame(q.refId, [], rawSql)], error: `interpolation failed: ${err.message}`, errorSource: 'plugin' };
  }
  const sql = expanded.sql;
  let result;
  try {
    result = await runReadOnly(pool, sql, { timeoutMs: settings.timeoutMs, rowLimit: ctx.rowLimit, signal: ctx.signal });
  } catch (err) {
    return { frames: [sqlFrame(q.refId, [], sql)], error: `db query error: ${queryErrorText(err)}`, errorSource: 'downstream' };
  }
  const notices = result.truncated ? [{ severity: 'warning', text: rowLimitNotice(ctx.rowLimit) }] : [];
  // No rows: a frame without fields, so a panel shows no empty columns (the anchor's choice), the SQL kept.
  if (result.rows.length === 0) return { frames: [sqlFrame(q.refId, [], sql, notices)] };
  try {
    const fields = rowsToFields(result.columns, result.rows, format);
    if (format === 'table') return { frames: [sqlFrame(q.refId, fields, sql, notices)] };
    const series = toTimeSeries(fields, expanded.fill, ctx.range, ctx.rowLimit);
    return { frames: [sqlFrame(q.refId, series.fields, sql, [...notices, ...series.notices])] };
  } catch (err) {
    if (!(err instanceof ConversionError)) throw err;
    return { frames: [sqlFrame(q.refId, [], sql)], error: `${err.prefix}: ${err.message}`, errorSource: 'plugin' };
  }
}

/**
 * A PostgreSQL plugin with pools of its own (each server composes one, so two servers in a process share nothing).
 *
 * @example
 * const plugin = createPostgresPlugin();
 * await plugin.query(ds, [{ refId: 'A', intervalMs: 1000, maxDataPoints: 100, queryType: '', model: { rawSql: 'SELECT 1 AS v', format: 'table' } }], ctx);
 * await plugin.close?.();
 */
export function createPostgresPlugin(): DataSourcePlugin {
  const pools = new PostgresPools();
  return {
    id: 'svc-postgresql-datasource',
    aliases: ['postgres'],
    name: 'PostgreSQL',
    async checkHealth(ds, signal): Promise<HealthResult> {
      try {
        const { pool, settings } = pools.get(ds);
        await runReadOnly(pool, 'SELECT 1', { timeoutMs: settings.timeoutMs, rowLimit: 1, signal });
        return { status: 'OK', message: POSTGRES_HEALTH_OK };
      } catch (err) {
        return healthFailure(err);
      }
    },
    async query(ds, queries, ctx) {
      const answers = await Promise.all(queries.map(async (q) => [q.refId, await runQuery(pools, ds, q, ctx)] as const));
      const results: Record<string, DataResponse> = {};
      for (const [refId, answer] of answers) if (answer) results[refId] = answer;
      return results;
    },
    dispose: (namespace, uid) => pools.dispose(namespace, uid),
    close: () => pools.close(),
  };
}
