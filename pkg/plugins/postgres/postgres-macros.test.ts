import { expandMacros, MacroError, rfc3339 } from './postgres-macros';
import { formatInterval, parseInterval } from './sql-interval';

// 2018-04-12T18:00:00Z .. 2018-04-12T19:00:00.123Z: one range for every case, with a fraction on `to`.
const from = Date.UTC(2018, 3, 12, 18, 0, 0);
const to = Date.UTC(2018, 3, 12, 19, 0, 0, 123);
const ctx = { range: { from, to }, intervalMs: 60_000 };
const expand = (sql: string, extra: Partial<typeof ctx> & { timescaledb?: boolean } = {}) => expandMacros(sql, { ...ctx, ...extra });

describe('interval texts', () => {
  it.each([
    ['5m', 300_000],
    ['30s', 30_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1.5h', 5_400_000],
    ['1d', 86_400_000],
    ['2w', 14 * 86_400_000],
  ])('parseInterval(%s) = %d ms', (text, ms) => expect(parseInterval(text)).toBe(ms));

  it.each(['', '5', 'm', '5 m', '5x', '1d2h', "'5m'"])('parseInterval(%j) is no interval', (text) => expect(parseInterval(text)).toBeUndefined());

  it('counts calendar months and years from now', () => {
    expect(parseInterval('1M', Date.UTC(2021, 1, 1))).toBe(28 * 86_400_000);
    expect(parseInterval('1y', Date.UTC(2020, 0, 1))).toBe(366 * 86_400_000);
  });

  it.each([
    [0, '1ms'],
    [20, '20ms'],
    [1000, '1s'],
    [90_000, '1m'],
    [3_600_000, '1h'],
    [2 * 86_400_000, '2d'],
    [400 * 86_400_000, '1y'],
  ])('formatInterval(%d) = %s', (ms, text) => expect(formatInterval(ms)).toBe(text));
});

describe('RFC 3339 times as Go writes them', () => {
  it.each([
    [from, '2018-04-12T18:00:00Z'],
    [to, '2018-04-12T19:00:00.123Z'],
    [from + 500, '2018-04-12T18:00:00.5Z'],
  ])('%d → %s', (ms, text) => expect(rfc3339(ms)).toBe(text));
});

describe('global substitutions', () => {
  it.each([
    ['SELECT $__interval_ms', 'SELECT 60000'],
    ['SELECT $__interval', 'SELECT 1m'],
    ['SELECT $__unixEpochFrom(), $__unixEpochTo()', `SELECT ${from / 1000}, ${Math.floor(to / 1000)}`],
  ])('%s', (sql, out) => expect(expand(sql).sql).toBe(out));

  it('$__interval inside a macro is the group interval', () => {
    expect(expand("SELECT $__timeGroup(t, '$__interval')", { intervalMs: 300_000 }).sql).toBe('SELECT floor(extract(epoch from t)/300)*300');
    expect(expand('SELECT $__timeGroup(t, $__interval)', { intervalMs: 10_000 }).sql).toBe('SELECT floor(extract(epoch from t)/10)*10');
  });
});

describe('macros', () => {
  it.each([
    ['$__time(ts)', 'ts AS "time"'],
    ['$__timeEpoch(ts)', 'extract(epoch from ts) as "time"'],
    ['$__timeFilter(ts)', "ts BETWEEN '2018-04-12T18:00:00Z' AND '2018-04-12T19:00:00.123Z'"],
    ['$__timeFilter( ts )', "ts BETWEEN '2018-04-12T18:00:00Z' AND '2018-04-12T19:00:00.123Z'"],
    ['$__timeFrom()', "'2018-04-12T18:00:00Z'"],
    ['$__timeTo()', "'2018-04-12T19:00:00.123Z'"],
    ["$__timeGroup(ts,'5m')", 'floor(extract(epoch from ts)/300)*300'],
    ["$__timeGroup(ts, '1.5s')", 'floor(extract(epoch from ts)/1.5)*1.5'],
    ["$__timeGroup(ts, '1d')", 'floor(extract(epoch from ts)/86400)*86400'],
    ["$__timeGroupAlias(ts,'5m')", 'floor(extract(epoch from ts)/300)*300 AS "time"'],
    ['$__unixEpochFilter(t)', `t >= ${from / 1000} AND t <= ${Math.floor(to / 1000)}`],
    ['$__unixEpochNanoFilter(t)', 't >= 1523556000000000000 AND t <= 1523559600123000000'],
    ['$__unixEpochNanoFrom()', '1523556000000000000'],
    ['$__unixEpochNanoTo()', '1523559600123000000'],
    ["$__unixEpochGroup(t, '5m')", 'floor((t)/300)*300'],
    ["$__unixEpochGroupAlias(t, '1h')", 'floor((t)/3600)*3600 AS "time"'],
  ])('%s → %s', (macro, out) => {
    expect(expand(`SELECT ${macro} FROM m`).sql).toBe(`SELECT ${out} FROM m`);
  });

  it('leaves SQL without macros as it is, parameters and dollar quotes included', () => {
    const sql = "SELECT $1, $$text$$, $tag$x$tag$ FROM m WHERE a = 'b'";
    expect(expand(sql)).toEqual({ sql });
  });

  it('expands every call, several per statement', () => {
    expect(expand("SELECT $__timeGroupAlias(ts,'1m'), v FROM m WHERE $__timeFilter(ts) AND $__timeFilter(ts2)").sql).toBe(
      "SELECT floor(extract(epoch from ts)/60)*60 AS \"time\", v FROM m WHERE ts BETWEEN '2018-04-12T18:00:00Z' AND '2018-04-12T19:00:00.123Z' AND ts2 BETWEEN '2018-04-12T18:00:00Z' AND '2018-04-12T19:00:00.123Z'",
    );
  });

  it('$__timeGroup directly followed by a comma is the aliased form (the anchor’s pre-5.3 habit); elsewhere not', () => {
    expect(expand("SELECT $__timeGroup(ts,'5m'), v FROM m").sql).toBe('SELECT floor(extract(epoch from ts)/300)*300 AS "time", v FROM m');
    expect(expand("SELECT $__timeGroup(ts,'5m') , v FROM m").sql).toBe('SELECT floor(extract(epoch from ts)/300)*300 , v FROM m');
    expect(expand("SELECT v FROM m GROUP BY $__timeGroup(ts,'5m')").sql).toBe('SELECT v FROM m GROUP BY floor(extract(epoch from ts)/300)*300');
  });

  it('TimescaleDB: $__timeGroup is time_bucket', () => {
    expect(expand("SELECT $__timeGroupAlias(ts,'5m')", { timescaledb: true }).sql).toBe("SELECT time_bucket('300.000s', ts) AS \"time\"");
  });
});

describe('fill modes of $__timeGroup and $__unixEpochGroup', () => {
  it.each([
    ["$__timeGroup(ts,'5m')", undefined],
    ["$__timeGroup(ts,'5m',NULL)", { mode: 'null', intervalMs: 300_000 }],
    ["$__timeGroup(ts,'5m', previous)", { mode: 'previous', intervalMs: 300_000 }],
    ["$__timeGroupAlias(ts,'1m', 0)", { mode: 'value', value: 0, intervalMs: 60_000 }],
    ["$__timeGroupAlias(ts,'1m', -1.5)", { mode: 'value', value: -1.5, intervalMs: 60_000 }],
    ["$__unixEpochGroupAlias(t,'10s', 7)", { mode: 'value', value: 7, intervalMs: 10_000 }],
  ])('%s', (macro, fill) => {
    expect(expand(`SELECT ${macro}`).fill).toEqual(fill);
  });
});

describe('macro errors', () => {
  it.each([
    ['SELECT $__timeGroup(ts)', 'macro $__timeGroup needs time column and interval and optional fill value'],
    ['SELECT $__timeGroupAlias()', 'macro $__timeGroup needs time column and interval and optional fill value'],
    ['SELECT $__unixEpochGroup(t)', 'macro $__unixEpochGroup needs time column and interval and optional fill value'],
    ["SELECT $__timeGroup(ts, 'soon')", "error parsing interval 'soon'"],
    ["SELECT $__timeGroup(ts, '0s')", "error parsing interval '0s'"],
    ["SELECT $__timeGroup(ts, '5m', later)", 'error parsing fill value later'],
    ['SELECT $__timeFilter()', 'missing time column argument for macro $__timeFilter'],
    ['SELECT $__time()', 'missing time column argument for macro $__time'],
    ['SELECT $__unixEpochFilter()', 'missing time column argument for macro $__unixEpochFilter'],
    ['SELECT $__nope(ts)', 'unknown macro "$__nope"'],
    ['SELECT $__constructor(ts)', 'unknown macro "$__constructor"'],
  ])('%s → %s', (sql, message) => {
    expect(() => expand(sql)).toThrow(MacroError);
    expect(() => expand(sql)).toThrow(message);
  });
});
