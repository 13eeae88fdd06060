/**
 * The server survives every loss of its database: under load, its connections killed, PostgreSQL restarted, crashed,
 * stopped for a while, or its database dropped. Requests meanwhile answer 2xx or 503 in the shape of their API
 * (never 500, never a dropped connection), an open watch resumes or ends cleanly, and it serves again once the
 * database is back, without a restart. The server runs as a child process, so a crash shows as its exit; PostgreSQL
 * is a private cluster (its own initdb, folder and port) that the test may kill, never the shared test server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PLAYLISTS } from '../support/paths';
import { findPostgresBin, type PrivateCluster, startPrivateCluster } from '../support/private-postgres';
import { runMain, type ServerProcess, startedUrl, stopMain } from '../support/server-process';
import { testBackend } from '../support/backend';

const FOLDERS = '/apis/folder.svc.app/v1beta1/namespaces/default/folders';
const BASIC = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for a condition, up to `ms`; true when it came. */
async function waitFor(cond: () => boolean | Promise<boolean>, ms: number, every = 50): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(every)) if (await cond()) return true;
  return cond();
}

interface Credentials {
  basic: string;
  bearer: string;
  cookie: string;
}

/** One request of the load: through /apis and /api, with each way of signing in (basic, bearer, session cookie). */
interface Probe {
  name: string;
  path: string;
  method?: string;
  auth: keyof Credentials | 'none';
  body?: () => unknown;
}

const PROBES: Probe[] = [
  { name: 'list playlists (basic)', path: `${PLAYLISTS}?limit=5`, auth: 'basic' },
  { name: 'create a playlist (basic)', path: PLAYLISTS, method: 'POST', auth: 'basic', body: () => ({ metadata: { generateName: 'load-' }, spec: { title: 'Load', interval: '5m' } }) },
  { name: 'list folders (bearer)', path: FOLDERS, auth: 'bearer' },
  { name: 'search (bearer)', path: '/api/search?limit=5', auth: 'bearer' },
  { name: 'legacy folders (basic)', path: '/api/folders', auth: 'basic' },
  { name: 'current user (session)', path: '/api/user', auth: 'cookie' },
  { name: 'login form', path: '/login', method: 'POST', auth: 'none', body: () => ({ user: 'admin', password: 'admin' }) },
  // The areas of the later kinds: a secret to encrypt (a data key to read or create), a snapshot's encrypted
  // dashboard, library elements and legacy playlists.
  { name: 'legacy data sources (basic)', path: '/api/datasources', auth: 'basic' },
  { name: 'create a data source with a secret (basic)', path: '/api/datasources', method: 'POST', auth: 'basic', body: () => ({ name: `load-${Math.random().toString(36).slice(2)}`, type: 'prometheus', access: 'proxy', url: 'http://127.0.0.1:9', secureJsonData: { password: 'p' } }) },
  { name: 'create a snapshot (bearer)', path: '/api/snapshots', method: 'POST', auth: 'bearer', body: () => ({ dashboard: { title: 'Load', panels: [] }, expires: 3600 }) },
  { name: 'snapshots (session)', path: '/api/dashboard/snapshots', auth: 'cookie' },
  { name: 'library elements (bearer)', path: '/api/library-elements', auth: 'bearer' },
  { name: 'legacy playlists (basic)', path: '/api/playlists', auth: 'basic' },
  // Public dashboards and the signing keys' JWKS (public); the enterprise areas (the server runs that edition, so its
  // report scheduler and recording-rule evaluator loop through the outages as well).
  { name: 'public dashboards (bearer)', path: '/api/dashboards/public-dashboards', auth: 'bearer' },
  { name: 'signing keys (public)', path: '/api/signing-keys/keys', auth: 'none' },
  { name: 'reports (basic)', path: '/api/reports', auth: 'basic' },
  { name: 'recording rules (bearer)', path: '/api/recording-rules', auth: 'bearer' },
  { name: 'license check (basic)', path: '/api/licensing/check', auth: 'basic' },
];

interface Answer {
  probe: string;
  path: string;
  /** The HTTP status, or what went wrong with the connection. */
  status: number | string;
  body: string;
}

async function send(url: string, creds: Credentials, p: Probe): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (p.auth === 'basic') headers.Authorization = creds.basic;
  if (p.auth === 'bearer') headers.Authorization = creds.bearer;
  if (p.auth === 'cookie') headers.Cookie = creds.cookie;
  try {
    const res = await fetch(`${url}${p.path}`, {
      method: p.method ?? 'GET',
      headers,
      body: p.body ? JSON.stringify(p.body()) : undefined,
      // A request that never ends is a defect too; the bound only keeps the loop bounded.
      signal: AbortSignal.timeout(20_000),
    });
    return { probe: p.name, path: p.path, status: res.status, body: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    return { probe: p.name, path: p.path, status: `failed: ${e.cause?.code ?? e.cause?.message ?? e.message}`, body: '' };
  }
}

/** What is wrong with an answer given while the database may be away: nothing for a 2xx, or a 503 in its API's shape. */
function defectOf(a: Answer): string | undefined {
  if (typeof a.status === 'number' && a.status >= 200 && a.status < 300) return undefined;
  const said = `${a.probe}: ${a.status} ${a.body.slice(0, 300)}`;
  if (a.status !== 503) return said;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    return said;
  }
  const shaped = a.path.startsWith('/apis/')
    ? body.kind === 'Status' && body.apiVersion === 'v1' && body.status === 'Failure' && body.reason === 'ServiceUnavailable' && body.code === 503 && typeof body.message === 'string'
    : typeof body.message === 'string' && body.kind === undefined;
  return shaped ? undefined : said;
}

/** Workers sending the probes in turn, each waiting for its answer, until stopped (at most `limit` requests each). */
class Load {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly done: Promise<void>;

  constructor(url: string, creds: Credentials, workers = 8, limit = 5000) {
    this.done = Promise.all(
      Array.from({ length: workers }, async (_, w) => {
        for (let n = 0; this.running && n < limit; n++) {
          const a = await send(url, creds, PROBES[(w + n) % PROBES.length]);
          this.answers.push(a);
          // No busy loop while the database is away: the machine is shared.
          if (a.status !== 200 && a.status !== 201) await sleep(20);
        }
      }),
    ).then(() => undefined);
  }

  count(status: number): number {
    return this.answers.filter((a) => a.status === status).length;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

/** An open watch of the playlists labelled probe=yes, read in the background. */
class WatchProbe {
  readonly names: string[] = [];
  readonly errors: unknown[] = [];
  ended = false;
  failure: string | undefined;
  private readonly abort = new AbortController();

  static async open(url: string): Promise<WatchProbe> {
    const w = new WatchProbe();
    const res = await fetch(`${url}${PLAYLISTS}?watch=true&labelSelector=probe%3Dyes`, { headers: { Authorization: BASIC }, signal: w.abort.signal });
    if (res.status !== 200) throw new Error(`watch: ${res.status} ${await res.text()}`);
    void w.read(res.body!);
    return w;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of body) {
        buf += decoder.decode(chunk, { stream: true });
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const ev = JSON.parse(buf.slice(0, i)) as { type: string; object: { metadata?: { name?: string } } };
          buf = buf.slice(i + 1);
          if (ev.type === 'ERROR') this.errors.push(ev.object);
          else if (ev.object.metadata?.name) this.names.push(ev.object.metadata.name);
        }
      }
      this.ended = true;
    } catch (err) {
      if (!this.abort.signal.aborted) this.failure = String((err as Error & { cause?: unknown }).cause ?? err);
    }
  }

  close(): void {
    this.abort.abort();
  }
}

const bin = findPostgresBin();
const reason = testBackend() !== 'postgres' ? ' (postgres backend only: the embedded database cannot go away)' : !bin ? ' (skipped: initdb is not installed)' : '';
const suite = reason ? describe.skip : describe;

suite(`the server survives the loss of its database${reason}`, () => {
  let pg: PrivateCluster | undefined;
  let server: ServerProcess | undefined;
  let url = '';
  let creds: Credentials;
  const args = (db: string) => [
    '--server.http_port=0',
    '--server.http_addr=127.0.0.1',
    `--database.url=${db}`,
    // Background loops run during the outages too: the compactor every second, watches' history polls, and the
    // enterprise edition's recording rules (every second) and report schedule.
    '--registry.compaction_interval_seconds=1',
    '--server.edition=enterprise',
  ];
  let dataDir = '';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-outage-'));
    pg = await startPrivateCluster(bin!);
    await pg.query('CREATE DATABASE svc');
    // A first run creates the schema, the admin, a service-account token and a login session; a copy of that database
    // is what the last scenario restores after dropping it.
    const first = runMain(args(pg.url('svc')), { SVC_PATHS_DATA: dataDir });
    try {
      const u = await startedUrl(first);
      const json = { Authorization: BASIC, 'Content-Type': 'application/json' };
      const sa = (await (await fetch(`${u}/api/serviceaccounts`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'load', role: 'Admin' }) })).json()) as { id: number };
      const token = (await (await fetch(`${u}/api/serviceaccounts/${sa.id}/tokens`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'load' }) })).json()) as { key: string };
      const login = await fetch(`${u}/login`, { method: 'POST', headers: json, body: JSON.stringify({ user: 'admin', password: 'admin' }) });
      creds = { basic: BASIC, bearer: `Bearer ${token.key}`, cookie: login.headers.getSetCookie()[0].split(';')[0] };
    } finally {
      await stopMain(first);
    }
    await pg.query('CREATE DATABASE svc_seed TEMPLATE svc');
    server = runMain(args(pg.url('svc')), { SVC_PATHS_DATA: dataDir });
    url = await startedUrl(server);
  }, 120_000);

  afterAll(async () => {
    try {
      if (server) await stopMain(server);
    } finally {
      await pg?.destroy();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  const alive = () => {
    if (server!.exitCode !== null || server!.signalCode !== null) throw new Error(`the server exited (${server!.exitCode ?? server!.signalCode}):\n${server!.output().slice(-3000)}`);
  };

  /** Every probe answers 2xx, in one round; polled up to `ms`. */
  const serving = async (ms: number) => waitFor(async () => (await Promise.all(PROBES.map((p) => send(url, creds, p)))).every((a) => typeof a.status === 'number' && a.status < 300), ms, 100);

  const terminateServerConnections = () => pg!.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'svc' AND pid <> pg_backend_pid()`);

  const scenarios: Array<[string, { sure503: boolean }, (load: Load) => Promise<void>]> = [
    [
      "pg_terminate_backend of the server's connections",
      { sure503: false },
      async () => {
        for (let i = 0; i < 5; i++) {
          await terminateServerConnections();
          await sleep(200);
        }
      },
    ],
    ['pg_ctl restart -m fast', { sure503: false }, () => pg!.ctl('restart', 'fast')],
    [
      'pg_ctl stop -m immediate (a crash), then start',
      { sure503: false },
      async () => {
        await pg!.ctl('stop', 'immediate');
        await sleep(300);
        await pg!.ctl('start');
      },
    ],
    [
      'PostgreSQL stopped for a few seconds, then started',
      { sure503: true },
      async (load) => {
        await pg!.ctl('stop', 'fast');
        const before = load.count(503);
        await waitFor(() => load.count(503) > before + 20, 10_000);
        await sleep(2000);
        await pg!.ctl('start');
      },
    ],
    [
      'the database dropped (SQLSTATE 3D000), then restored',
      { sure503: true },
      async (load) => {
        await pg!.query('DROP DATABASE svc WITH (FORCE)');
        const before = load.count(503);
        await waitFor(() => load.count(503) > before + 20, 10_000);
        await pg!.query('CREATE DATABASE svc TEMPLATE svc_seed');
      },
    ],
  ];

  test.each(scenarios)('%s: the process lives, answers are 2xx or 503 in the right shape, and it serves again', async (name, { sure503 }, outage) => {
    alive();
    expect(await serving(15_000)).toBe(true);
    const watch = await WatchProbe.open(url);
    const load = new Load(url, creds);
    try {
      await waitFor(() => load.answers.length >= 40, 10_000);
      await outage(load);
      const back = await serving(15_000);
      await load.stop();
      alive();
      expect(back).toBe(true);
      expect(load.answers.map(defectOf).filter((d) => d !== undefined).slice(0, 10)).toEqual([]);
      if (sure503) expect(load.count(503)).toBeGreaterThan(0);

      // The pool kept no dead connection: every probe, round after round, is served.
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(PROBES.map((p) => send(url, creds, p)));
        expect(answers.filter((a) => typeof a.status !== 'number' || a.status >= 300)).toEqual([]);
      }

      // The watch opened before the outage either resumed (it sees a new object) or ended cleanly, never hangs.
      const marker = `probe-${scenarios.findIndex((s) => s[0] === name)}`;
      const created = await send(url, creds, { name: 'marker', path: PLAYLISTS, method: 'POST', auth: 'basic', body: () => ({ metadata: { name: marker, labels: { probe: 'yes' } }, spec: { title: 'Probe', interval: '5m' } }) });
      expect(created.status).toBe(201);
      expect(await waitFor(() => watch.names.includes(marker) || watch.ended || watch.failure !== undefined, 15_000)).toBe(true);
      expect(watch.failure).toBeUndefined();
      for (const e of watch.errors) expect(e).toMatchObject({ kind: 'Status', code: 503 });
      alive();
    } finally {
      watch.close();
      await load.stop();
    }
  }, 120_000);
});
