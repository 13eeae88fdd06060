/**
 * POST /api/ds/query over HTTP (spec §4.5, §8; anchor-breadth §3) with the testdata plugin: defaults, the data-frame
 * JSON, the scenarios, partial failures (400 with every entry), timeouts, the request errors, another
 * organization's data source (404) and a Viewer without the query permission (403). Enterprise edition: its data
 * source permissions are how a Viewer's default Query is revoked.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

let t: TestApp;
let tdId: number;
const FROM = 1_700_000_000_000;
const TO = FROM + 60_000;

async function dataSource(client: ReturnType<typeof as> | TestApp['as'], uid: string, type = 'svc-testdata-datasource'): Promise<number> {
  const res = await client.post('/api/datasources').send({ uid, name: uid, type, access: 'proxy' });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

beforeAll(async () => {
  t = await startTestApp(['--server.edition=enterprise', '--dataproxy.timeout=1']);
  tdId = await dataSource(t.as, 'td');
  await dataSource(t.as, 'td-alias', 'testdata');
  await createUser(t, 'dsq-viewer', { 1: 'Viewer' });
  const other = await t.users.createOrg(SYSTEM, 'Query elsewhere');
  await createUser(t, 'dsq-other', { [other.id]: 'Admin' });
  await dataSource(as(t, 'dsq-other'), 'td-other');
});
afterAll(() => t.close());

const query = (body: unknown, client = t.as) => client.post('/api/ds/query').send(body as object);
const td = (q: Record<string, unknown> = {}) => ({ datasource: { uid: 'td', type: 'svc-testdata-datasource' }, ...q });

it('answers a random walk in the data-frame JSON, with the defaults (refId A, intervalMs 1000)', async () => {
  const res = await query({ from: String(FROM), to: String(TO), queries: [td({ scenarioId: 'random_walk' })] });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body.results)).toEqual(['A']);
  const { status, frames } = res.body.results.A;
  expect(status).toBe(200);
  expect(frames).toHaveLength(1);
  expect(frames[0].schema).toEqual({
    refId: 'A',
    meta: { type: 'timeseries-multi', typeVersion: [0, 0], custom: { customStat: 10 } },
    fields: [
      { name: 'time', type: 'time', typeInfo: { frame: 'time.Time' }, config: { interval: 1000 } },
      { name: 'A-series', type: 'number', typeInfo: { frame: 'float64', nullable: true } },
    ],
  });
  const [times, values] = frames[0].data.values;
  expect(times).toHaveLength(60);
  expect(times[0]).toBe(FROM);
  expect(times[1] - times[0]).toBe(1000);
  expect(values.every((v: unknown) => typeof v === 'number')).toBe(true);
});

it('gives the same data for the same range (integers or strings), other data for another range', async () => {
  const body = (from: unknown, to: unknown) => ({ from, to, queries: [td({ refId: 'X', seriesCount: 3, intervalMs: 10_000, labels: 'host=h$seriesIndex' })] });
  const a = await query(body(FROM, TO));
  const b = await query(body(String(FROM), String(TO)));
  expect(a.status).toBe(200);
  expect(a.body).toEqual(b.body);
  const frames = a.body.results.X.frames;
  expect(frames.map((f: { schema: { fields: { name: string; labels?: object }[] } }) => [f.schema.fields[1].name, f.schema.fields[1].labels])).toEqual([
    ['X-series', { host: 'h0' }],
    ['X-series1', { host: 'h1' }],
    ['X-series2', { host: 'h2' }],
  ]);
  expect(frames[0].data.values[1]).not.toEqual(frames[1].data.values[1]);
  const c = await query(body(FROM + 1000, TO + 1000));
  expect(c.body.results.X.frames[0].data.values[1]).not.toEqual(frames[0].data.values[1]);
});

it('reads relative ranges: now-5m, bare durations, rounding', async () => {
  const res = await query({ from: '5m', to: 'now', queries: [td({ intervalMs: 60_000 })] });
  expect(res.status).toBe(200);
  expect(res.body.results.A.frames[0].data.values[0]).toHaveLength(5);
  const day = await query({ from: 'now-1d/d', to: 'now-1d/d', queries: [td({ intervalMs: 3_600_000 })] });
  const times = day.body.results.A.frames[0].data.values[0] as number[];
  expect(times).toHaveLength(24);
  expect(times[0] % 86_400_000).toBe(0);
});

it('answers csv_content with inferred types, a time column, NaN/Inf as entities, labels from the header', async () => {
  const csvContent = 'time,value{host="a"},ok,name\n2024-01-01T00:00:00Z,1.5,true,x\n1704067201000,NaN,F,\n,+Inf,,z';
  const res = await query({ from: FROM, to: TO, queries: [td({ scenarioId: 'csv_content', csvContent, alias: 'csv' })] });
  expect(res.status).toBe(200);
  const [frame] = res.body.results.A.frames;
  expect(frame.schema).toEqual({
    name: 'csv',
    refId: 'A',
    fields: [
      { name: 'time', type: 'time', typeInfo: { frame: 'time.Time', nullable: true } },
      { name: 'value', type: 'number', typeInfo: { frame: 'float64', nullable: true }, labels: { host: 'a' } },
      { name: 'ok', type: 'boolean', typeInfo: { frame: 'bool', nullable: true } },
      { name: 'name', type: 'string', typeInfo: { frame: 'string', nullable: true } },
    ],
  });
  expect(frame.data.values).toEqual([
    [1704067200000, 1704067201000, null],
    [1.5, null, null],
    [true, false, null],
    ['x', null, 'z'],
  ]);
  expect(frame.data.entities).toEqual([null, { NaN: [1], Inf: [2] }, null, null]);
});

it('answers csv_metric_values spread over the range, and the other scenarios', async () => {
  const res = await query({
    from: FROM,
    to: TO,
    queries: [
      td({ refId: 'csv', scenarioId: 'csv_metric_values', stringInput: '1, 20, 90' }),
      td({ refId: 'none', scenarioId: 'no_data_points' }),
      td({ refId: 'table', scenarioId: 'random_walk_table', maxDataPoints: 10 }),
      td({ refId: 'pulse', scenarioId: 'predictable_pulse', pulseWave: { timeStep: 10, onCount: 1, offCount: 2, onValue: 5, offValue: 0 } }),
      td({ refId: 'wave', scenarioId: 'predictable_csv_wave', csvWave: [{ timeStep: 20, valuesCSV: '1,2,null', labels: 'w=1', name: 'wave' }] }),
      td({ refId: 'hidden', hide: true }),
    ],
  });
  expect(res.status).toBe(200);
  const r = res.body.results;
  expect(Object.keys(r)).toEqual(['csv', 'none', 'pulse', 'table', 'wave']);
  expect(r.csv.frames[0].data.values).toEqual([[FROM, FROM + 30_000, TO], [1, 20, 90]]);
  expect(r.csv.frames[0].schema.fields[1]).toEqual({ name: 'csv-series', type: 'number', typeInfo: { frame: 'int64', nullable: true } });
  expect(r.none).toEqual({ status: 200, frames: [] });
  expect(r.table.frames[0].schema.fields.map((f: { name: string }) => f.name)).toEqual(['Time', 'Value', 'Min', 'Max', 'Info']);
  expect(r.table.frames[0].data.values[0]).toHaveLength(10);
  // FROM is a multiple of 10 s: position (FROM / 10 s) % 3 decides where the pulse starts.
  const pulse = r.pulse.frames[0].data.values;
  expect(pulse[0]).toEqual([0, 1, 2, 3, 4, 5].map((i) => FROM + i * 10_000));
  expect(pulse[1]).toEqual(pulse[0].map((tm: number) => ((tm / 10_000) % 3 === 0 ? 5 : 0)));
  expect(r.wave.frames[0].schema.fields[1]).toMatchObject({ name: 'wave', labels: { w: '1' } });
  expect(r.wave.frames[0].data.values[1]).toHaveLength(3);
});

it('answers a partial failure 400 with every entry: the failed ones as {error, errorSource, status}', async () => {
  const res = await query({
    from: FROM,
    to: TO,
    queries: [td({ refId: 'ok' }), td({ refId: 'bad', scenarioId: 'no_such_scenario' }), td({ refId: 'err', scenarioId: 'random_walk_with_error' })],
  });
  expect(res.status).toBe(400);
  const r = res.body.results;
  expect(r.ok.status).toBe(200);
  expect(r.ok.frames).toHaveLength(1);
  expect(r.bad).toEqual({ error: expect.stringContaining('unknown scenario "no_such_scenario"'), errorSource: 'plugin', status: 400 });
  expect(r.err).toMatchObject({ error: 'this is an error and it can include URLs http://svc.example/', errorSource: 'plugin', status: 500 });
  expect(r.err.frames).toHaveLength(1);
});

it('answers a query slower than dataproxy.timeout 504 in its entry, the others still answering', async () => {
  const started = Date.now();
  const res = await query({ from: FROM, to: TO, queries: [td({ refId: 'slow', scenarioId: 'slow_query', stringInput: '30s' }), td({ refId: 'fast' })] });
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(res.status).toBe(400);
  expect(res.body.results.slow).toEqual({ error: 'query timed out after 1s (dataproxy.timeout)', errorSource: 'downstream', status: 504 });
  expect(res.body.results.fast.status).toBe(200);
});

it('finds data sources by uid, alias type, deprecated datasourceId and the legacy name string, across data sources', async () => {
  const res = await query({
    from: FROM,
    to: TO,
    queries: [
      td({ refId: 'uid' }),
      { refId: 'alias', datasource: { uid: 'td-alias' } },
      { refId: 'id', datasourceId: tdId },
      { refId: 'name', datasource: 'td' },
    ],
  });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body.results)).toEqual(['alias', 'id', 'name', 'uid']);
  // Same range, same series index: the same walk whichever data source answered.
  expect(res.body.results.id.frames[0].data).toEqual(res.body.results.uid.frames[0].data);
});

it('lets a Viewer query through the default Query permission, and refuses it (403) once revoked', async () => {
  await dataSource(t.as, 'td-private');
  const body = { from: FROM, to: TO, queries: [{ datasource: { uid: 'td-private' } }] };
  expect((await query(body, as(t, 'dsq-viewer'))).status).toBe(200);
  const id = (await t.as.get('/api/datasources/uid/td-private')).body.id;
  expect((await t.as.post(`/api/datasources/${id}/enable-permissions`)).status).toBe(200);
  const res = await query(body, as(t, 'dsq-viewer'));
  expect([res.status, res.body]).toEqual([403, { message: 'Access denied to data source' }]);
  // One forbidden data source refuses the whole request, with nothing of the others.
  const mixed = await query({ ...body, queries: [td({ refId: 'B' }), ...body.queries] }, as(t, 'dsq-viewer'));
  expect([mixed.status, mixed.body.results]).toEqual([403, undefined]);
  expect((await query(body)).status).toBe(200);
});

it('never finds another organization\'s data source (404), by uid or by id', async () => {
  const otherId = (await as(t, 'dsq-other').get('/api/datasources/uid/td-other')).body.id;
  for (const q of [{ datasource: { uid: 'td-other' } }, { datasourceId: otherId }, { datasource: 'td-other' }]) {
    const res = await query({ from: FROM, to: TO, queries: [q] });
    expect([res.status, res.body]).toEqual([404, { message: 'Data source not found' }]);
  }
  // Its own admin queries it.
  expect((await query({ from: FROM, to: TO, queries: [{ datasource: { uid: 'td-other' } }] }, as(t, 'dsq-other'))).status).toBe(200);
});

describe('bad input: each answered 4xx with its message (nothing is written by a query anyway)', () => {
  const ok = td();
  const errutil = (messageId: string, message: string) => ({ statusCode: 400, messageId, message });
  it.each([
    ['a body that is no object', [ok], 400, { message: 'bad request data' }],
    ['queries not an array', { queries: { a: 1 } }, 400, { message: 'bad request data' }],
    ['no queries', { queries: [] }, 400, errutil('query.noQueries', 'No queries found')],
    ['queries absent', { from: 'now-1h' }, 400, errutil('query.noQueries', 'No queries found')],
    ['a query that is no object', { queries: ['A'] }, 400, { message: 'bad request data' }],
    ['a query without a data source', { queries: [{ refId: 'A' }] }, 400, errutil('query.invalidDatasourceId', 'Query does not contain a valid data source identifier')],
    ['a data source object without uid', { queries: [{ datasource: { type: 'x' } }] }, 400, errutil('query.invalidDatasourceId', 'Query does not contain a valid data source identifier')],
    ['duplicate refIds', { queries: [ok, td({ refId: 'A' })] }, 400, errutil('query.duplicateRefId', 'Multiple queries using the same RefId is not allowed ')],
    ['a refId that is no string', { queries: [td({ refId: 7 })] }, 400, { message: 'bad request data' }],
    ['maxDataPoints of a wrong type', { queries: [td({ maxDataPoints: 'many' })] }, 400, { message: 'bad request data' }],
    ['a negative intervalMs', { queries: [td({ intervalMs: -5 })] }, 400, { message: 'bad request data' }],
    ['from an object', { from: {}, queries: [ok] }, 400, { message: 'bad request data' }],
    ['from garbage', { from: 'yesterday', to: 'now', queries: [ok] }, 400, { message: expect.stringMatching(/^Invalid time range: from "yesterday"/) }],
    ['to garbage', { from: 'now-1h', to: 'now-', queries: [ok] }, 400, { message: expect.stringMatching(/^Invalid time range: to "now-"/) }],
    ['a negative epoch', { from: -1, to: 'now', queries: [ok] }, 400, { message: expect.stringMatching(/^Invalid time range: from -1/) }],
    ['from after to', { from: 'now', to: 'now-1h', queries: [ok] }, 400, { message: 'Invalid time range: from is after to' }],
    ['expressions', { queries: [{ datasource: { uid: '__expr__' }, type: 'math' }] }, 400, errutil('query.expressionsNotSupported', 'Server-side expressions (data source __expr__) are not supported')],
    ['a malformed uid', { queries: [{ datasource: { uid: '../x' } }] }, 400, { message: 'UID is invalid' }],
    ['an unknown uid', { queries: [{ datasource: { uid: 'nope' } }] }, 404, { message: 'Data source not found' }],
    ['an unknown id', { queries: [{ datasourceId: 987654 }] }, 404, { message: 'Data source not found' }],
    ['too many points', { from: FROM, to: FROM + 3_600_000 * 24, queries: [td({ seriesCount: 5000, intervalMs: 1000 })] }, 400, { results: { A: { error: expect.stringMatching(/^too many points/), errorSource: 'plugin', status: 400 } } }],
  ])('%s', async (_name, body, status, answer) => {
    const res = await query(body);
    expect([res.status, res.body]).toEqual([status, answer]);
  });

  it('refuses JSON that does not parse (400) and callers without credentials (401)', async () => {
    const res = await t.as.post('/api/ds/query').set('Content-Type', 'application/json').send('{"queries": [');
    expect(res.status).toBe(400);
    expect((await t.anonymous.post('/api/ds/query').send({ queries: [ok] })).status).toBe(401);
  });
});
