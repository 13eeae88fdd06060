/**
 * A Prometheus data source through HTTP, against the real Prometheus (test/support/prometheus.ts) on the test
 * backend: created by POST /api/datasources, queried by POST /api/ds/query (frames in the data-frame JSON), its
 * health and its query-editor resources, proxied by the plugin's route table; a failing query beside a good one; a
 * viewer's and another organization's view; and its secrets going upstream but never back to the caller.
 */
import { startTestApp, type TestApp } from '../support/app';
import { closedPort, describeWithPrometheus, EXPORTED, startPrometheus, startRecorder, type TestPrometheus } from '../support/prometheus';
import { as, createUser } from '../support/users';

jest.setTimeout(120_000);

const SECRET = 'prom-basic-secret';
const HEADER_SECRET = 'prom-header-secret';

describeWithPrometheus('a Prometheus data source through HTTP', () => {
  let t: TestApp;
  let prom: TestPrometheus;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;

  beforeAll(async () => {
    prom = await startPrometheus();
    recorder = await startRecorder(prom.url);
    t = await startTestApp();
    const created = await t.as.post('/api/datasources').send({ name: 'Prometheus', uid: 'prom', type: 'prometheus', access: 'proxy', url: prom.url, jsonData: { timeInterval: '1s' } });
    expect(created.status).toBe(200);
    const secured = await t.as.post('/api/datasources').send({
      name: 'Prometheus behind auth',
      uid: 'prom-auth',
      type: 'prometheus',
      access: 'proxy',
      url: recorder.url,
      basicAuth: true,
      basicAuthUser: 'reader',
      jsonData: { httpMethod: 'GET', httpHeaderName1: 'X-Scope-OrgID' },
      secureJsonData: { basicAuthPassword: SECRET, httpHeaderValue1: HEADER_SECRET },
    });
    expect(secured.status).toBe(200);
    const port = await closedPort();
    expect((await t.as.post('/api/datasources').send({ name: 'Prometheus gone', uid: 'prom-gone', type: 'prometheus', access: 'proxy', url: `http://127.0.0.1:${port}` })).status).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await recorder?.close();
    await prom?.stop();
  });

  const dsQuery = (uid: string, model: Record<string, unknown>) => ({ datasource: { uid, type: 'prometheus' }, ...model });

  it("the proxy reaches the real Prometheus by the plugin's routes: GET anywhere, POST to the query APIs, no admin write", async () => {
    const get = await t.as.get(`/api/datasources/proxy/uid/prom/api/v1/query?query=${encodeURIComponent(`sum(${EXPORTED.gauge})`)}`);
    expect(get.status).toBe(200);
    expect(get.body.data.result[0].value[1]).toBe('40.5');
    const post = await t.as.post('/api/datasources/proxy/uid/prom/api/v1/query').type('form').send({ query: `count(${EXPORTED.gauge})` });
    expect(post.status).toBe(200);
    expect(post.body.data.result[0].value[1]).toBe('2');
    const admin = await t.as.post('/api/datasources/proxy/uid/prom/api/v1/admin/tsdb/delete_series').type('form').send({ 'match[]': EXPORTED.gauge });
    expect([admin.status, admin.body]).toEqual([403, { message: 'non allow-listed POSTs not allowed on proxied prometheus datasource' }]);
    await createUser(t, 'prom-proxy-editor', { 1: 'Editor' });
    const flags = await as(t, 'prom-proxy-editor').get('/api/datasources/proxy/uid/prom/api/v1/status/flags');
    expect([flags.status, flags.body]).toEqual([403, { message: 'plugin proxy route access denied' }]);
    expect((await t.as.get('/api/datasources/proxy/uid/prom/api/v1/status/flags')).status).toBe(200);
    // Still there: the refused delete never arrived.
    const after = await t.as.get(`/api/datasources/proxy/uid/prom/api/v1/query?query=${encodeURIComponent(`count(${EXPORTED.gauge})`)}`);
    expect(after.body.data.result[0].value[1]).toBe('2');
  });

  it('POST /api/ds/query: range and instant queries answer frames with labels, legends and the executed query', async () => {
    const res = await t.as.post('/api/ds/query').send({
      from: 'now-1m',
      to: 'now',
      queries: [dsQuery('prom', { refId: 'A', expr: EXPORTED.gauge, range: true, legendFormat: '{{room}}' }), dsQuery('prom', { refId: 'B', expr: `sum(${EXPORTED.gauge})`, instant: true })],
    });
    expect(res.status).toBe(200);
    const { A, B } = res.body.results;
    expect(A.status).toBe(200);
    expect(A.frames).toHaveLength(2);
    const kitchen = A.frames.find((f: { schema: { fields: Array<{ labels?: Record<string, string> }> } }) => f.schema.fields[1]!.labels?.room === 'kitchen');
    expect(kitchen.schema).toEqual({
      refId: 'A',
      meta: { type: 'timeseries-multi', custom: { resultType: 'matrix' }, executedQueryString: `Expr: ${EXPORTED.gauge}\nStep: 1s` },
      fields: [
        { name: 'Time', type: 'time', typeInfo: { frame: 'time.Time' }, config: { interval: 1000 } },
        { name: EXPORTED.gauge, type: 'number', typeInfo: { frame: 'float64' }, labels: { __name__: EXPORTED.gauge, job: EXPORTED.job, room: 'kitchen', instance: expect.any(String) }, config: { displayNameFromDS: 'kitchen' } },
      ],
    });
    const [times, values] = kitchen.data.values as [number[], number[]];
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(times.every((v) => Number.isInteger(v) && v % 1000 === 0)).toBe(true);
    expect(new Set(values)).toEqual(new Set([21.5]));
    expect(B.frames).toHaveLength(1);
    expect(B.frames[0].schema.meta).toMatchObject({ type: 'numeric-multi', custom: { resultType: 'vector' } });
    expect(B.frames[0].data.values[1]).toEqual([40.5]);
  });

  it('NaN and infinite samples are null in the values and listed in entities', async () => {
    const res = await t.as.post('/api/ds/query').send({
      from: 'now-1m',
      to: 'now',
      queries: [dsQuery('prom', { refId: 'nan', expr: `${EXPORTED.gauge}{room="kitchen"} * 0 / 0`, instant: true }), dsQuery('prom', { refId: 'inf', expr: `${EXPORTED.gauge}{room="kitchen"} / 0`, instant: true })],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.nan.frames[0].data).toMatchObject({ values: [[expect.any(Number)], [null]], entities: [null, { NaN: [0] }] });
    expect(res.body.results.inf.frames[0].data).toMatchObject({ values: [[expect.any(Number)], [null]], entities: [null, { Inf: [0] }] });
  });

  it("bad PromQL is that refId's downstream error; the good query beside it still answers", async () => {
    const res = await t.as.post('/api/ds/query').send({
      from: 'now-1m',
      to: 'now',
      queries: [dsQuery('prom', { refId: 'bad', expr: 'sum(' }), dsQuery('prom', { refId: 'good', expr: EXPORTED.gauge, instant: true })],
    });
    // The route answers 400 when any query failed, with every result (the anchor's choice, documented there).
    expect(res.status).toBe(400);
    expect(res.body.results.bad).toMatchObject({ error: expect.stringMatching(/^bad_data: /), errorSource: 'downstream', status: 400 });
    expect(res.body.results.good).toMatchObject({ status: 200, frames: expect.any(Array) });
    expect(res.body.results.good.frames).toHaveLength(2);
  });

  it('a Prometheus that does not answer is a per-query error, never a 5xx of the route', async () => {
    const res = await t.as.post('/api/ds/query').send({ from: 'now-5m', to: 'now', queries: [dsQuery('prom-gone', { refId: 'A', expr: 'up' })] });
    expect(res.status).toBe(400);
    expect(res.body.results.A).toMatchObject({ error: expect.stringContaining('ECONNREFUSED'), errorSource: 'downstream', status: 502 });
  });

  it('GET /api/datasources/uid/:uid/health: OK by 1+1, 400 ERROR with the cause when nothing listens', async () => {
    const ok = await t.as.get('/api/datasources/uid/prom/health');
    expect([ok.status, ok.body]).toEqual([200, { status: 'OK', message: 'Successfully queried the Prometheus API.' }]);
    const gone = await t.as.get('/api/datasources/uid/prom-gone/health');
    expect(gone.status).toBe(400);
    expect(gone.body).toEqual({ status: 'ERROR', message: expect.stringMatching(/ECONNREFUSED.* - There was an error returned querying the Prometheus API\.$/) });
  });

  it("GET .../resources/api/v1/labels, label values, series, metadata: Prometheus' JSON; the rest of its API is 404", async () => {
    const labels = await t.as.get('/api/datasources/uid/prom/resources/api/v1/labels');
    expect([labels.status, labels.body]).toEqual([200, { status: 'success', data: expect.arrayContaining(['__name__', 'job', 'room']) }]);
    const values = await t.as.get('/api/datasources/uid/prom/resources/api/v1/label/room/values');
    expect(values.body).toEqual({ status: 'success', data: ['kitchen', 'office'] });
    const series = await t.as.get(`/api/datasources/uid/prom/resources/api/v1/series?match[]=${encodeURIComponent(EXPORTED.gauge)}`);
    expect(series.body.data).toHaveLength(2);
    const metadata = await t.as.get(`/api/datasources/uid/prom/resources/api/v1/metadata?metric=${EXPORTED.gauge}`);
    expect(metadata.body.data[EXPORTED.gauge]).toEqual([{ type: 'gauge', help: EXPORTED.help, unit: '' }]);
    expect((await t.as.post('/api/datasources/uid/prom/resources/api/v1/admin/tsdb/delete_series').send('match[]=up')).status).toBe(404);
    expect((await t.as.get('/api/datasources/uid/prom/resources/api/v1/status/flags')).status).toBe(404);
  });

  it("the data source's basic auth and custom header go upstream on queries, health and resources; no secret comes back", async () => {
    recorder.seen.splice(0);
    const query = await t.as.post('/api/ds/query').send({ from: 'now-1m', to: 'now', queries: [dsQuery('prom-auth', { refId: 'A', expr: EXPORTED.gauge, instant: true })] });
    expect(query.status).toBe(200);
    expect(query.body.results.A.frames).toHaveLength(2);
    const health = await t.as.get('/api/datasources/uid/prom-auth/health');
    expect(health.body.status).toBe('OK');
    const labels = await t.as.get('/api/datasources/uid/prom-auth/resources/api/v1/labels');
    expect(labels.status).toBe(200);
    expect(recorder.seen.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['GET /api/v1/query', 'GET /api/v1/query', 'GET /api/v1/labels']);
    for (const r of recorder.seen) {
      expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`reader:${SECRET}`).toString('base64')}`);
      expect(r.headers['x-scope-orgid']).toBe(HEADER_SECRET);
      expect(r.headers.cookie).toBeUndefined();
    }
    for (const body of [query.text, health.text, labels.text]) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain(HEADER_SECRET);
    }
  });

  it("a Viewer queries it (Query is every new data source's default); another organization's uid is 404", async () => {
    await createUser(t, 'prom-viewer', { 1: 'Viewer' });
    const viewer = as(t, 'prom-viewer');
    const res = await viewer.post('/api/ds/query').send({ from: 'now-1m', to: 'now', queries: [dsQuery('prom', { refId: 'A', expr: EXPORTED.gauge, instant: true })] });
    expect(res.status).toBe(200);
    expect(res.body.results.A.frames).toHaveLength(2);
    expect((await viewer.get('/api/datasources/uid/prom/health')).status).toBe(200);
    expect((await viewer.get('/api/datasources/uid/prom/resources/api/v1/labels')).status).toBe(200);
    const org = await t.as.post('/api/orgs').send({ name: 'Prom Elsewhere' });
    const elsewhere = String(org.body.orgId);
    const other = await t.as.post('/api/ds/query').set('X-Svc-Org-Id', elsewhere).send({ from: 'now-1m', to: 'now', queries: [dsQuery('prom', { refId: 'A', expr: 'up' })] });
    expect(other.status).toBe(404);
    expect((await t.as.get('/api/datasources/uid/prom/health').set('X-Svc-Org-Id', elsewhere)).status).toBe(404);
    expect((await t.as.get('/api/datasources/uid/prom/resources/api/v1/labels').set('X-Svc-Org-Id', elsewhere)).status).toBe(404);
  });
});
