/**
 * The Prometheus plugin object against the real Prometheus (test/support/prometheus.ts), without the HTTP routes:
 * range and instant queries and their frames, variables, per-query errors (bad PromQL, a non-Prometheus answer,
 * refused connections, timeouts), health, the query-editor resources, and what goes upstream (auth, headers,
 * method), seen by a recording pass-through in front of Prometheus.
 */
import { prometheusPlugin } from '../../pkg/plugins/prometheus/prometheus-plugin';
import type { DataQuery, DataSourceInstance, QueryContext, ResourceRequest } from '../../pkg/plugins/types';
import { closedPort, describeWithPrometheus, EXPORTED, startPrometheus, startRecorder, type TestPrometheus } from '../support/prometheus';

jest.setTimeout(120_000);

const ds = (url: string, change: Partial<DataSourceInstance> = {}): DataSourceInstance => ({
  namespace: 'default',
  uid: 'prom',
  id: 1,
  name: 'Prometheus',
  type: 'prometheus',
  url,
  user: '',
  database: '',
  basicAuth: false,
  basicAuthUser: '',
  withCredentials: false,
  jsonData: {},
  secure: {},
  resourceVersion: '1',
  ...change,
});

const query = (model: Record<string, unknown>, change: Partial<DataQuery> = {}): DataQuery => ({
  refId: (model.refId as string) ?? 'A',
  maxDataPoints: 100,
  intervalMs: 1000,
  queryType: '',
  model,
  ...change,
});

const ctx = (spanMs = 60_000, signal = new AbortController().signal): QueryContext => {
  const now = Date.now();
  return { range: { from: now - spanMs, to: now }, signal, rowLimit: 1_000_000, userAgent: 'Svc/test' };
};

const resource = (path: string, change: Partial<ResourceRequest> = {}): ResourceRequest => ({
  method: 'GET',
  path,
  query: '',
  headers: {},
  body: Buffer.alloc(0),
  signal: new AbortController().signal,
  ...change,
});

const json = (body: Buffer | string) => JSON.parse(body.toString());

describeWithPrometheus('the Prometheus plugin against a real Prometheus', () => {
  let prom: TestPrometheus;
  beforeAll(async () => {
    prom = await startPrometheus();
  }, 120_000);
  afterAll(() => prom?.stop());

  describe('queries', () => {
    it('a range query: a timeseries-multi frame per series, Time and the metric with its labels, the step as interval', async () => {
      const { A } = await prometheusPlugin.query(ds(prom.url), [query({ expr: EXPORTED.gauge, range: true })], ctx());
      expect(A!.error).toBeUndefined();
      expect(A!.frames).toHaveLength(2);
      const byRoom = Object.fromEntries(A!.frames.map((f) => [f.fields[1]!.labels!.room, f]));
      const kitchen = byRoom.kitchen!;
      expect(kitchen.refId).toBe('A');
      expect(kitchen.meta).toEqual({ type: 'timeseries-multi', custom: { resultType: 'matrix' }, executedQueryString: `Expr: ${EXPORTED.gauge}\nStep: 1s` });
      expect(kitchen.fields[0]).toMatchObject({ name: 'Time', type: 'time', config: { interval: 1000 } });
      expect(kitchen.fields[1]).toMatchObject({
        name: EXPORTED.gauge,
        type: 'number',
        frameType: 'float64',
        labels: { __name__: EXPORTED.gauge, job: EXPORTED.job, room: 'kitchen', instance: expect.any(String) },
        config: { displayNameFromDS: expect.stringMatching(/^svc_test_temperature_celsius\{instance=".*", job="svc-test", room="kitchen"\}$/) },
      });
      const times = kitchen.fields[0]!.values as number[];
      expect(times.length).toBeGreaterThanOrEqual(2);
      // Aligned to the step and one step apart.
      expect(times.every((t) => t % 1000 === 0)).toBe(true);
      expect(times[1]! - times[0]!).toBe(1000);
      expect(new Set(kitchen.fields[1]!.values)).toEqual(new Set([21.5]));
      expect(new Set(byRoom.office!.fields[1]!.values)).toEqual(new Set([19]));
    });

    it('an instant query with a legend: numeric-multi frames of one row named by the template', async () => {
      const { B } = await prometheusPlugin.query(ds(prom.url), [query({ refId: 'B', expr: `sum by (room) (${EXPORTED.gauge})`, instant: true, legendFormat: 'room {{room}}' })], ctx());
      expect(B!.error).toBeUndefined();
      const named = Object.fromEntries(B!.frames.map((f) => [(f.fields[1]!.config as { displayNameFromDS: string }).displayNameFromDS, f.fields[1]!.values]));
      expect(named).toEqual({ 'room kitchen': [21.5], 'room office': [19] });
      expect(B!.frames[0]!.meta).toMatchObject({ type: 'numeric-multi', custom: { resultType: 'vector' } });
      expect(B!.frames[0]!.fields[1]!.name).toBe('Value');
    });

    it('both flags: the range frames, then the instant ones', async () => {
      const { A } = await prometheusPlugin.query(ds(prom.url), [query({ expr: `${EXPORTED.gauge}{room="office"}`, range: true, instant: true })], ctx());
      expect(A!.frames.map((f) => f.meta!.type)).toEqual(['timeseries-multi', 'numeric-multi']);
    });

    it('$__rate_interval, $__interval and $__range are replaced before Prometheus sees the expression', async () => {
      const expr = `rate(${EXPORTED.counter}[$__rate_interval]) + 0 * scalar(count_over_time(${EXPORTED.counter}[$__range])) + 0 * $__interval_ms`;
      const source = ds(prom.url, { jsonData: { timeInterval: '1s' } });
      const { A } = await prometheusPlugin.query(source, [query({ expr, instant: true })], ctx(600_000));
      expect(A!.error).toBeUndefined();
      // 10 minutes over 100 points: 6 s → 5 s; rate interval max(5 s + 1 s, 4 × 1 s) = 6 s.
      expect(A!.frames[0]!.meta!.executedQueryString).toBe(`Expr: rate(${EXPORTED.counter}[6s]) + 0 * scalar(count_over_time(${EXPORTED.counter}[600s])) + 0 * 5000\nStep: 5s`);
      // The counter grows by one per one-second scrape.
      const rate = A!.frames[0]!.fields[1]!.values[0] as number;
      expect(rate).toBeGreaterThan(0.5);
      expect(rate).toBeLessThan(1.5);
    });

    it('an empty result is one frame without fields that still says what ran', async () => {
      const { A } = await prometheusPlugin.query(ds(prom.url), [query({ expr: 'absent_metric_for_tests' })], ctx());
      expect(A).toEqual({ frames: [{ refId: 'A', fields: [], meta: { type: 'timeseries-multi', custom: { resultType: 'matrix' }, executedQueryString: 'Expr: absent_metric_for_tests\nStep: 1s' } }] });
    });

    it("bad PromQL is that query's downstream error in Prometheus' words; the other query still answers", async () => {
      const res = await prometheusPlugin.query(ds(prom.url), [query({ refId: 'bad', expr: 'sum(' }), query({ refId: 'good', expr: EXPORTED.gauge, instant: true })], ctx());
      expect(res.bad).toEqual({ frames: [], error: expect.stringMatching(/^bad_data: .*parse error/), errorSource: 'downstream', status: 400 });
      expect(res.good!.error).toBeUndefined();
      expect(res.good!.frames).toHaveLength(2);
    });

    it('a query model of the wrong shape or an interval that is no duration is a plugin error of that query', async () => {
      const res = await prometheusPlugin.query(ds(prom.url), [query({ refId: 'A', expr: 42 }), query({ refId: 'B', expr: 'up', interval: 'soon' })], ctx());
      expect(res.A).toMatchObject({ frames: [], error: expect.stringContaining('invalid query: expr'), errorSource: 'plugin', status: 400 });
      expect(res.B).toEqual({ frames: [], error: 'invalid interval: "soon"', errorSource: 'plugin', status: 400 });
    });

    it('a URL that is no Prometheus: "unexpected response" with the status, the body cut at 1 KiB', async () => {
      const wrongPath = await prometheusPlugin.query(ds(`${prom.url}/not-here`), [query({ expr: 'up' })], ctx());
      expect(wrongPath.A).toEqual({ frames: [], error: 'unexpected response with status code 404: 404 page not found\n', errorSource: 'downstream', status: 404 });
      const exporter = await prometheusPlugin.query(ds(prom.exporterUrl), [query({ expr: 'up' })], ctx());
      expect(exporter.A).toMatchObject({ error: expect.stringMatching(/^unexpected response with status code 200: # HELP/), errorSource: 'downstream', status: 502 });
    });

    it('a refused connection is a per-query error (502), not a failed request', async () => {
      const port = await closedPort();
      const { A } = await prometheusPlugin.query(ds(`http://127.0.0.1:${port}`), [query({ expr: 'up' })], ctx());
      expect(A).toEqual({ frames: [], error: `POST "http://127.0.0.1:${port}/api/v1/query_range": connect ECONNREFUSED 127.0.0.1:${port}`, errorSource: 'downstream', status: 502 });
    });

    it('an upstream slower than jsonData.timeout is a per-query 504', async () => {
      const slow = await startRecorder(prom.url);
      slow.setDelay(3000);
      try {
        const { A } = await prometheusPlugin.query(ds(slow.url, { jsonData: { timeout: '1' } }), [query({ expr: 'up' })], ctx());
        expect(A).toMatchObject({ frames: [], error: expect.stringContaining('timeout after 1s'), errorSource: 'downstream', status: 504 });
      } finally {
        await slow.close();
      }
    });
  });

  describe('health', () => {
    it('OK by the instant query 1+1', async () => {
      expect(await prometheusPlugin.checkHealth(ds(prom.url), new AbortController().signal)).toEqual({ status: 'OK', message: 'Successfully queried the Prometheus API.' });
    });

    it('ERROR with the cause and the anchor\'s words when nothing listens', async () => {
      const port = await closedPort();
      expect(await prometheusPlugin.checkHealth(ds(`http://127.0.0.1:${port}`), new AbortController().signal)).toEqual({
        status: 'ERROR',
        message: `POST "http://127.0.0.1:${port}/api/v1/query": connect ECONNREFUSED 127.0.0.1:${port} - There was an error returned querying the Prometheus API.`,
      });
    });
  });

  describe('resources', () => {
    it("label names, label values, series and metadata: Prometheus' status and JSON unchanged", async () => {
      const labels = await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/labels'));
      expect(labels.status).toBe(200);
      expect(labels.headers['content-type']).toBe('application/json');
      expect(json(labels.body)).toEqual({ status: 'success', data: expect.arrayContaining(['__name__', 'instance', 'job', 'room']) });
      const values = await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/label/room/values'));
      expect(json(values.body)).toEqual({ status: 'success', data: ['kitchen', 'office'] });
      const series = await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/series', { query: `match[]=${encodeURIComponent(EXPORTED.gauge)}` }));
      expect(json(series.body).data.map((s: Record<string, string>) => s.room).sort()).toEqual(['kitchen', 'office']);
      const metadata = await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/metadata', { query: `metric=${EXPORTED.gauge}` }));
      expect(json(metadata.body)).toEqual({ status: 'success', data: { [EXPORTED.gauge]: [{ type: 'gauge', help: EXPORTED.help, unit: '' }] } });
      // A POST of a form, as query editors send for label names and series.
      const posted = await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/series', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(`match[]=${encodeURIComponent(EXPORTED.gauge)}`) }));
      expect(json(posted.body).data).toHaveLength(2);
    });

    it("Prometheus' own refusal passes through with its status", async () => {
      const bad = await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/series', { query: 'match[]=sum(' }));
      expect(bad.status).toBe(400);
      expect(json(bad.body)).toMatchObject({ status: 'error', errorType: 'bad_data' });
    });

    it('the rest of the Prometheus API is out of reach: 404 for other paths, 405 for other methods, 400 for a label name that is no name', async () => {
      for (const path of ['api/v1/query', 'api/v1/admin/tsdb/delete_series', 'api/v1/status/flags', '', '-/quit', 'api/v1/labels/../admin/tsdb/snapshot']) {
        expect([path, (await prometheusPlugin.resources!(ds(prom.url), resource(path, { method: 'POST' }))).status]).toEqual([path, 404]);
      }
      const del = await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/labels', { method: 'DELETE' }));
      expect([del.status, del.headers.allow]).toEqual([405, 'GET, POST']);
      expect((await prometheusPlugin.resources!(ds(prom.url), resource('api/v1/metadata', { method: 'POST' }))).status).toBe(405);
      for (const name of ['..', '%2e%2e', '%2F', 'a.b', '%zz']) {
        expect([name, (await prometheusPlugin.resources!(ds(prom.url), resource(`api/v1/label/${name}/values`))).status]).toEqual([name, 400]);
      }
    });

    it('a refused connection is 502 with the cause', async () => {
      const port = await closedPort();
      const res = await prometheusPlugin.resources!(ds(`http://127.0.0.1:${port}`), resource('api/v1/labels'));
      expect(res.status).toBe(502);
      expect(json(res.body).message).toContain('ECONNREFUSED');
    });
  });

  describe('what goes upstream', () => {
    let recorder: Awaited<ReturnType<typeof startRecorder>>;
    beforeAll(async () => {
      recorder = await startRecorder(prom.url);
    });
    afterAll(() => recorder?.close());
    beforeEach(() => recorder.seen.splice(0));

    const secured = (change: Partial<DataSourceInstance> = {}) =>
      ds(`${recorder.url}/`, {
        basicAuth: true,
        basicAuthUser: 'reader',
        jsonData: { httpHeaderName1: 'X-Scope-OrgID', httpHeaderName2: 'X-Second', httpHeaderName4: 'X-After-A-Gap' },
        secure: { basicAuthPassword: 'basic-secret', httpHeaderValue1: 'tenant-1', httpHeaderValue2: 'second-secret', httpHeaderValue4: 'never-sent' },
        ...change,
      });

    it('basic auth and custom headers (up to the first missing name) on queries, health and resources; POST forms by default', async () => {
      const { A } = await prometheusPlugin.query(secured(), [query({ expr: 'up' })], ctx());
      expect(A!.error).toBeUndefined();
      expect((await prometheusPlugin.checkHealth(secured(), new AbortController().signal)).status).toBe('OK');
      expect((await prometheusPlugin.resources!(secured(), resource('api/v1/labels'))).status).toBe(200);
      expect(recorder.seen.map((r) => [r.method, r.url.split('?')[0]])).toEqual([
        ['POST', '/api/v1/query_range'],
        ['POST', '/api/v1/query'],
        ['GET', '/api/v1/labels'],
      ]);
      for (const r of recorder.seen) {
        expect(r.headers.authorization).toBe(`Basic ${Buffer.from('reader:basic-secret').toString('base64')}`);
        expect(r.headers['x-scope-orgid']).toBe('tenant-1');
        expect(r.headers['x-second']).toBe('second-secret');
        expect(r.headers['x-after-a-gap']).toBeUndefined();
      }
      expect(recorder.seen[0]!.headers['user-agent']).toBe('Svc/test');
      expect(recorder.seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(recorder.seen[0]!.body))).toEqual({ query: 'up', start: expect.stringMatching(/^\d+$/), end: expect.stringMatching(/^\d+$/), step: '1' });
      expect(new URLSearchParams(recorder.seen[1]!.body).get('query')).toBe('1+1');
    });

    it('jsonData.httpMethod GET puts the parameters in the query string; queryTimeout goes as timeout', async () => {
      await prometheusPlugin.query(secured({ jsonData: { httpMethod: 'GET', queryTimeout: '20s' } }), [query({ expr: 'up', instant: true })], ctx());
      expect(recorder.seen).toHaveLength(1);
      const [r] = recorder.seen;
      expect(r!.method).toBe('GET');
      expect(r!.body).toBe('');
      const params = new URL(r!.url, 'http://x').searchParams;
      expect([params.get('query'), params.get('timeout')]).toEqual(['up', '20s']);
      expect(Number(params.get('time'))).toBeGreaterThan(1_600_000_000);
    });

    it('the old-style user/password when basicAuth is off; no Authorization without either', async () => {
      await prometheusPlugin.query(ds(recorder.url, { user: 'old', secure: { password: 'old-secret' } }), [query({ expr: 'up' })], ctx());
      await prometheusPlugin.query(ds(recorder.url), [query({ expr: 'up' })], ctx());
      expect(recorder.seen.map((r) => r.headers.authorization)).toEqual([`Basic ${Buffer.from('old:old-secret').toString('base64')}`, undefined]);
    });

    it('a data source URL with a base path keeps it; no secret appears in an error text', async () => {
      const port = await closedPort();
      const { A } = await prometheusPlugin.query(secured({ url: `http://reader:url-secret@127.0.0.1:${port}/prom/` }), [query({ expr: 'up' })], ctx());
      expect(A!.error).toContain(`"http://127.0.0.1:${port}/prom/api/v1/query_range"`);
      for (const secret of ['url-secret', 'basic-secret', 'tenant-1', 'second-secret']) expect(A!.error).not.toContain(secret);
    });
  });
});
