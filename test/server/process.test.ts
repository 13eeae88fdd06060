/** The server as a process: start-up, configuration errors, replicas migrating at once, draining on shutdown. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../../pkg/config';
import { createLogger, silentLogger } from '../../pkg/log';
import { startServer } from '../../pkg/server/server';
import { openStorage } from '../../storage';
import { migrationProvider } from '../../storage/postgres/migrations';
import { createTestDatabase, testBackend } from '../support/backend';
import { exited, runMain, type ServerProcess, startedUrl } from '../support/server-process';

const ROOT = path.resolve(__dirname, '..', '..');

async function waitHealthy(url: string, child: ServerProcess): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${child.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy: ${child.output()}`);
}

test('a bad setting exits 2 with one clear line and no stack trace', async () => {
  const child = runMain([], { SVC_SERVER_HTTP_PORT: 'abc' });
  expect(await exited(child)).toBe(2);
  expect(child.output().trim()).toBe('dashboard-apiserver: invalid value "abc" for server.http_port (from SVC_SERVER_HTTP_PORT): expected an integer');
});

test('--help lists the settings with their environment names', async () => {
  const child = runMain(['--help']);
  expect(await exited(child)).toBe(0);
  expect(child.output()).toContain('SVC_DATABASE_URL');
  expect(child.output()).toMatch(/--auth\.login_maximum_lifetime_duration\s+SVC_AUTH_LOGIN_MAXIMUM_LIFETIME_DURATION\s+"30d"/);
  expect(child.output()).toMatch(/--auth\.login_maximum_inactive_lifetime_duration\s+SVC_AUTH_LOGIN_MAXIMUM_INACTIVE_LIFETIME_DURATION\s+"7d"/);
});

test('--new-service-account-token prints a key that auth.initial_service_account_token accepts; a malformed one exits 2 unprinted', async () => {
  const child = runMain(['--new-service-account-token']);
  expect(await exited(child)).toBe(0);
  const key = child.output().trim();
  expect(key).toMatch(/^svcsa_[0-9A-Za-z]{32}_[0-9a-f]{8}$/);
  expect(loadConfig({ argv: [`--auth.initial_service_account_token=${key}`], env: {}, cwd: ROOT }).auth.initial_service_account_token).toBe(key);
  const typo = runMain([], { SVC_AUTH_INITIAL_SERVICE_ACCOUNT_TOKEN: `${key}0` });
  expect(await exited(typo)).toBe(2);
  expect(typo.output()).toContain('for auth.initial_service_account_token (from SVC_AUTH_INITIAL_SERVICE_ACCOUNT_TOKEN)');
  expect(typo.output()).not.toContain(key);
});

test('a session lifetime no cookie can hold stops the start (exit 2) instead of failing every login', async () => {
  const child = runMain(['--auth.login_maximum_lifetime_duration=2592000000']);
  expect(await exited(child)).toBe(2);
  expect(child.output().trim()).toBe(
    'dashboard-apiserver: invalid value "2592000000" for auth.login_maximum_lifetime_duration (from --auth.login_maximum_lifetime_duration): expected a duration of at most 400d',
  );
});

test('with no database configured it serves on the embedded database in the data folder, keeps data, and stops cleanly on SIGTERM', async () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-main-'));
  const auth = { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`, 'Content-Type': 'application/json' };
  try {
    // Port 0: the system picks a free port, which the "server started" log line names.
    const first = runMain(['--server.http_port=0', '--server.http_addr=127.0.0.1'], { SVC_PATHS_DATA: data });
    const url = await startedUrl(first);
    await waitHealthy(url, first);
    const playlists = `${url}/apis/playlist.svc.app/v1/namespaces/default/playlists`;
    expect(fs.existsSync(path.join(data, 'pglite.lock'))).toBe(true);
    const created = await fetch(playlists, { method: 'POST', headers: auth, body: JSON.stringify({ metadata: { name: 'kept' }, spec: { title: 'Kept', interval: '5m' } }) });
    expect(created.status).toBe(201);

    // A second process on the same data folder is refused with a clear message.
    const second = runMain(['--server.http_port=0'], { SVC_PATHS_DATA: data });
    expect(await exited(second)).toBe(1);
    expect(second.output()).toContain('is in use by process');

    first.kill('SIGTERM');
    expect(await exited(first)).toBe(0);
    expect(fs.existsSync(path.join(data, 'pglite.lock'))).toBe(false);

    const again = runMain(['--server.http_port=0', '--server.http_addr=127.0.0.1'], { SVC_PATHS_DATA: data });
    const url2 = await startedUrl(again);
    await waitHealthy(url2, again);
    const got = await fetch(`${url2}/apis/playlist.svc.app/v1/namespaces/default/playlists/kept`, { headers: auth });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { spec: { title: string } }).spec.title).toBe('Kept');
    again.kill('SIGTERM');
    expect(await exited(again)).toBe(0);
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }
}, 120_000);

test('a process killed with -9 keeps no one out, even when the pid its lock file names now runs another process', async () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-kill-'));
  const flags = ['--server.http_port=0', '--server.http_addr=127.0.0.1'];
  try {
    const killed = runMain(flags, { SVC_PATHS_DATA: data });
    await waitHealthy(await startedUrl(killed), killed);
    killed.kill('SIGKILL');
    await exited(killed);
    const lock = path.join(data, 'pglite.lock');
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(killed.pid));
    // The dead process's pid given to a live one: this test's own process.
    fs.writeFileSync(lock, String(process.pid));

    const next = runMain(flags, { SVC_PATHS_DATA: data });
    await waitHealthy(await startedUrl(next), next);
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(next.pid));
    // Two live processes on one folder: the second is refused, naming the first.
    const second = runMain(flags, { SVC_PATHS_DATA: data });
    expect(await exited(second)).toBe(1);
    expect(second.output()).toContain(`the data folder ${data} is in use by process ${next.pid}; stop it or set another paths.data`);
    next.kill('SIGTERM');
    expect(await exited(next)).toBe(0);
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }
}, 120_000);

const onServer = testBackend() === 'postgres' ? test : test.skip;

onServer('replicas starting together on one database migrate it once (postgres backend only)', async () => {
  const db = await createTestDatabase('postgres');
  try {
    const replicas = await Promise.all([1, 2, 3].map(() => openStorage({ url: db.url, dataDir: '' })));
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query('SELECT name FROM kysely_migration ORDER BY name');
    await c.end();
    // Each migration ran once, all of them.
    expect(rows.map((r) => r.name)).toEqual(Object.keys(await migrationProvider.getMigrations()).sort());
    await Promise.all(replicas.map((s) => s.close()));
  } finally {
    await db.drop();
  }
});

onServer('start-up gives up with a clear error when another replica holds the migration lock too long (postgres backend only)', async () => {
  const db = await createTestDatabase('postgres');
  const holder = new Client({ connectionString: db.url });
  await holder.connect();
  try {
    // The replicas' migration lock, held as a replica that is still migrating would hold it.
    await holder.query('SELECT pg_advisory_lock(7305742186173449)');
    const started = Date.now();
    await expect(openStorage({ url: db.url, dataDir: '', migrationTimeoutSeconds: 1 })).rejects.toThrow(
      'the database migration lock was not free within 1s (another replica may be migrating)',
    );
    expect(Date.now() - started).toBeLessThan(5000);
    await holder.query('SELECT pg_advisory_unlock(7305742186173449)');
    const storage = await openStorage({ url: db.url, dataDir: '', migrationTimeoutSeconds: 1 });
    await storage.close();
  } finally {
    await holder.end();
    await db.drop();
  }
});

/** A connection holding the playlists' version lock (in a transaction), so the next playlist write waits inside the server. */
async function holdPlaylistsLock(url: string): Promise<Client> {
  const blocker = new Client({ connectionString: url });
  await blocker.connect();
  await blocker.query('BEGIN');
  await blocker.query(`SELECT 1 FROM resource_version WHERE "group" = 'playlist.svc.app' FOR UPDATE`);
  return blocker;
}

/** POST of a playlist to the server at `url`, as admin. */
const postPlaylist = (url: string, name: string) =>
  fetch(`${url.replace('localhost', '127.0.0.1')}/apis/playlist.svc.app/v1/namespaces/default/playlists`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ metadata: { name }, spec: { title: name, interval: '1m' } }),
  });

onServer('shutdown lets an in-flight request finish, then refuses new connections (postgres backend only)', async () => {
  const db = await createTestDatabase('postgres');
  const config = loadConfig({ argv: ['--server.http_port=0', '--server.http_addr=127.0.0.1', `--database.url=${db.url}`], env: {}, cwd: process.cwd() });
  const server = await startServer(config, silentLogger);
  const blocker = await holdPlaylistsLock(db.url!);
  try {
    const inFlight = postPlaylist(server.url, 'late');
    await new Promise((r) => setTimeout(r, 200));
    const closing = server.close();
    await new Promise((r) => setTimeout(r, 200));
    await expect(fetch(`${server.url.replace('localhost', '127.0.0.1')}/livez`)).rejects.toThrow();
    await blocker.query('COMMIT');
    const res = await inFlight;
    expect(res.status).toBe(201);
    await closing;
  } finally {
    await blocker.end();
    await db.drop();
  }
});

onServer('shutdown does not wait past its timeout for a request stuck on the database: it stops, warning, and the work is abandoned (postgres backend only)', async () => {
  const db = await createTestDatabase('postgres');
  const lines: string[] = [];
  const log = createLogger('warn', (l) => lines.push(l));
  const config = loadConfig({ argv: ['--server.http_port=0', '--server.http_addr=127.0.0.1', `--database.url=${db.url}`, '--server.shutdown_timeout_seconds=1'], env: {}, cwd: process.cwd() });
  const server = await startServer(config, log);
  const blocker = await holdPlaylistsLock(db.url!);
  try {
    const stuck = postPlaylist(server.url, 'stuck').catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 200));
    // The lock is held throughout: close must end on its own.
    const ended = await Promise.race([server.close().then(() => 'closed'), new Promise((r) => setTimeout(r, 20_000, 'still waiting'))]);
    expect(ended).toBe('closed');
    // Its connection was closed at the timeout: no answer (fetch's TypeError, of another realm than the test's).
    expect(((await stuck) as Error).message).toBe('fetch failed');
    expect(lines.some((l) => l.includes('stopped with database work still running'))).toBe(true);
  } finally {
    await blocker.query('ROLLBACK').catch(() => undefined);
    await blocker.end();
    await db.drop();
  }
}, 60_000);
