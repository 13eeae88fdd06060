/**
 * One JSON log line per request (id, method, route template, status, duration, caller, org; never credentials),
 * the level setting applied; the warning about a default administrator password on a reachable server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger, type LogLevel } from '../../pkg/log';
import { listensBeyondLoopback, warnDefaultAdminPassword } from '../../pkg/server/startup-warnings';
import { loadConfig } from '../../pkg/config';
import { startTestApp, type TestApp } from '../support/app';
import { exited, runMain, startedUrl } from '../support/server-process';

type Line = Record<string, unknown>;

function capture(level: LogLevel = 'debug') {
  const lines: Line[] = [];
  return { lines, log: createLogger(level, (l) => lines.push(JSON.parse(l) as Line)), requests: () => lines.filter((l) => l.msg === 'request') };
}

const PLAYLISTS = '/apis/playlist.svc.app/v1/namespaces/default/playlists';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let t: TestApp;
const out = capture();
beforeAll(async () => {
  t = await startTestApp([], undefined, { log: out.log });
}, 120_000);
afterAll(() => t.close());
beforeEach(() => out.lines.splice(0));

/** The line of the one request made since the last reset (it is written when the answer has gone). */
async function lastRequest(): Promise<Line> {
  for (let i = 0; i < 50 && out.requests().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(out.requests()).toHaveLength(1);
  return out.requests()[0];
}

test('a request is logged once with the id it came with (echoed), its route template, status, duration, caller and org', async () => {
  const res = await t.as.post(PLAYLISTS).set('X-Request-Id', 'trace-42.a').send({ metadata: { name: 'logged' }, spec: { title: 'L', interval: '5m' } });
  expect(res.status).toBe(201);
  expect(res.headers['x-request-id']).toBe('trace-42.a');
  const line = await lastRequest();
  expect(line).toMatchObject({
    level: 'info',
    requestId: 'trace-42.a',
    method: 'POST',
    route: '/apis/:group/:version/namespaces/:namespace/:resource',
    path: PLAYLISTS,
    status: 201,
    caller: 'user:admin',
    login: 'admin',
    org: 1,
  });
  expect(typeof line.durationMs).toBe('number');
  expect(line.durationMs as number).toBeGreaterThan(0);
  expect(typeof line.time).toBe('string');
});

test('without an acceptable X-Request-Id the server makes one, echoes and logs it', async () => {
  const res = await t.as.get(`${PLAYLISTS}/logged?watch=false`);
  const id = res.headers['x-request-id'];
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const line = await lastRequest();
  expect(line).toMatchObject({ requestId: id, route: '/apis/:group/:version/namespaces/:namespace/:resource/:name', status: 200 });
  // The query string is not logged (it may carry anything).
  expect(line.path).toBe(`${PLAYLISTS}/logged`);

  out.lines.splice(0);
  const spaced = await t.as.get('/api/folders').set('X-Request-Id', 'has a space');
  expect(spaced.headers['x-request-id']).not.toBe('has a space');
  expect((await lastRequest()).requestId).toBe(spaced.headers['x-request-id']);
  out.lines.splice(0);
  const long = await t.as.get('/api/folders').set('X-Request-Id', 'x'.repeat(129));
  expect(long.headers['x-request-id']).toHaveLength(36);
});

test('legacy routes are logged by template; a refused or unknown request as "unmatched"; credentials never appear', async () => {
  await t.as.get('/api/folders/no-such-folder');
  expect(await lastRequest()).toMatchObject({ route: '/api/folders/:uid', status: 404, caller: 'user:admin' });

  out.lines.splice(0);
  const refused = await t.anonymous.get(PLAYLISTS).set('Authorization', basic('admin', 'wrong-secret-pw'));
  expect(refused.status).toBe(401);
  const line = await lastRequest();
  expect(line).toMatchObject({ route: 'unmatched', status: 401 });
  expect(line).not.toHaveProperty('caller');

  out.lines.splice(0);
  await t.as.get('/no/such/path');
  expect(await lastRequest()).toMatchObject({ route: 'unmatched', status: 404 });

  const text = JSON.stringify(out.lines);
  expect(text).not.toContain('wrong-secret-pw');
  expect(text).not.toContain(Buffer.from('admin:wrong-secret-pw').toString('base64'));
  expect(text).not.toContain(Buffer.from('admin:admin').toString('base64'));
});

test('a client that goes away before any answer is logged and counted as 499 aborted, not as the 200 a response starts with', async () => {
  const net = await import('node:net');
  // An upstream that takes connections and never answers: the proxied request waits until its client goes.
  const silent = net.createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const server = t.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const upstream = `http://127.0.0.1:${(silent.address() as import('node:net').AddressInfo).port}`;
    await t.as.post('/api/datasources').send({ name: 'silent', uid: 'silent', type: 'prometheus', access: 'proxy', url: upstream }).expect(200);
    out.lines.splice(0);
    const { port } = server.address() as import('node:net').AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(`GET /api/datasources/proxy/uid/silent/api/v1/query HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('admin', 'admin')}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    const line = await lastRequest();
    expect(line).toMatchObject({ method: 'GET', status: 499, aborted: true });
  } finally {
    server.close();
    silent.close();
  }
  const metrics = await t.as.get('/metrics');
  expect(metrics.text).toMatch(/http_requests_total\{method="GET",route="[^"]*proxy[^"]*",status="499"\} 1/);
});

test('probes are logged at debug; the level setting applies (at warn no request line is written)', async () => {
  await t.anonymous.get('/livez');
  expect(await lastRequest()).toMatchObject({ level: 'debug', route: '/livez', status: 200 });

  const quiet = capture('warn');
  const app = await startTestApp([], undefined, { log: quiet.log });
  try {
    await app.as.get(PLAYLISTS).expect(200);
    await app.as.get('/api/folders/nope').expect(404);
    expect(quiet.requests()).toEqual([]);
  } finally {
    await app.close();
  }
}, 120_000);

test('listensBeyondLoopback: the wildcard and other addresses do, loopback addresses do not', () => {
  for (const addr of ['', '0.0.0.0', '::', '10.1.2.3', 'example.internal']) expect(listensBeyondLoopback(addr)).toBe(true);
  for (const addr of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) expect(listensBeyondLoopback(addr)).toBe(false);
});

test('a loud warning when the stored administrator has the default password and the server is reachable; none otherwise', async () => {
  const warnings = async (flags: string[]) => {
    const c = capture();
    await warnDefaultAdminPassword(loadConfig({ argv: flags, env: {}, cwd: process.cwd() }), t.users, c.log);
    return c.lines.filter((l) => l.level === 'warn').map((l) => String(l.msg));
  };
  const reachable = await warnings(['--server.http_addr=0.0.0.0']);
  expect(reachable).toHaveLength(1);
  expect(reachable[0]).toContain('SECURITY WARNING: the administrator "admin" has the default password');
  expect(await warnings([])).toHaveLength(1);
  expect(await warnings(['--server.http_addr=127.0.0.1'])).toEqual([]);

  // Once the password is changed, the warning stops (whatever the configuration still says).
  const admin = (await t.users.userByLoginOrEmail('admin'))!;
  await t.as.put(`/api/admin/users/${admin.id}/password`).send({ password: 'a-long-new-one' }).expect(200);
  try {
    expect(await warnings(['--server.http_addr=0.0.0.0'])).toEqual([]);
  } finally {
    await t.anonymous.put(`/api/admin/users/${admin.id}/password`).set('Authorization', basic('admin', 'a-long-new-one')).send({ password: 'admin' }).expect(200);
  }
});

test('the process logs its start (with the warning when reachable with the default password), a SIGHUP, its requests and its stop', async () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-log-'));
  // Every interface ('' is the default), port 0: reachable from elsewhere, hence the warning.
  const child = runMain(['--server.http_port=0'], { SVC_PATHS_DATA: data });
  try {
    // A loaded machine (the suites run in parallel) may take minutes to transpile and start it.
    const url = await startedUrl(child, 180_000);
    const lines = () => child.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
    const started = lines().find((l) => l.msg === 'server started')!;
    expect(started).toMatchObject({ level: 'info', database: 'embedded', edition: 'oss', pid: child.pid });
    const securityWarnings = () => lines().filter((l) => l.level === 'warn' && String(l.msg).includes('SECURITY WARNING'));
    for (let i = 0; i < 100 && securityWarnings().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    // Once (other warnings, such as the default secret_key's, are not this test's).
    expect(securityWarnings().map((l) => l.msg)).toEqual([expect.stringContaining('the administrator "admin" has the default password')]);

    child.kill('SIGHUP');
    for (let i = 0; i < 100 && !child.output().includes('SIGHUP'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(lines().some((l) => l.msg === 'reload requested (SIGHUP): nothing to reload with server.protocol=http')).toBe(true);
    const res = await fetch(`${url}/apis/playlist.svc.app/v1/namespaces/default/playlists`, { headers: { Authorization: basic('admin', 'admin') } });
    expect(res.status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    const msgs = lines().map((l) => l.msg);
    expect(msgs).toEqual(expect.arrayContaining(['request', 'shutting down', 'server stopped']));
    expect(lines().find((l) => l.msg === 'request')).toMatchObject({ requestId: res.headers.get('x-request-id'), route: '/apis/:group/:version/namespaces/:namespace/:resource', status: 200 });
    expect(msgs.indexOf('server stopped')).toBeGreaterThan(msgs.indexOf('shutting down'));
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(data, { recursive: true, force: true });
  }
}, 300_000);
