/**
 * GET /metrics: Prometheus text of requests (by method, route template and status, never by path), in-flight
 * requests, the pool, queries, watches, login failures and the process; protected as the anchor's is; and
 * scraped by the real Prometheus (Debian's /usr/bin/prometheus) when it is installed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../pkg/config';
import { startTestApp, type TestApp } from '../support/app';
import { onJsonLines } from '../support/json-lines';
import { testBackend } from '../support/backend';

const PLAYLISTS = '/apis/playlist.svc.app/v1/namespaces/default/playlists';
const COLLECTION = '/apis/:group/:version/namespaces/:namespace/:resource';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function listen(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(t.app);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(() => r()));
        },
      }),
    ),
  );
}

describe('metrics, open', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 120_000);
  afterAll(() => t.close());

  test('requests are counted and timed by method, route template and status, never by path', async () => {
    await t.as.post(PLAYLISTS).send({ metadata: { name: 'm1' }, spec: { title: 'M', interval: '5m' } }).expect(201);
    await t.as.get(`${PLAYLISTS}/m1`).expect(200);
    await t.as.get(`${PLAYLISTS}/no-such-one`).expect(404);
    await t.as.get('/api/folders/nope').expect(404);
    const res = await t.anonymous.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(sample(text, `dashboard_apiserver_http_requests_total{method="POST",route="${COLLECTION}",status="201"}`)).toBe(1);
    expect(sample(text, `dashboard_apiserver_http_requests_total{method="GET",route="${COLLECTION}/:name",status="200"}`)).toBe(1);
    expect(sample(text, `dashboard_apiserver_http_requests_total{method="GET",route="${COLLECTION}/:name",status="404"}`)).toBe(1);
    expect(sample(text, 'dashboard_apiserver_http_requests_total{method="GET",route="/api/folders/:uid",status="404"}')).toBe(1);
    expect(sample(text, `dashboard_apiserver_http_request_duration_seconds_count{method="POST",route="${COLLECTION}",status="201"}`)).toBe(1);
    expect(sample(text, `dashboard_apiserver_http_request_duration_seconds_bucket{le="+Inf",method="POST",route="${COLLECTION}",status="201"}`)).toBe(1);
    // No path ever becomes a label.
    expect(text).not.toContain('namespaces/default');
    expect(text).not.toContain('m1');
    expect(text).not.toContain('no-such-one');
    // The scrape itself is in flight while it is answered.
    expect(sample(text, 'dashboard_apiserver_http_requests_in_flight')).toBe(1);
    expect(sample(text, 'dashboard_apiserver_db_query_duration_seconds_count{outcome="ok"}')).toBeGreaterThan(0);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^dashboard_apiserver_build_info\{version="test",commit="test"\} 1$/m);
    if (testBackend() === 'postgres') {
      expect(sample(text, 'dashboard_apiserver_db_pool_connections')).toBeGreaterThan(0);
      expect(sample(text, 'dashboard_apiserver_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'dashboard_apiserver_db_pool_waiting_clients')).toBe(0);
    } else {
      // One connection, no pool.
      expect(text).not.toContain('dashboard_apiserver_db_pool_');
    }
  });

  test('refused sign-ins are counted (basic authentication and the login form); good ones are not', async () => {
    const before = sample((await t.anonymous.get('/metrics')).text, 'dashboard_apiserver_login_failures_total')!;
    await t.anonymous.get(PLAYLISTS).set('Authorization', basic('admin', 'not-it')).expect(401);
    await t.anonymous.post('/login').send({ user: 'admin', password: 'nor-this' }).expect(401);
    await t.as.get(PLAYLISTS).expect(200);
    expect(sample((await t.anonymous.get('/metrics')).text, 'dashboard_apiserver_login_failures_total')).toBe(before + 2);
  });

  test('open watches and the events they were sent; the poller lag; a watch is timed as WATCH, apart from GET', async () => {
    const server = await listen(t);
    try {
      const events: string[] = [];
      const watch = http.get(`${server.url}${PLAYLISTS}?watch=true&resourceVersion=0`, { headers: { Authorization: basic('admin', 'admin') } }, (res) =>
        onJsonLines<{ type: string }>(res, (e) => events.push(e.type)),
      );
      for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      let text = (await t.anonymous.get('/metrics')).text;
      expect(sample(text, 'dashboard_apiserver_watches_open')).toBe(1);
      await t.as.post(PLAYLISTS).send({ metadata: { name: 'watched' }, spec: { title: 'W', interval: '5m' } }).expect(201);
      for (let i = 0; i < 100 && events.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(events).toEqual(['ADDED', 'ADDED']);
      watch.destroy();
      for (let i = 0; i < 100 && sample(text, 'dashboard_apiserver_watches_open') !== 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        text = (await t.anonymous.get('/metrics')).text;
      }
      expect(sample(text, 'dashboard_apiserver_watches_open')).toBe(0);
      expect(sample(text, 'dashboard_apiserver_watch_events_sent_total{type="ADDED"}')).toBe(2);
      expect(sample(text, 'dashboard_apiserver_watch_poll_lag_seconds_count')).toBeGreaterThanOrEqual(1);
      expect(sample(text, `dashboard_apiserver_http_requests_total{method="WATCH",route="${COLLECTION}",status="200"}`)).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('metrics, protected', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(['--metrics.basic_auth_username=prom', '--metrics.basic_auth_password=sc:rape']);
  }, 120_000);
  afterAll(() => t.close());

  test('with metrics.basic_auth_* set, /metrics asks for exactly those credentials (not a user\'s)', async () => {
    const refused = await t.anonymous.get('/metrics').expect(401);
    expect(refused.headers['www-authenticate']).toBe('Basic realm="metrics"');
    await t.anonymous.get('/metrics').set('Authorization', basic('admin', 'admin')).expect(401);
    await t.anonymous.get('/metrics').set('Authorization', basic('prom', 'sc:rap')).expect(401);
    await t.anonymous.get('/metrics').set('Authorization', 'Bearer sc:rape').expect(401);
    const ok = await t.anonymous.get('/metrics').set('Authorization', basic('prom', 'sc:rape')).expect(200);
    expect(ok.text).toContain('dashboard_apiserver_http_requests_total');
  });

  test('metrics.enabled=false: not served; a username without a password (or the reverse) stops the start', async () => {
    const off = await startTestApp(['--metrics.enabled=false']);
    try {
      await off.anonymous.get('/metrics').expect(404);
    } finally {
      await off.close();
    }
    const load = (argv: string[]) => () => loadConfig({ argv, env: {}, cwd: process.cwd() });
    expect(load(['--metrics.basic_auth_username=prom'])).toThrow(ConfigError);
    expect(load(['--metrics.basic_auth_username=prom'])).toThrow(/metrics\.basic_auth_password/);
    expect(load(['--metrics.basic_auth_password=x'])).toThrow(/metrics\.basic_auth_username/);
  }, 120_000);
});

const PROMETHEUS = '/usr/bin/prometheus';
const scrapeTest = fs.existsSync(PROMETHEUS) ? test : test.skip;

scrapeTest(`the real Prometheus (${PROMETHEUS}) scrapes it with basic auth and sees the requests by route (skipped when ${PROMETHEUS} is not installed)`, async () => {
  const t = await startTestApp(['--metrics.basic_auth_username=prom', '--metrics.basic_auth_password=scrape-pw']);
  const server = await listen(t);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-prom-'));
  const port = await new Promise<number>((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const p = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(p));
    });
  });
  const target = new URL(server.url).host;
  fs.writeFileSync(
    path.join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: svc\n    basic_auth:\n      username: prom\n      password: scrape-pw\n    static_configs:\n      - targets: ['${target}']\n`,
  );
  const prom = spawn(PROMETHEUS, [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  prom.stdout!.on('data', (d) => (log += d));
  prom.stderr!.on('data', (d) => (log += d));
  const query = async (q: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`);
      if (!res.ok) return [];
      return ((await res.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }).data.result;
    } catch {
      return [];
    }
  };
  try {
    await t.as.post(PLAYLISTS).send({ metadata: { name: 'scraped' }, spec: { title: 'S', interval: '5m' } }).expect(201);
    const wanted = `dashboard_apiserver_http_requests_total{job="svc",method="POST",route="${COLLECTION}",status="201"}`;
    let found: Awaited<ReturnType<typeof query>> = [];
    for (let i = 0; i < 120 && found.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 500));
      found = await query(wanted);
      if (prom.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
    }
    expect(found).toHaveLength(1);
    expect(found[0].value[1]).toBe('1');
    expect((await query('up{job="svc"}'))[0]?.value[1]).toBe('1');
    expect((await query('process_resident_memory_bytes{job="svc"}')).length).toBe(1);
  } finally {
    prom.kill('SIGTERM');
    await new Promise((r) => (prom.exitCode !== null ? r(null) : prom.once('exit', r)));
    await server.close();
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
