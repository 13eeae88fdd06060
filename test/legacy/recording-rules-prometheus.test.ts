/**
 * Recording rules against the real Prometheus (test/support/prometheus.ts, with its remote write receiver): the
 * server's evaluator runs a rule's query through the Prometheus data source (a series Prometheus scraped) and
 * one through the testdata data source, writes the results with the remote write protocol, and the written series
 * are read back through Prometheus' own query API, with the frame's labels and the rule's. Then the server as a process
 * (two replicas over one PostgreSQL database; one on the embedded one) evaluates a rule every second: one sample
 * per second reaches Prometheus, never two.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestApp, type TestApp } from '../support/app';
import { createTestDatabase, testBackend } from '../support/backend';
import { describeWithPrometheus, EXPORTED, startPrometheus, type TestPrometheus } from '../support/prometheus';
import { exited, runMain, type ServerProcess, startedUrl, stopMain } from '../support/server-process';

jest.setTimeout(180_000);

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** Prometheus' answer to an instant query, once it has at least `min` series (polled: written samples land within a second or two). */
async function queryUntil(prom: TestPrometheus, expr: string, min: number, timeoutMs = 60_000): Promise<Sample[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.json()) as { data: { result: Sample[] } };
    if (body.data.result.length >= min) return body.data.result.sort((a, b) => JSON.stringify(a.metric).localeCompare(JSON.stringify(b.metric)));
    if (Date.now() > deadline) throw new Error(`no ${min} series for ${expr} in time; prometheus said ${JSON.stringify(body)}; its log: ${prom.log()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describeWithPrometheus('recording rules written to the real Prometheus', () => {
  let t: TestApp;
  let prom: TestPrometheus;

  beforeAll(async () => {
    prom = await startPrometheus({ remoteWriteReceiver: true });
    t = await startTestApp(['--server.edition=enterprise']);
    expect((await t.as.post('/api/datasources').send({ name: 'Prometheus', uid: 'prom', type: 'prometheus', access: 'proxy', url: prom.url, jsonData: { timeInterval: '1s' } })).status).toBe(200);
    expect((await t.as.post('/api/datasources').send({ name: 'TestData', uid: 'td', type: 'testdata', access: 'proxy' })).status).toBe(200);
    expect((await t.as.post('/api/recording-rules/writer').send({ data_source_uid: 'prom' })).body).toMatchObject({ data_source_uid: 'prom', remote_write_path: '/api/v1/write' });
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await prom?.stop();
  });

  it('records a scraped series per room and a testdata value, readable through Prometheus\' query API', async () => {
    const scraped = await t.as.post('/api/recording-rules').send({
      name: 'Rooms', interval: 1, prom_name: 'svc:room_temperature:recorded', labels: { source: 'svc-rule' },
      queries: [{ refId: 'A', datasource: { uid: 'prom', type: 'prometheus' }, expr: `sum by (room) (${EXPORTED.gauge})`, instant: true }],
    });
    expect(scraped.status).toBe(200);
    const csv = await t.as.post('/api/recording-rules').send({
      name: 'CSV', interval: 1, prom_name: 'svc_csv_recorded', queries: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'csv_metric_values', stringInput: '4,5,6.5' }],
    });
    expect(csv.status).toBe(200);
    // The test route answers what the rule would write, before anything is written.
    const tested = await t.as.post('/api/recording-rules/test').send({ ...scraped.body, id: undefined });
    expect(tested.body.series.map((s: { labels: Record<string, string>; value: number }) => [s.labels, s.value])).toEqual([
      [{ room: 'kitchen', source: 'svc-rule', __name__: 'svc:room_temperature:recorded' }, 21.5],
      [{ room: 'office', source: 'svc-rule', __name__: 'svc:room_temperature:recorded' }, 19],
    ]);

    t.recordingRules!.start();
    const rooms = await queryUntil(prom, 'svc:room_temperature:recorded', 2);
    expect(rooms.map((s) => [s.metric, s.value[1]])).toEqual([
      [{ __name__: 'svc:room_temperature:recorded', room: 'kitchen', source: 'svc-rule' }, '21.5'],
      [{ __name__: 'svc:room_temperature:recorded', room: 'office', source: 'svc-rule' }, '19'],
    ]);
    const values = await queryUntil(prom, 'svc_csv_recorded', 1);
    expect(values.map((s) => [s.metric, s.value[1]])).toEqual([[{ __name__: 'svc_csv_recorded' }, '6.5']]);
    // Evaluated every second: several samples land, one per interval.
    const counted = await queryUntil(prom, 'count_over_time(svc_csv_recorded[1m]) >= 3', 1);
    expect(Number(counted[0]!.value[1])).toBeGreaterThanOrEqual(3);
  });

  it('evaluates from the server process: two replicas over one database write one sample per interval', async () => {
    const backend = testBackend();
    const db = await createTestDatabase(backend);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rr-'));
    const env = { SVC_SERVER_EDITION: 'enterprise', ...(db.url ? { SVC_DATABASE_URL: db.url } : { SVC_PATHS_DATA: dir }) };
    const replicas: ServerProcess[] = [];
    try {
      // The embedded database belongs to one process: one replica there.
      for (let i = 0; i < (backend === 'postgres' ? 2 : 1); i++) replicas.push(runMain(['--server.http_port=0', '--server.http_addr=127.0.0.1'], env));
      const urls = await Promise.all(replicas.map((r) => startedUrl(r, 240_000)));
      const api = (method: string, p: string, body: object) =>
        fetch(`${urls[0]}${p}`, { method, headers: { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect((await api('POST', '/api/datasources', { name: 'Prometheus', uid: 'prom', type: 'prometheus', access: 'proxy', url: prom.url })).status).toBe(200);
      expect((await api('POST', '/api/datasources', { name: 'TestData', uid: 'td', type: 'testdata', access: 'proxy' })).status).toBe(200);
      expect((await api('POST', '/api/recording-rules/writer', { data_source_uid: 'prom' })).status).toBe(200);
      const started = Date.now();
      expect((await api('POST', '/api/recording-rules', { name: 'Replicated', interval: 1, prom_name: 'svc_replicated_recorded', queries: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'csv_metric_values', stringInput: '7' }] })).status).toBe(200);
      await queryUntil(prom, 'count_over_time(svc_replicated_recorded[5m]) >= 5', 1);
      for (const r of replicas) await stopMain(r);
      const elapsed = Math.ceil((Date.now() - started) / 1000);
      const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent('svc_replicated_recorded[5m]')}`);
      const samples = ((await res.json()) as { data: { result: Array<{ values: Array<[number, string]> }> } }).data.result[0]!.values;
      const seconds = samples.map(([ts]) => Math.floor(ts));
      // One sample per one-second slot, whichever replica claimed it; no slot twice.
      expect(new Set(seconds).size).toBe(seconds.length);
      expect(seconds.length).toBeLessThanOrEqual(elapsed + 1);
      expect(samples.every(([, v]) => v === '7')).toBe(true);
      for (const r of replicas) expect(await exited(r)).toBe(0);
    } finally {
      for (const r of replicas) if (r.exitCode === null) r.kill('SIGKILL');
      await db.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 400_000);
});
