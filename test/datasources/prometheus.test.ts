/**
 * A Prometheus data source through HTTP, against the real Prometheus (test/support/prometheus.ts) on the test
 * backend: created by POST /api/datasources and reached through the data source proxy by the plugin's route table.
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

});
