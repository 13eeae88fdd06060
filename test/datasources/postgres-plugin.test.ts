/**
 * The PostgreSQL plugin object (pkg/plugins/postgres) against a real database on the local server: formats,
 * long-to-wide, fill, types, row limit, errors per query, the read-only transaction (a login that may write still
 * changes nothing), statement timeout, health, and the pools (application_name, maxOpenConns, dispose, close).
 * The database is the upstream here, not the server's storage: this suite does not depend on the test backend.
 */
import { createPostgresPlugin, POSTGRES_HEALTH_OK, rowLimitNotice } from '../../pkg/plugins/postgres';
import { applicationName } from '../../pkg/plugins/postgres/postgres-settings';
import type { DataQuery, DataSourceInstance, DataSourcePlugin, QueryContext } from '../../pkg/plugins/types';
import { createUpstreamDatabase, localPostgresAnswers, passwordCluster, type UpstreamDatabase } from '../support/postgres-upstream';

const from = Date.UTC(2024, 0, 1, 0, 0, 0);
const minute = 60_000;
const to = from + 10 * minute;

const answers = localPostgresAnswers();
const suite = answers ? describe : describe.skip;

suite(`the PostgreSQL plugin on a real database${answers ? '' : ' (skipped: no PostgreSQL answers at SVC_TEST_DATABASE_URL)'}`, () => {
  let up: UpstreamDatabase;
  let plugin: DataSourcePlugin;

  const instance = (over: Partial<DataSourceInstance> = {}): DataSourceInstance => ({
    namespace: 'default',
    uid: 'pg-plugin',
    id: 1,
    name: 'PG',
    type: 'svc-postgresql-datasource',
    url: up.url,
    user: up.reader.user,
    database: up.database,
    basicAuth: false,
    basicAuthUser: '',
    withCredentials: false,
    jsonData: { sslmode: 'disable' },
    secure: { password: up.reader.password },
    resourceVersion: '1',
    ...over,
  });
  const ctx = (over: Partial<QueryContext> = {}): QueryContext => ({ range: { from, to }, signal: new AbortController().signal, rowLimit: 1_000_000, userAgent: 'Svc/test', ...over });
  const query = (model: Record<string, unknown>, over: Partial<DataQuery> = {}): DataQuery => ({ refId: 'A', maxDataPoints: 100, intervalMs: 1000, queryType: '', model, ...over });
  const one = async (model: Record<string, unknown>, ds = instance(), c = ctx()) => (await plugin.query(ds, [query(model)], c)).A;
  const connections = async (ds: DataSourceInstance) =>
    Number((await up.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND datname = $2', [applicationName(ds), up.database]))[0].n);
  /**
   * The connections of `ds` once ended ones are gone: a backend leaves pg_stat_activity when its process exits, a moment
   * after the client's end() resolved (2 s at most here; one that never ends still counts).
   */
  const connectionsOnceEnded = async (ds: DataSourceInstance) => {
    let n = await connections(ds);
    for (let i = 0; i < 40 && n > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      n = await connections(ds);
    }
    return n;
  };
  const snapshot = async () => (await up.query("SELECT count(*)::int AS n, coalesce(sum(value), 0) AS s, string_agg(host, ',' ORDER BY time, host) AS h FROM metrics"))[0];

  beforeAll(async () => {
    up = await createUpstreamDatabase();
    // Hosts a and b every minute of the range; b misses minute 5 (the fill cases), no row at minute 10.
    await up.query(`INSERT INTO metrics (time, host, metric, value, n)
      SELECT $1::timestamptz + make_interval(mins => i), h, 'cpu.' || h, CASE h WHEN 'a' THEN i ELSE 10 * i END, i
      FROM generate_series(0, 9) i, unnest(ARRAY['a', 'b']) h WHERE NOT (h = 'b' AND i = 5)`, [new Date(from).toISOString()]);
    plugin = createPostgresPlugin();
  });
  afterAll(async () => {
    await plugin?.close?.();
    await up?.drop();
  });

  it('is the anchor’s plugin id with the postgres alias', () => {
    expect(plugin.id).toBe('svc-postgresql-datasource');
    expect(plugin.aliases).toEqual(['postgres']);
  });

  it('table format: every column in SQL order, the time column as time, the SQL after macros in meta', async () => {
    const res = await one({ format: 'table', rawSql: 'SELECT time, host, value, n FROM metrics WHERE $__timeFilter(time) ORDER BY time, host LIMIT 3' });
    expect(res.error).toBeUndefined();
    const [frame] = res.frames;
    expect(frame.meta?.executedQueryString).toBe("SELECT time, host, value, n FROM metrics WHERE time BETWEEN '2024-01-01T00:00:00Z' AND '2024-01-01T00:10:00Z' ORDER BY time, host LIMIT 3");
    expect(frame.fields.map((f) => [f.name, f.type, f.frameType, f.nullable])).toEqual([
      ['time', 'time', 'time.Time', true],
      ['host', 'string', 'string', true],
      ['value', 'number', 'float64', true],
      ['n', 'number', 'int32', true],
    ]);
    expect(frame.fields.map((f) => f.values)).toEqual([[from, from, from + minute], ['a', 'b', 'a'], [0, 0, 1], [0, 0, 1]]);
  });

  it('time_series: string columns become labels of one value field per series (long to wide), the time field is Time', async () => {
    const res = await one({ rawSql: "SELECT $__timeGroupAlias(time, '1m'), host, avg(value) AS value FROM metrics WHERE $__timeFilter(time) GROUP BY 1, 2 ORDER BY 1" });
    expect(res.error).toBeUndefined();
    const [time, a, b] = res.frames[0].fields;
    expect(res.frames[0].fields).toHaveLength(3);
    expect(time).toMatchObject({ name: 'Time', type: 'time' });
    expect(time.values).toEqual(Array.from({ length: 10 }, (_, i) => from + i * minute));
    expect(a).toMatchObject({ name: 'value', type: 'number', frameType: 'float64', labels: { host: 'a' } });
    expect(b).toMatchObject({ name: 'value', labels: { host: 'b' } });
    expect(a.values).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(b.values).toEqual([0, 10, 20, 30, 40, null, 60, 70, 80, 90]);
    expect(res.frames[0].meta?.executedQueryString).toContain('floor(extract(epoch from time)/60)*60 AS "time"');
  });

  it('time_series: a lone metric column names the series; rows in any order come out sorted by time', async () => {
    const res = await one({ rawSql: 'SELECT time, metric, value FROM metrics WHERE $__timeFilter(time) ORDER BY time DESC' });
    const fields = res.frames[0].fields;
    expect(fields.map((f) => [f.name, f.labels])).toEqual([['Time', undefined], ['cpu.b', undefined], ['cpu.a', undefined]]);
    expect(fields[0].values[0]).toBe(from);
    expect(fields[2].values).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('time_series without string columns: each numeric column a float64 field; epoch seconds as time', async () => {
    const res = await one({ rawSql: "SELECT extract(epoch from time)::bigint AS time, value, n FROM metrics WHERE host = 'a' ORDER BY 1" });
    const [time, value, n] = res.frames[0].fields;
    expect(time.values.slice(0, 2)).toEqual([from, from + minute]);
    expect([value.frameType, n.frameType]).toEqual(['float64', 'float64']);
    expect(n.values.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it.each([
    ['0', [0, 10, 20, 30, 40, 0, 60, 70, 80, 90, 0]],
    ['previous', [0, 10, 20, 30, 40, 40, 60, 70, 80, 90, 90]],
    ['NULL', [0, 10, 20, 30, 40, null, 60, 70, 80, 90, null]],
  ])('$__timeGroup fill %s: one row per interval over the whole range, missing buckets filled', async (fill, expected) => {
    const res = await one({ rawSql: `SELECT $__timeGroupAlias(time, '1m', ${fill}), host, sum(value) AS value FROM metrics WHERE $__timeFilter(time) GROUP BY 1, 2 ORDER BY 1` });
    expect(res.error).toBeUndefined();
    const [time, a, b] = res.frames[0].fields;
    expect(time.values).toEqual(Array.from({ length: 11 }, (_, i) => from + i * minute));
    expect(b.values).toEqual(expected);
    expect(a.values[10]).toBe(fill === '0' ? 0 : fill === 'previous' ? 9 : null);
  });

  it('maps PostgreSQL types to frame types, NaN and NULL kept', async () => {
    const res = await one({
      format: 'table',
      rawSql: `SELECT 1::int2 AS a, 2::int4 AS b, 3::int8 AS c, 1.5::float4 AS d, 2.5::float8 AS e, 3.25::numeric AS f, true AS g,
        'x'::text AS h, 'y'::varchar AS i, '{"k":[1]}'::jsonb AS j, '2024-01-02'::date AS k, '2024-01-02 03:04:05.000250+02'::timestamptz AS l,
        '2024-01-02 03:04:05'::timestamp AS m, 'NaN'::float8 AS n, NULL::int AS o, '1 day'::interval AS p`,
    });
    const byName = Object.fromEntries(res.frames[0].fields.map((f) => [f.name, [f.type, f.frameType, f.values[0]]]));
    expect(byName).toEqual({
      a: ['number', 'int16', 1],
      b: ['number', 'int32', 2],
      c: ['number', 'int64', 3],
      d: ['number', 'float32', 1.5],
      e: ['number', 'float64', 2.5],
      f: ['number', 'float64', 3.25],
      g: ['boolean', 'bool', true],
      h: ['string', 'string', 'x'],
      i: ['string', 'string', 'y'],
      j: ['other', 'json.RawMessage', { k: [1] }],
      k: ['time', 'time.Time', Date.UTC(2024, 0, 2)],
      l: ['time', 'time.Time', Date.UTC(2024, 0, 2, 1, 4, 5) + 0.25],
      m: ['time', 'time.Time', Date.UTC(2024, 0, 2, 3, 4, 5)],
      n: ['number', 'float64', Number.NaN],
      o: ['number', 'int32', null],
      p: ['string', 'string', '1 day'],
    });
  });

  it('row limit: the first rows and the anchor’s notice', async () => {
    const res = await one({ format: 'table', rawSql: 'SELECT n FROM metrics ORDER BY time, host' }, instance(), ctx({ rowLimit: 3 }));
    expect(res.frames[0].fields[0].values).toEqual([0, 0, 1]);
    expect(res.frames[0].meta?.notices).toEqual([{ severity: 'warning', text: rowLimitNotice(3) }]);
    expect(rowLimitNotice(3)).toBe('Results have been limited to 3 because the SQL row limit was reached');
    const exact = await one({ format: 'table', rawSql: 'SELECT n FROM metrics LIMIT 3' }, instance(), ctx({ rowLimit: 3 }));
    expect(exact.frames[0].meta?.notices).toBeUndefined();
  });

  it('no rows: a frame without fields that keeps the executed SQL', async () => {
    const res = await one({ rawSql: 'SELECT time, value FROM metrics WHERE false' });
    expect(res).toEqual({ frames: [{ refId: 'A', meta: { executedQueryString: 'SELECT time, value FROM metrics WHERE false' }, fields: [] }] });
  });

  it('per-query errors: the others in the request still answer; an empty rawSql has no entry', async () => {
    const res = await plugin.query(
      instance(),
      [
        query({ rawSql: 'SELECT nope FROM metrics' }, { refId: 'DB' }),
        query({ rawSql: 'SELECT $__nope(time) FROM metrics' }, { refId: 'MACRO' }),
        query({ rawSql: 'SELECT value FROM metrics' }, { refId: 'NOTIME' }),
        query({ rawSql: '  ' }, { refId: 'EMPTY' }),
        query({ format: 'table', rawSql: 'SELECT 1 AS one' }, { refId: 'OK' }),
      ],
      ctx(),
    );
    expect(Object.keys(res).sort()).toEqual(['DB', 'MACRO', 'NOTIME', 'OK']);
    expect(res.DB).toMatchObject({ error: 'db query error: column "nope" does not exist', errorSource: 'downstream' });
    expect(res.DB.frames[0].meta?.executedQueryString).toBe('SELECT nope FROM metrics');
    expect(res.MACRO).toMatchObject({ error: 'interpolation failed: unknown macro "$__nope"', errorSource: 'plugin' });
    expect(res.NOTIME.error).toBe("db has no time column: time column is missing; make sure your data includes a time column for time series format or switch to a table format that doesn't require it");
    expect(res.OK.frames[0].fields[0].values).toEqual([1]);
  });

  describe('read-only: a login that may write changes nothing', () => {
    const writer = () => instance({ uid: 'pg-writer', user: up.writer.user, secure: { password: up.writer.password } });
    it.each([
      ["INSERT INTO metrics (time, host, value) VALUES (now(), 'x', 1)", 'cannot execute INSERT in a read-only transaction'],
      ['UPDATE metrics SET value = -1', 'cannot execute UPDATE in a read-only transaction'],
      ['DELETE FROM metrics', 'cannot execute DELETE in a read-only transaction'],
      ['DROP TABLE metrics', 'cannot execute DROP TABLE in a read-only transaction'],
      ['TRUNCATE metrics', 'cannot execute TRUNCATE TABLE in a read-only transaction'],
      ['CREATE TABLE other (x int)', 'cannot execute CREATE TABLE in a read-only transaction'],
      ['WITH d AS (DELETE FROM metrics RETURNING 1) SELECT count(*) FROM d', 'cannot execute SELECT in a read-only transaction'],
      ['SELECT 1; DELETE FROM metrics', 'cannot insert multiple commands into a prepared statement'],
      ['SET TRANSACTION READ WRITE', 'transaction read-write mode must be set before any query'],
      ["SELECT set_config('default_transaction_read_only', 'off', false)", null],
    ])('%s', async (rawSql, message) => {
      const before = await snapshot();
      const res = await one({ format: 'table', rawSql }, writer());
      if (message) expect(res).toMatchObject({ error: `db query error: ${message}`, errorSource: 'downstream' });
      expect(await snapshot()).toEqual(before);
    });

    it('a COMMIT in rawSql ends nothing that could write: the connection stays read-only', async () => {
      const before = await snapshot();
      await one({ format: 'table', rawSql: 'COMMIT' }, writer());
      const res = await one({ format: 'table', rawSql: 'DELETE FROM metrics' }, writer());
      expect(res.error).toMatch(/read-only transaction/);
      expect(await snapshot()).toEqual(before);
    });

    it('the read-only role is refused too, and the same SQL through the writer role outside the plugin does write (the test is honest)', async () => {
      const res = await one({ format: 'table', rawSql: "INSERT INTO metrics (time, host, value) VALUES (now(), 'x', 1)" });
      expect(res.error).toMatch(/^db query error: /);
      const { Client } = await import('pg');
      const c = new Client({ host: up.host, port: up.port, database: up.database, user: up.writer.user, password: up.writer.password });
      await c.connect();
      await c.query('BEGIN');
      await c.query("INSERT INTO metrics (time, host, value) VALUES (now(), 'x', 1)");
      await c.query('ROLLBACK');
      await c.end();
    });
  });

  it('a statement longer than jsonData.timeout is canceled', async () => {
    const started = Date.now();
    const res = await one({ format: 'table', rawSql: 'SELECT pg_sleep(5)' }, instance({ uid: 'pg-timeout', jsonData: { sslmode: 'disable', timeout: 1 } }));
    expect(res.error).toBe('db query error: canceling statement due to statement timeout');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('an aborted request answers at once and its connection is closed, not reused', async () => {
    const ds = instance({ uid: 'pg-abort' });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('client went away')), 300);
    const started = Date.now();
    const res = await one({ format: 'table', rawSql: 'SELECT pg_sleep(20) /* abort-me */' }, ds, ctx({ signal: abort.signal }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.error).toBe('db query error: client went away');
    // The server stops the statement too (a cancel request), rather than sleeping on for a client that left.
    const sleeping = async () => Number((await up.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query LIKE '%abort-me%' AND pid <> pg_backend_pid()", [up.database]))[0].n);
    for (let i = 0; i < 40 && (await sleeping()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await sleeping()).toBe(0);
    expect((await one({ format: 'table', rawSql: 'SELECT 2 AS two' }, ds)).frames[0].fields[0].values).toEqual([2]);
  });

  describe('health', () => {
    it('SELECT 1 answers: Database Connection OK', async () => {
      expect(await plugin.checkHealth(instance({ uid: 'pg-health' }), new AbortController().signal)).toEqual({ status: 'OK', message: POSTGRES_HEALTH_OK });
      expect(POSTGRES_HEALTH_OK).toBe('Database Connection OK');
    });

    it('a closed port: the anchor’s network message, without the address', async () => {
      const res = await plugin.checkHealth(instance({ uid: 'pg-closed', url: '127.0.0.1:1' }), new AbortController().signal);
      expect(res).toEqual({ status: 'ERROR', message: 'Network error: Failed to connect to the server. Error message: connection refused' });
    });

    it('an unknown database or role: the database’s message', async () => {
      expect(await plugin.checkHealth(instance({ uid: 'pg-nodb', database: 'svc_no_such_db' }), new AbortController().signal)).toEqual({ status: 'ERROR', message: 'database "svc_no_such_db" does not exist' });
      expect(await plugin.checkHealth(instance({ uid: 'pg-norole', user: 'svc_no_such_role' }), new AbortController().signal)).toEqual({ status: 'ERROR', message: 'role "svc_no_such_role" does not exist' });
    });

    it('sslmode require against a server without TLS: the anchor’s SSL message', async () => {
      const res = await plugin.checkHealth(instance({ uid: 'pg-ssl', jsonData: { sslmode: 'require' } }), new AbortController().signal);
      expect(res).toEqual({ status: 'ERROR', message: 'SSL error: Failed to connect to the server' });
    });
  });

  describe('pools', () => {
    it('a pool per data source named by application_name, at most maxOpenConns connections; dispose ends it', async () => {
      const ds = instance({ uid: 'pg-pool', jsonData: { sslmode: 'disable', maxOpenConns: 2 } });
      const seen: number[] = [];
      const queries = Array.from({ length: 5 }, (_, i) => query({ format: 'table', rawSql: 'SELECT pg_sleep(0.3)' }, { refId: `Q${i}` }));
      const running = plugin.query(ds, queries, ctx());
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 100));
        seen.push(await connections(ds));
      }
      const res = await running;
      expect(Object.values(res).every((r) => !r.error)).toBe(true);
      expect(Math.max(...seen)).toBe(2);
      await plugin.dispose?.('default', 'pg-pool');
      expect(await connectionsOnceEnded(ds)).toBe(0);
    });

    it('a changed data source (new resourceVersion) gets a new pool and the old one ends; close ends all', async () => {
      const v1 = instance({ uid: 'pg-change' });
      await one({ format: 'table', rawSql: 'SELECT 1' }, v1);
      const pids = async () => (await up.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = $2', [applicationName(v1), up.database])).map((r) => r.pid);
      const before = await pids();
      expect(before).toHaveLength(1);
      await one({ format: 'table', rawSql: 'SELECT 1' }, { ...v1, resourceVersion: '2' });
      let after = await pids();
      for (let i = 0; i < 20 && after.length > 1; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = await pids();
      }
      expect(after).toHaveLength(1);
      expect(after).not.toEqual(before);
      await plugin.close?.();
      expect(await connectionsOnceEnded(v1)).toBe(0);
    });
  });

  describe('a server that asks for a password', () => {
    let cluster: Awaited<ReturnType<typeof passwordCluster>>;
    beforeAll(async () => {
      cluster = await passwordCluster();
    }, 120_000);
    afterAll(async () => {
      await cluster?.destroy();
    });

    it('the right password: OK; a wrong one: the database’s message, never the password', async () => {
      if (!cluster) return; // initdb not installed: nothing to start (the local server trusts 127.0.0.1)
      const ds = (password: string, uid: string) => instance({ uid, url: `127.0.0.1:${cluster!.port}`, database: 'postgres', user: cluster!.user, secure: { password } });
      expect(await plugin.checkHealth(ds(cluster.password, 'pw-ok'), new AbortController().signal)).toEqual({ status: 'OK', message: POSTGRES_HEALTH_OK });
      const bad = await plugin.checkHealth(ds('wrong-password', 'pw-bad'), new AbortController().signal);
      expect(bad).toEqual({ status: 'ERROR', message: 'password authentication failed for user "svc_pw"' });
      const q = await one({ format: 'table', rawSql: 'SELECT 1' }, ds('wrong-password', 'pw-bad'));
      expect(q).toMatchObject({ error: 'db query error: password authentication failed for user "svc_pw"', errorSource: 'downstream' });
      expect(JSON.stringify([bad, q])).not.toContain('wrong-password');
      await plugin.close?.();
    }, 60_000);
  });
});
