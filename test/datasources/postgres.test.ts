/**
 * PostgreSQL data sources through HTTP (issue 13, spec §4.5), on both backends: a data source created with
 * POST /api/datasources (its password in secureJsonData) points at a real database on the local server with a
 * metrics table this test writes; POST /api/ds/query runs macros and both formats, a database error is the query's
 * downstream error, a login that may write still changes nothing; health answers OK or the anchor's failure; the
 * data source's connections (named by application_name) end when it is updated or deleted.
 */
import { startTestApp, type TestApp } from '../support/app';
import { createUpstreamDatabase, localPostgresAnswers, passwordCluster, type UpstreamDatabase } from '../support/postgres-upstream';

const from = Date.UTC(2024, 0, 1, 0, 0, 0);
const minute = 60_000;
const to = from + 10 * minute;

const answers = localPostgresAnswers();
const suite = answers ? describe : describe.skip;

suite(`PostgreSQL data sources through HTTP${answers ? '' : ' (skipped: no PostgreSQL answers at SVC_TEST_DATABASE_URL)'}`, () => {
  let t: TestApp;
  let up: UpstreamDatabase;

  beforeAll(async () => {
    up = await createUpstreamDatabase();
    await up.query(`INSERT INTO metrics (time, host, metric, value, n)
      SELECT $1::timestamptz + make_interval(mins => i), h, 'cpu.' || h, CASE h WHEN 'a' THEN i ELSE 10 * i END, i
      FROM generate_series(0, 9) i, unnest(ARRAY['a', 'b']) h WHERE NOT (h = 'b' AND i = 5)`, [new Date(from).toISOString()]);
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await up?.drop();
  });

  /** Creates a data source; `login` picks the database role. */
  async function create(uid: string, over: Record<string, unknown> = {}, login: 'reader' | 'writer' = 'reader'): Promise<Record<string, unknown>> {
    const res = await t.as.post('/api/datasources').send({
      uid,
      name: `PG ${uid}`,
      type: 'svc-postgresql-datasource',
      access: 'proxy',
      url: up.url,
      user: up[login].user,
      database: up.database,
      jsonData: { sslmode: 'disable' },
      secureJsonData: { password: up[login].password },
      ...over,
    });
    expect(res.status).toBe(200);
    return res.body.datasource;
  }

  const query = (uid: string, q: Record<string, unknown>, refId = 'A') =>
    t.as.post('/api/ds/query').send({ from: String(from), to: String(to), queries: [{ refId, datasource: { uid }, ...q }] });

  /** Backend pids of the data source's pool on the upstream database. */
  const pids = async (uid: string) =>
    (await up.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = $2', [`svc-ds default/${uid}`, up.database])).map((r) => Number(r.pid));
  const waitFor = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  };
  const snapshot = async () => (await up.query('SELECT count(*)::int AS n, coalesce(sum(value), 0) AS s FROM metrics'))[0];

  it('the record shows the password as a stored secure field only', async () => {
    const ds = await create('pg-record');
    expect(ds.secureJsonFields).toEqual({ password: true });
    expect(JSON.stringify((await t.as.get('/api/datasources/uid/pg-record')).body)).not.toContain(up.reader.password);
  });

  it('time_series with $__timeGroupAlias and $__timeFilter: one value field per host, frames in the data-frame JSON', async () => {
    await create('pg-ts');
    const res = await query('pg-ts', { rawSql: "SELECT $__timeGroupAlias(time, '1m'), host, avg(value) AS value FROM metrics WHERE $__timeFilter(time) GROUP BY 1, 2 ORDER BY 1", format: 'time_series' });
    expect(res.status).toBe(200);
    const [frame] = res.body.results.A.frames;
    expect(res.body.results.A.status).toBe(200);
    expect(frame.schema.refId).toBe('A');
    expect(frame.schema.meta.executedQueryString).toBe(
      "SELECT floor(extract(epoch from time)/60)*60 AS \"time\", host, avg(value) AS value FROM metrics WHERE time BETWEEN '2024-01-01T00:00:00Z' AND '2024-01-01T00:10:00Z' GROUP BY 1, 2 ORDER BY 1",
    );
    expect(frame.schema.fields).toEqual([
      { name: 'Time', type: 'time', typeInfo: { frame: 'time.Time' } },
      { name: 'value', type: 'number', typeInfo: { frame: 'float64', nullable: true }, labels: { host: 'a' } },
      { name: 'value', type: 'number', typeInfo: { frame: 'float64', nullable: true }, labels: { host: 'b' } },
    ]);
    expect(frame.data.values[0]).toEqual(Array.from({ length: 10 }, (_, i) => from + i * minute));
    expect(frame.data.values[2]).toEqual([0, 10, 20, 30, 40, null, 60, 70, 80, 90]);
  });

  it('fill previous over the whole range; table format through the `postgres` alias', async () => {
    await create('pg-alias', { type: 'postgres' });
    const filled = await query('pg-alias', { rawSql: "SELECT $__timeGroupAlias(time, '1m', previous), sum(value) AS value FROM metrics WHERE host = 'b' AND $__timeFilter(time) GROUP BY 1 ORDER BY 1" });
    expect(filled.status).toBe(200);
    expect(filled.body.results.A.frames[0].data.values[1]).toEqual([0, 10, 20, 30, 40, 40, 60, 70, 80, 90, 90]);
    const table = await query('pg-alias', { rawSql: 'SELECT host, count(*) AS n FROM metrics GROUP BY host ORDER BY host', format: 'table' });
    expect(table.status).toBe(200);
    const [frame] = table.body.results.A.frames;
    expect(frame.schema.fields.map((f: { name: string; typeInfo: unknown }) => [f.name, f.typeInfo])).toEqual([
      ['host', { frame: 'string', nullable: true }],
      ['n', { frame: 'int64', nullable: true }],
    ]);
    expect(frame.data.values).toEqual([['a', 'b'], [10, 9]]);
  });

  it('a database error is that query’s downstream error; the other query still answers; never a 5xx', async () => {
    await create('pg-errors');
    const res = await t.as.post('/api/ds/query').send({
      from: String(from),
      to: String(to),
      queries: [
        { refId: 'BAD', datasource: { uid: 'pg-errors' }, rawSql: 'SELECT nope FROM metrics', format: 'table' },
        { refId: 'GOOD', datasource: { uid: 'pg-errors' }, rawSql: 'SELECT 1 AS one', format: 'table' },
      ],
    });
    // Any failed entry makes the answer 400, every entry kept (the route's documented choice, the anchor's code).
    expect(res.status).toBe(400);
    expect(res.body.results.BAD).toMatchObject({ error: 'db query error: column "nope" does not exist', errorSource: 'downstream' });
    expect(res.body.results.GOOD.frames[0].data.values).toEqual([[1]]);
  });

  it('a login that may write changes nothing: every write is a per-query error', async () => {
    await create('pg-writer', {}, 'writer');
    const before = await snapshot();
    for (const rawSql of ["INSERT INTO metrics (time, host, value) VALUES (now(), 'x', 1)", 'UPDATE metrics SET value = -1', 'DROP TABLE metrics', 'WITH d AS (DELETE FROM metrics RETURNING 1) SELECT count(*) FROM d']) {
      const res = await query('pg-writer', { rawSql, format: 'table' });
      expect(res.status).toBe(400);
      expect(res.body.results.A.error).toMatch(/^db query error: cannot execute \w+( TABLE)? in a read-only transaction$/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a data source pointing at a closed port: the query’s error and a health failure, never a 5xx', async () => {
    await create('pg-closed', { url: '127.0.0.1:1' });
    const res = await query('pg-closed', { rawSql: 'SELECT 1', format: 'table' });
    expect(res.status).toBe(400);
    expect(res.body.results.A).toMatchObject({ error: 'db query error: failed to connect to server - connection refused', errorSource: 'downstream' });
    const health = await t.as.get('/api/datasources/uid/pg-closed/health');
    expect(health.status).toBe(400);
    expect(health.body).toEqual({ status: 'ERROR', message: 'Network error: Failed to connect to the server. Error message: connection refused' });
  });

  it('health: Database Connection OK', async () => {
    await create('pg-health');
    const res = await t.as.get('/api/datasources/uid/pg-health/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK', message: 'Database Connection OK' });
  });

  it('health with a wrong password: 400 and the database’s message, which holds no password', async () => {
    const cluster = await passwordCluster();
    if (!cluster) return; // initdb not installed: the local server trusts 127.0.0.1, so no password can be wrong there
    try {
      const common = { url: `127.0.0.1:${cluster.port}`, database: 'postgres', user: cluster.user };
      await create('pg-pw-ok', { ...common, secureJsonData: { password: cluster.password } });
      await create('pg-pw-bad', { ...common, secureJsonData: { password: 'wrong-secret-1234' } });
      expect((await t.as.get('/api/datasources/uid/pg-pw-ok/health')).body).toEqual({ status: 'OK', message: 'Database Connection OK' });
      const bad = await t.as.get('/api/datasources/uid/pg-pw-bad/health');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ status: 'ERROR', message: 'password authentication failed for user "svc_pw"' });
      const q = await query('pg-pw-bad', { rawSql: 'SELECT 1', format: 'table' });
      expect(q.status).toBe(400);
      expect(q.body.results.A.error).toBe('db query error: password authentication failed for user "svc_pw"');
      expect(bad.text + q.text).not.toContain('wrong-secret-1234');
      await t.as.delete('/api/datasources/uid/pg-pw-ok');
      await t.as.delete('/api/datasources/uid/pg-pw-bad');
    } finally {
      await cluster.destroy();
    }
  }, 120_000);

  it('the pool ends when the data source is updated (next query) and when it is deleted', async () => {
    const ds = await create('pg-pool');
    expect((await query('pg-pool', { rawSql: 'SELECT 1', format: 'table' })).status).toBe(200);
    const first = await pids('pg-pool');
    expect(first).toHaveLength(1);

    const put = await t.as.put('/api/datasources/uid/pg-pool').send({ ...ds, jsonData: { sslmode: 'disable', maxOpenConns: 2 }, secureJsonData: { password: up.reader.password } });
    expect(put.status).toBe(200);
    expect((await query('pg-pool', { rawSql: 'SELECT 1', format: 'table' })).status).toBe(200);
    await waitFor(async () => !(await pids('pg-pool')).includes(first[0]));
    const second = await pids('pg-pool');
    expect(second).toHaveLength(1);
    expect(second).not.toContain(first[0]);

    expect((await t.as.delete('/api/datasources/uid/pg-pool')).status).toBe(200);
    await waitFor(async () => (await pids('pg-pool')).length === 0);
    expect(await pids('pg-pool')).toEqual([]);
  });

  it('the pools of an organization\'s data sources end when the organization is deleted; another organization\'s stay', async () => {
    const org = (await t.as.post('/api/orgs').send({ name: 'PG doomed' })).body.orgId as number;
    const hdr = ['X-Svc-Org-Id', String(org)] as const;
    const made = await t.as.post('/api/datasources').set(...hdr).send({
      uid: 'pg-org', name: 'PG org', type: 'svc-postgresql-datasource', access: 'proxy', url: up.url, user: up.reader.user, database: up.database,
      jsonData: { sslmode: 'disable' }, secureJsonData: { password: up.reader.password },
    });
    expect(made.status).toBe(200);
    await create('pg-org');
    const run = (h: readonly [string, string]) => t.as.post('/api/ds/query').set(...h).send({ from: String(from), to: String(to), queries: [{ refId: 'A', datasource: { uid: 'pg-org' }, rawSql: 'SELECT 1', format: 'table' }] });
    expect((await run(hdr)).status).toBe(200);
    expect((await run(['X-Svc-Org-Id', '1'])).status).toBe(200);
    const inOrg = async () => (await up.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = $2', [`svc-ds org-${org}/pg-org`, up.database])).length;
    expect(await inOrg()).toBe(1);

    expect((await t.as.delete(`/api/orgs/${org}`)).status).toBe(200);
    await waitFor(async () => (await inOrg()) === 0);
    expect(await inOrg()).toBe(0);
    expect(await pids('pg-org')).toHaveLength(1);
    await t.as.delete('/api/datasources/uid/pg-org').expect(200);
  });
});
