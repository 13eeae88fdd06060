/**
 * The data source proxy in front of a real Prometheus (Debian's package, test/support/prometheus.ts): what a query
 * editor sends passes (GET anywhere, POST to the query APIs, form bodies streamed), what the anchor's route table
 * refuses never reaches it, and its answers come back as Prometheus wrote them.
 */
import { startTestApp, type TestApp } from '../support/app';
import { describeWithPrometheus, EXPORTED, startPrometheus, type TestPrometheus } from '../support/prometheus';
import { as, createUser } from '../support/users';

const PROXY = '/api/datasources/proxy/uid/real-prom';

describeWithPrometheus('the proxy in front of a real Prometheus', () => {
  let t: TestApp;
  let prom: TestPrometheus;

  beforeAll(async () => {
    prom = await startPrometheus();
    t = await startTestApp();
    await createUser(t, 'pp-viewer', { 1: 'Viewer' });
    const res = await t.as.post('/api/datasources').send({ name: 'Real Prometheus', uid: 'real-prom', type: 'prometheus', access: 'proxy', url: prom.url });
    expect(res.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await prom?.stop();
  });

  it('a Viewer queries through GET and through a form POST to api/v1/query, and reads the exporter\'s series', async () => {
    const get = await as(t, 'pp-viewer').get(`${PROXY}/api/v1/query?query=${encodeURIComponent(EXPORTED.gauge)}`);
    expect(get.status).toBe(200);
    expect(get.headers['content-security-policy']).toBe('sandbox');
    const rooms = (body: { data: { result: Array<{ metric: { room: string }; value: [number, string] }> } }) =>
      Object.fromEntries(body.data.result.map((r) => [r.metric.room, Number(r.value[1])]));
    expect(rooms(get.body)).toEqual(EXPORTED.rooms);
    const post = await as(t, 'pp-viewer').post(`${PROXY}/api/v1/query`).type('form').send({ query: `${EXPORTED.gauge}{room="office"}` });
    expect(post.status).toBe(200);
    expect(rooms(post.body)).toEqual({ office: EXPORTED.rooms.office });
    const labels = await as(t, 'pp-viewer').get(`${PROXY}/api/v1/label/room/values`);
    expect(labels.body).toEqual({ status: 'success', data: ['kitchen', 'office'] });
  });

  it("passes Prometheus' own errors through (400 bad_data)", async () => {
    const res = await t.as.get(`${PROXY}/api/v1/query?query=${encodeURIComponent('sum(')}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', errorType: 'bad_data' });
  });

  it('refuses what the route table does not allow, before Prometheus is asked', async () => {
    const del = await t.as.post(`${PROXY}/api/v1/admin/tsdb/delete_series?match[]=${EXPORTED.gauge}`);
    expect([del.status, del.body]).toEqual([403, { message: 'non allow-listed POSTs not allowed on proxied prometheus datasource' }]);
    const flags = await as(t, 'pp-viewer').get(`${PROXY}/api/v1/status/flags`);
    expect([flags.status, flags.body]).toEqual([403, { message: 'plugin proxy route access denied' }]);
    const adminFlags = await t.as.get(`${PROXY}/api/v1/status/flags`);
    expect(adminFlags.status).toBe(200);
    expect(adminFlags.body.data['web.listen-address']).toBe(new URL(prom.url).host);
    // The series are all still there.
    const after = await t.as.get(`${PROXY}/api/v1/query?query=${encodeURIComponent(`count(${EXPORTED.gauge})`)}`);
    expect(Number(after.body.data.result[0].value[1])).toBe(2);
  });
});
