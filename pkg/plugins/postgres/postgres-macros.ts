/**
 * The SQL macros of the PostgreSQL plugin (anchor-breadth §3.7): the anchor's global substitutions
 * (`$__interval_ms`, `$__interval`, `$__unixEpochFrom()`, `$__unixEpochTo()`) then its `$__name(args)` macros in the
 * PostgreSQL dialect. Pure: the SQL text in, the SQL text the database runs out (that text is the frame's
 * `meta.executedQueryString`), plus the fill a `$__timeGroup(col, '5m', <fill>)` asked for.
 */
import type { TimeRange } from '../types';
import { formatInterval, parseInterval } from './sql-interval';

/** How missing buckets of a `$__timeGroup(…, fill)` are filled once the rows are a time series. */
export interface Fill {
  mode: 'null' | 'previous' | 'value';
  /** The number of mode `value`. */
  value?: number;
  /** The group interval: one bucket each. */
  intervalMs: number;
}

export interface MacroContext {
  range: TimeRange;
  intervalMs: number;
  /** jsonData.timescaledb: `$__timeGroup` writes `time_bucket(…)`. */
  timescaledb?: boolean;
}

export interface ExpandedSql {
  sql: string;
  fill?: Fill;
}

/** A macro the SQL cannot be expanded with; the plugin answers `interpolation failed: <message>`. */
export class MacroError extends Error {}

/** RFC 3339 in UTC with only the fraction digits needed, as Go's time.RFC3339Nano writes (`…T10:00:00Z`, `…T10:00:00.5Z`). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d*?)0*Z$/, (_, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

const seconds = (ms: number) => Math.floor(ms / 1000);
const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

function needsColumn(name: string, args: string[]): string {
  if (!args[0]) throw new MacroError(`missing time column argument for macro $__${name}`);
  return args[0];
}

/** The group interval of `$__timeGroup(col, '5m'[, fill])` in ms, and the fill its third argument asks for. */
function groupArgs(name: string, args: string[]): { ms: number; fill?: Fill } {
  if (args.length < 2 || !args[0]) throw new MacroError(`macro $__${name} needs time column and interval and optional fill value`);
  const ms = parseInterval(args[1].replace(/^'+|'+$/g, ''));
  if (ms === undefined || ms <= 0) throw new MacroError(`error parsing interval ${args[1]}`);
  if (args.length < 3) return { ms };
  const fillArg = args.slice(2).join(',');
  if (fillArg === 'NULL') return { ms, fill: { mode: 'null', intervalMs: ms } };
  if (fillArg === 'previous') return { ms, fill: { mode: 'previous', intervalMs: ms } };
  const value = Number(fillArg);
  if (fillArg === '' || !Number.isFinite(value)) throw new MacroError(`error parsing fill value ${fillArg}`);
  return { ms, fill: { mode: 'value', value, intervalMs: ms } };
}

/**
 * Expands a query's SQL. Throws {@link MacroError} for an unknown macro or wrong arguments.
 *
 * @example
 * expandMacros("SELECT $__timeGroupAlias(ts, '5m'), avg(v) FROM m WHERE $__timeFilter(ts) GROUP BY 1",
 *   { range: { from: 0, to: 3_600_000 }, intervalMs: 1000 }).sql
 * // SELECT floor(extract(epoch from ts)/300)*300 AS "time", avg(v) FROM m
 * //   WHERE ts BETWEEN '1970-01-01T00:00:00Z' AND '1970-01-01T01:00:00Z' GROUP BY 1
 */
export function expandMacros(rawSql: string, ctx: MacroContext): ExpandedSql {
  const { from, to } = ctx.range;
  let sql = rawSql
    .replaceAll('$__interval_ms', String(Math.trunc(ctx.intervalMs)))
    .replaceAll('$__interval', formatInterval(ctx.intervalMs))
    .replaceAll('$__unixEpochFrom()', String(seconds(from)))
    .replaceAll('$__unixEpochTo()', String(seconds(to)));
  let fill: Fill | undefined;

  const group = (name: string, args: string[], column: (col: string, ms: number) => string) => {
    const g = groupArgs(name, args);
    if (g.fill) fill = g.fill;
    return column(args[0], g.ms);
  };
  const timeGroup = (args: string[]) =>
    group('timeGroup', args, (col, ms) => (ctx.timescaledb ? `time_bucket('${(ms / 1000).toFixed(3)}s', ${col})` : `floor(extract(epoch from ${col})/${ms / 1000})*${ms / 1000}`));
  const epochGroup = (args: string[]) => group('unixEpochGroup', args, (col, ms) => `floor((${col})/${ms / 1000})*${ms / 1000}`);

  const macros: Record<string, (args: string[]) => string> = {
    time: (args) => `${needsColumn('time', args)} AS "time"`,
    timeEpoch: (args) => `extract(epoch from ${needsColumn('timeEpoch', args)}) as "time"`,
    timeFilter: (args) => `${needsColumn('timeFilter', args)} BETWEEN '${rfc3339(from)}' AND '${rfc3339(to)}'`,
    timeFrom: () => `'${rfc3339(from)}'`,
    timeTo: () => `'${rfc3339(to)}'`,
    timeGroup,
    timeGroupAlias: (args) => `${timeGroup(args)} AS "time"`,
    unixEpochFilter: (args) => {
      const col = needsColumn('unixEpochFilter', args);
      return `${col} >= ${seconds(from)} AND ${col} <= ${seconds(to)}`;
    },
    unixEpochNanoFilter: (args) => {
      const col = needsColumn('unixEpochNanoFilter', args);
      return `${col} >= ${nanos(from)} AND ${col} <= ${nanos(to)}`;
    },
    unixEpochNanoFrom: () => nanos(from),
    unixEpochNanoTo: () => nanos(to),
    unixEpochGroup: epochGroup,
    unixEpochGroupAlias: (args) => `${epochGroup(args)} AS "time"`,
  };

  const macroCall = /\$__(\w+)\(([^)]*)\)/g;
  sql = sql.replace(macroCall, (call: string, name: string, argText: string, offset: number, whole: string) => {
    // The anchor keeps a pre-5.3 habit: `$__timeGroup(…),` directly followed by a comma meant the aliased form.
    const effective = name === 'timeGroup' && whole[offset + call.length] === ',' ? 'timeGroupAlias' : name;
    const expand = Object.hasOwn(macros, effective) ? macros[effective] : undefined;
    if (!expand) throw new MacroError(`unknown macro "$__${name}"`);
    return expand(argText.split(',').map((a) => a.trim()));
  });
  return fill ? { sql, fill } : { sql };
}
