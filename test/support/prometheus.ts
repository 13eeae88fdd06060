import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real Prometheus for tests (Debian's package; `.ci/run` installs it when missing): one instance per test file on
 * a free port, with a temporary storage folder, scraping every second a small exporter the test serves itself, so
 * the data is known: two gauges with fixed values and a counter that grows by one per scrape.
 */
export const PROMETHEUS_BIN = '/usr/bin/prometheus';
export const prometheusInstalled = fs.existsSync(PROMETHEUS_BIN);

/** `describe`, or `describe.skip` with the reason in its name when the binary is absent. */
export function describeWithPrometheus(name: string, fn: () => void): void {
  if (prometheusInstalled) describe(name, fn);
  else describe.skip(`${name} (skipped: prometheus binary not installed at ${PROMETHEUS_BIN})`, fn);
}

/** The exporter's fixed series: what the tests expect to read back. */
export const EXPORTED = {
  job: 'svc-test',
  gauge: 'svc_test_temperature_celsius',
  rooms: { kitchen: 21.5, office: 19 },
  counter: 'svc_test_scrapes_total',
  help: 'Temperature of a room, fixed for tests.',
};

function exposition(scrapes: number): string {
  return [
    `# HELP ${EXPORTED.gauge} ${EXPORTED.help}`,
    `# TYPE ${EXPORTED.gauge} gauge`,
    ...Object.entries(EXPORTED.rooms).map(([room, v]) => `${EXPORTED.gauge}{room="${room}"} ${v}`),
    `# HELP ${EXPORTED.counter} Scrapes of the test exporter.`,
    `# TYPE ${EXPORTED.counter} counter`,
    `${EXPORTED.counter} ${scrapes}`,
    '',
  ].join('\n');
}

export interface TestPrometheus {
  /** `http://127.0.0.1:<port>`: the data source URL. */
  url: string;
  /** The exporter's URL: an HTTP server that is no Prometheus (for "unexpected response" cases). */
  exporterUrl: string;
  /** Prometheus' stdout and stderr so far, for a failing test's message. */
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function samples(url: string): Promise<number> {
  try {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(`min(count_over_time(${EXPORTED.gauge}[1m]))`)}`);
    if (!res.ok) return 0;
    const body = (await res.json()) as { data: { result: Array<{ value: [number, string] }> } };
    return Number(body.data.result[0]?.value[1] ?? 0);
  } catch {
    return 0;
  }
}

async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the exporter and Prometheus, and resolves once Prometheus holds at least `minSamples` scrapes of the gauges
 * (default 3). Allow a minute on a busy two-core machine. `remoteWriteReceiver`: Prometheus also accepts remote
 * writes at `/api/v1/write` (`--web.enable-remote-write-receiver`), as the recording rules' target.
 */
export async function startPrometheus(opts: { minSamples?: number; timeoutMs?: number; remoteWriteReceiver?: boolean } = {}): Promise<TestPrometheus> {
  let scrapes = 0;
  const exporter = http.createServer((_req, res) => {
    scrapes += 1;
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(exposition(scrapes));
  });
  await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
  const exporterUrl = `http://127.0.0.1:${(exporter.address() as AddressInfo).port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-prometheus-'));
  const config = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      `  - job_name: ${EXPORTED.job}`,
      '    static_configs:',
      `      - targets: ['${new URL(exporterUrl).host}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const flags = [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'];
  if (opts.remoteWriteReceiver) flags.push('--web.enable-remote-write-receiver');
  const proc = spawn(PROMETHEUS_BIN, flags, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  proc.stdout!.on('data', (d) => (log += d));
  proc.stderr!.on('data', (d) => (log += d));
  const stop = async () => {
    await stopProcess(proc);
    await new Promise<void>((resolve) => exporter.close(() => resolve()));
    exporter.closeAllConnections();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  const minSamples = opts.minSamples ?? 3;
  try {
    while ((await samples(url)) < minSamples) {
      if (proc.exitCode !== null) throw new Error(`prometheus exited (${proc.exitCode}): ${log}`);
      if (Date.now() > deadline) throw new Error(`prometheus had no ${minSamples} samples in time: ${log}`);
      await sleep(300);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, exporterUrl, log: () => log, stop };
}

/**
 * A recording pass-through in front of an upstream: every request's method, URL, headers and body are kept, then
 * forwarded unchanged and the upstream's answer returned. `delayMs` holds each request first (timeouts).
 */
export async function startRecorder(upstream: string) {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  let delayMs = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: body.toString('utf8') });
      if (delayMs) await sleep(delayMs);
      if (res.destroyed) return;
      const fwd = http.request(`${upstream}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } }, (up) => {
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      });
      fwd.on('error', () => res.destroy());
      fwd.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    setDelay(ms: number) {
      delayMs = ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound then released): connections to it are refused. */
export async function closedPort(): Promise<number> {
  return freePort();
}
