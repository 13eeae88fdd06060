/**
 * The data source proxy (spec §4.5, anchor-breadth §2) through HTTP against a real upstream on a free port that
 * records what it receives (test/support/recording-upstream.ts): nothing outside the data source's base path ever
 * arrives there, whatever the path's encoding; no credential of the caller is forwarded and the data source's are
 * added; bodies stream both ways; the upstream's failures map to 400/502/504; the host allow-list, the plugin's
 * route table (Prometheus), the roles and the organizations hold.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream';
import { as, createUser, PASSWORD } from '../support/users';

let t: TestApp;
let up: RecordingUpstream;
/** An upstream the allow-list does not name. */
let stranger: RecordingUpstream;
/** A port nothing listens on. */
let closedPort: number;
/** The app on a real port, for requests supertest would rewrite (a raw backslash) and for timing a stream. */
let server: http.Server;
let serverPort: number;
let recId: number;

const basicOf = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const PROXY = '/api/datasources/proxy/uid';

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function addDataSource(body: Record<string, unknown>): Promise<number> {
  const res = await t.as.post('/api/datasources').send({ access: 'proxy', ...body });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

/** A raw request to the listening app: the path goes on the request line exactly as given. */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<{ status: number; body: Buffer; firstDataAt: number; startedAt: number }> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    let firstDataAt = 0;
    const req = http.request({ host: '127.0.0.1', port: serverPort, method, path, headers: { authorization: basicOf(ADMIN.user, ADMIN.password), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        firstDataAt ||= Date.now();
        chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), firstDataAt, startedAt }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every request the upstream received is below `/base/` (the data source URL's path). */
const allInsideBase = () => up.requests.every((r) => r.rawPath === '/base' || r.rawPath.startsWith('/base/'));

beforeAll(async () => {
  up = await startRecordingUpstream();
  stranger = await startRecordingUpstream();
  closedPort = await freePort();
  t = await startTestApp([`--security.data_source_proxy_whitelist=127.0.0.1:${up.port} 127.0.0.1:${closedPort}`]);
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverPort = (server.address() as AddressInfo).port;
  await createUser(t, 'pxy-viewer', { 1: 'Viewer' });
  await createUser(t, 'pxy-editor', { 1: 'Editor' });
  await createUser(t, 'pxy-none', { 1: 'None' });
  const other = await t.users.createOrg(SYSTEM, 'Proxy elsewhere');
  await createUser(t, 'pxy-other', { [other.id]: 'Admin' });
  recId = await addDataSource({
    name: 'Recorder',
    uid: 'rec',
    type: 'test-upstream',
    url: `${up.url}/base`,
    basicAuth: true,
    basicAuthUser: 'ds-user',
    jsonData: { httpHeaderName1: 'X-Scope-OrgID', keepCookies: ['theme', 'svc_session'] },
    secureJsonData: { basicAuthPassword: 'ds-secret', httpHeaderValue1: 'tenant-secret' },
  });
  await addDataSource({ name: 'Slow', uid: 'slow', type: 'test-upstream', url: `${up.url}/base`, jsonData: { timeout: 1 } });
  await addDataSource({ name: 'Prom', uid: 'prom', type: 'prometheus', url: `${up.url}/base` });
  await addDataSource({ name: 'Stranger', uid: 'stranger', type: 'test-upstream', url: stranger.url });
  await addDataSource({ name: 'Closed', uid: 'closed', type: 'test-upstream', url: `http://127.0.0.1:${closedPort}` });
  await addDataSource({ name: 'Ftp', uid: 'ftp', type: 'test-upstream', url: `ftp://127.0.0.1:${up.port}/x` });
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await up.close();
  await stranger.close();
  await t.close();
});

beforeEach(() => up.reset());

describe('forwarding', () => {
  it("forwards method, path below the data source URL, raw query and body; answers the upstream's status, headers and body", async () => {
    up.reply = () => ({ status: 201, headers: { 'content-type': 'application/json', 'x-upstream': 'yes', 'set-cookie': 'svc_session=planted; Path=/' }, body: '{"created":true}' });
    const res = await t.as.post(`${PROXY}/rec/api/v1/query?query=up%7Bjob%3D%22a%22%7D&x=1`).set('content-type', 'application/json').send('{"a":1}');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ created: true });
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(up.requests).toHaveLength(1);
    const [r] = up.requests;
    expect([r!.method, r!.rawPath, r!.body.toString()]).toEqual(['POST', '/base/api/v1/query?query=up%7Bjob%3D%22a%22%7D&x=1', '{"a":1}']);
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('forwards %s (a plugin without routes allows any method)', async (method) => {
    const res = await raw(method, `${PROXY}/rec/things/1`);
    expect(res.status).toBe(200);
    expect(up.requests.map((r) => [r.method, r.rawPath])).toEqual([[method, '/base/things/1']]);
  });

  it('forwards HEAD (served with GET) without a body', async () => {
    const res = await raw('HEAD', `${PROXY}/rec/x`);
    expect([res.status, res.body.length]).toEqual([200, 0]);
    expect(up.requests.map((r) => r.method)).toEqual(['HEAD']);
  });

  it('gives up on the upstream request when the caller goes away', async () => {
    up.reply = () => ({ delayMs: 5000, body: 'late' });
    const req = http.request({ host: '127.0.0.1', port: serverPort, path: `${PROXY}/rec/slow`, headers: { authorization: basicOf(ADMIN.user, ADMIN.password) } });
    req.on('error', () => undefined);
    req.end();
    const deadline = Date.now() + 4000;
    while (up.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    while (up.abandoned === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect([up.requests.length, up.abandoned]).toEqual([1, 1]);
  });

  it('forwards the bare data source URL and a trailing slash', async () => {
    await t.as.get(`${PROXY}/rec`).expect(200);
    await t.as.get(`${PROXY}/rec/api/`).expect(200);
    expect(up.requests.map((r) => r.rawPath)).toEqual(['/base', '/base/api/']);
  });

  it('serves the deprecated id form the same way', async () => {
    await t.as.get(`/api/datasources/proxy/${recId}/api/v1/labels?a=b`).expect(200);
    expect(up.requests.map((r) => r.rawPath)).toEqual(['/base/api/v1/labels?a=b']);
    expect((await t.as.get('/api/datasources/proxy/abc/x')).body).toEqual({ message: 'id is invalid' });
    expect((await t.as.get('/api/datasources/proxy/999999/x')).status).toBe(404);
    expect(up.requests).toHaveLength(1);
  });
});

describe('headers', () => {
  it("never forwards the caller's credentials (basic, session cookie); sends the data source's instead", async () => {
    await createUser(t, 'pxy-cookie', { 1: 'Viewer' });
    const login = await t.anonymous.post('/login').send({ user: 'pxy-cookie', password: PASSWORD }).expect(200);
    const session = String(login.headers['set-cookie']).split(';')[0]!;
    const sessionValue = session.split('=')[1]!;
    await t.anonymous.get(`${PROXY}/rec/x`).set('Cookie', `${session}; theme=dark; other=1`).set('X-Svc-User', 'forged').expect(200);
    await t.as.get(`${PROXY}/rec/y`).set('Cookie', 'theme=light').set('Proxy-Authorization', 'Basic cDpw').expect(200);
    expect(up.requests).toHaveLength(2);
    const adminBasic = basicOf(ADMIN.user, ADMIN.password);
    for (const r of up.requests) {
      const all = JSON.stringify(r.headers);
      expect(all).not.toContain(sessionValue);
      expect(all).not.toContain(adminBasic.slice(6));
      expect(all).not.toContain('forged');
      expect(r.headers['proxy-authorization']).toBeUndefined();
      expect(r.headers.authorization).toBe(basicOf('ds-user', 'ds-secret'));
      expect(r.headers['x-scope-orgid']).toBe('tenant-secret');
      expect(r.headers['user-agent']).toBe('Svc/test');
      expect(r.headers['x-forwarded-for']).toMatch(/127\.0\.0\.1$/);
      expect(r.headers['x-forwarded-proto']).toBe('http');
      expect(r.headers['x-forwarded-host']).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(r.headers.host).toBe(`127.0.0.1:${up.port}`);
    }
    // keepCookies names theme (and the session cookie, which is never kept).
    expect(up.requests.map((r) => r.headers.cookie)).toEqual(['theme=dark', 'theme=light']);
  });

  it("drops the caller's forwarding headers and hop-by-hop headers, and sets its own", async () => {
    await t.as.get(`${PROXY}/rec/x`).set('X-Forwarded-Host', 'forged.example').set('X-Forwarded-Proto', 'gopher').set('X-Forwarded-For', '192.0.2.7').set('Connection', 'keep-alive, X-Private').set('X-Private', 'hop').set('Referer', 'http://svc/d/1').expect(200);
    const [r] = up.requests;
    expect(r!.headers['x-forwarded-for']).toMatch(/^192\.0\.2\.7, 127\.0\.0\.1$/);
    expect(r!.headers['x-forwarded-host']).not.toBe('forged.example');
    expect(r!.headers['x-forwarded-proto']).toBe('http');
    expect(r!.headers['x-private']).toBeUndefined();
    expect(r!.headers.referer).toBeUndefined();
    expect(r!.headers['x-svc-referer']).toBe('http://svc/d/1');
  });
});

describe('hostile paths', () => {
  const OUT = 'Proxy path leaves the data source URL';
  const INVALID = 'Invalid proxy path';
  /** [path after /api/datasources/proxy/uid/rec, status, message]. */
  const table: Array<[string, number, string]> = [
    ['/../../admin', 403, OUT],
    ['/api/../../../etc/passwd', 403, OUT],
    ['/..', 403, OUT],
    ['/./x', 403, OUT],
    ['/%2e%2e/%2e%2e/admin', 403, OUT],
    ['/%2E%2E/admin', 403, OUT],
    ['/%2E%2E%2Fadmin', 403, OUT],
    ['/.%2e/admin', 403, OUT],
    ['/%252e%252e/admin', 403, OUT],
    ['/%25252e%25252e/admin', 403, OUT],
    ['/api%2f..%2f..%2fadmin', 403, OUT],
    ['/..;/admin', 403, OUT],
    ['//evil.example/x', 403, OUT],
    ['/http://evil.example/', 403, OUT],
    ['/https:%2f%2fevil.example/', 403, OUT],
    ['/%2f%2fevil.example/x', 403, OUT],
    ['/..%5cadmin', 403, OUT],
    ['/%5c%5cevil.example/x', 403, OUT],
    ['/x%255c..%255c..%255cadmin', 403, OUT],
    ['/a%2500b', 400, INVALID],
    ['/a%0d%0aX-Injected:%201', 400, INVALID],
    // Refused before any route reads the path (pkg/server/request-input.ts).
    ['/%00', 400, 'the request path contains a NUL character (U+0000)'],
    ['/%c0%ae%c0%ae/admin', 400, 'the request path has malformed percent-encoding'],
    ['/a%', 400, 'the request path has malformed percent-encoding'],
    ['/%2525252525252e', 400, INVALID],
  ];

  it.each(table)('%s: %i, and nothing reaches the upstream', async (path, status, message) => {
    const res = await t.as.get(`${PROXY}/rec${path}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
    expect(up.requests).toEqual([]);
  });

  it.each([
    ['/@evil.example/x', '/base/@evil.example/x'],
    ['/x@evil.example:80/y', '/base/x@evil.example:80/y'],
    ['/a/b?next=http://evil.example/&u=..%2F..', '/base/a/b?next=http://evil.example/&u=..%2F..'],
    ['/%40evil.example', '/base/%40evil.example'],
    ['/a..b/c...', '/base/a..b/c...'],
  ])('%s stays below the base path: %s', async (path, expected) => {
    await t.as.get(`${PROXY}/rec${path}`).expect(200);
    expect(up.requests.map((r) => r.rawPath)).toEqual([expected]);
    expect(allInsideBase()).toBe(true);
  });

  it('refuses raw backslashes, which supertest would rewrite, and the id form alike', async () => {
    for (const path of [`${PROXY}/rec/..\\..\\admin`, `${PROXY}/rec/\\\\evil.example\\x`, `/api/datasources/proxy/${recId}/%2e%2e/admin`, `/api/datasources/proxy/${recId}/../x`]) {
      const res = await raw('GET', path);
      expect([path, res.status, JSON.parse(res.body.toString()).message]).toEqual([path, 403, OUT]);
    }
    expect(up.requests).toEqual([]);
  });

  it('refuses an absolute-form request target and a data source URL that is not http(s)', async () => {
    expect((await raw('GET', `http://evil.example${PROXY}/rec/x`)).status).toBe(400);
    const ftp = await t.as.get(`${PROXY}/ftp/x`);
    expect([ftp.status, ftp.body.message]).toEqual([400, `Invalid data source URL: "ftp://127.0.0.1:${up.port}/x"`]);
    expect(up.requests).toEqual([]);
  });
});

describe('the upstream failing', () => {
  it('401 becomes 400 "Authentication to data source failed" (the caller\'s session is not the one refused)', async () => {
    up.reply = () => ({ status: 401, headers: { 'www-authenticate': 'Basic realm="x"' }, body: 'no' });
    const res = await t.as.get(`${PROXY}/rec/secret`);
    expect([res.status, res.text, res.headers['www-authenticate']]).toEqual([400, 'Authentication to data source failed', undefined]);
  });

  it('other statuses pass as they are', async () => {
    up.reply = () => ({ status: 503, body: 'busy' });
    const res = await t.as.get(`${PROXY}/rec/x`);
    expect([res.status, res.text]).toEqual([503, 'busy']);
  });

  it('an unreachable upstream is 502 with an empty body', async () => {
    const res = await t.as.get(`${PROXY}/closed/x`);
    expect([res.status, res.text]).toEqual([502, '']);
  });

  it("no answer within jsonData.timeout is 504 with an empty body", async () => {
    up.reply = () => ({ delayMs: 4000, body: 'late' });
    const started = Date.now();
    const res = await t.as.get(`${PROXY}/slow/x`);
    expect([res.status, res.text]).toEqual([504, '']);
    expect(Date.now() - started).toBeLessThan(3500);
    expect(up.requests).toHaveLength(1);
  });
});

describe('streaming', () => {
  it('streams a request body larger than server.max_request_body_bytes to the upstream, byte for byte', async () => {
    const body = Buffer.alloc(24 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 4096) body.writeUInt32BE(i, i);
    const res = await raw('POST', `${PROXY}/rec/upload`, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) }, body);
    expect(res.status).toBe(200);
    expect(up.requests).toHaveLength(1);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect([up.requests[0]!.body.length, sha(up.requests[0]!.body)]).toEqual([body.length, sha(body)]);
  }, 60_000);

  it('streams a JSON body without reading it (the proxy has no JSON limit or parser)', async () => {
    const res = await t.as.post(`${PROXY}/rec/x`).set('content-type', 'application/json').send('{not json');
    expect(res.status).toBe(200);
    expect(up.requests[0]!.body.toString()).toBe('{not json');
  });

  it("passes the upstream's answer on as it comes: the first chunk arrives before the upstream has sent the last", async () => {
    const mib = Buffer.alloc(1024 * 1024, 'a');
    up.reply = () => ({ status: 200, headers: { 'content-type': 'application/octet-stream' }, chunks: [mib, ...Array.from({ length: 15 }, () => mib), 'end'], chunkDelayMs: 100 });
    const res = await raw('GET', `${PROXY}/rec/download`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(16 * 1024 * 1024 + 3);
    // 16 chunks 100 ms apart: the whole answer takes 1.5 s at least; its first bytes came well before.
    expect(res.firstDataAt - res.startedAt).toBeLessThan(1000);
  }, 30_000);
});

describe('who may proxy what', () => {
  it('anonymous is 401; a Viewer and an Editor proxy (Query on a new data source); a member without a role is 403', async () => {
    expect((await t.anonymous.get(`${PROXY}/rec/x`)).status).toBe(401);
    await as(t, 'pxy-viewer').get(`${PROXY}/rec/x`).expect(200);
    await as(t, 'pxy-editor').get(`${PROXY}/rec/x`).expect(200);
    const none = await as(t, 'pxy-none').get(`${PROXY}/rec/x`);
    expect([none.status, none.body]).toEqual([403, { message: 'Access denied to datasource' }]);
    expect(up.requests).toHaveLength(2);
  });

  it("another organization's data source is not found; malformed and unknown uids", async () => {
    const other = await as(t, 'pxy-other').get(`${PROXY}/rec/x`);
    expect([other.status, other.body]).toEqual([404, { message: 'Unable to find datasource' }]);
    expect((await as(t, 'pxy-other').get(`/api/datasources/proxy/${recId}/x`)).status).toBe(404);
    expect((await t.as.get(`${PROXY}/no-such-uid/x`)).body).toEqual({ message: 'Unable to find datasource' });
    expect((await t.as.get(`${PROXY}/bad.uid/x`)).body).toEqual({ message: 'UID is invalid' });
    expect(up.requests).toEqual([]);
  });

  it('refuses an upstream host the allow-list does not name (403), and calls nothing', async () => {
    const res = await t.as.get(`${PROXY}/stranger/x`);
    expect([res.status, res.body]).toEqual([403, { message: 'Data proxy hostname and ip are not included in whitelist' }]);
    expect(stranger.requests).toEqual([]);
  });
});

describe("Prometheus' route table", () => {
  it.each([
    ['pxy-viewer', 'GET', '/api/v1/status/buildinfo', 200],
    ['pxy-viewer', 'GET', '/api/v1/query?query=up', 200],
    ['pxy-viewer', 'POST', '/api/v1/query', 200],
    ['pxy-viewer', 'POST', '/api/v1/query_range', 200],
    ['pxy-viewer', 'POST', '/api/v1/admin/tsdb/delete_series', 403],
    ['pxy-viewer', 'PUT', '/api/v1/query', 403],
    ['pxy-viewer', 'DELETE', '/rules/ns', 403],
    ['pxy-editor', 'DELETE', '/rules/ns', 200],
    ['pxy-editor', 'POST', '/rules/ns', 200],
    ['pxy-editor', 'GET', '/api/v1/status/flags', 403],
    ['admin', 'GET', '/api/v1/status/flags', 200],
    ['admin', 'POST', '/api/v1/admin/tsdb/snapshot', 403],
    ['admin', 'DELETE', '/api/v1/series', 403],
  ] as const)('%s %s %s: %i', async (login, method, path, status) => {
    const client = login === 'admin' ? t.as : as(t, login);
    const res = await client[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](`${PROXY}/prom${path}`);
    expect(res.status).toBe(status);
    expect(up.requests.length).toBe(status === 200 ? 1 : 0);
    if (status === 200) expect(up.requests[0]!.method).toBe(method);
  });

  it("words the refusals as the anchor's", async () => {
    expect((await t.as.post(`${PROXY}/prom/api/v1/admin/tsdb/delete_series`)).body).toEqual({ message: 'non allow-listed POSTs not allowed on proxied prometheus datasource' });
    expect((await as(t, 'pxy-viewer').delete(`${PROXY}/prom/rules/ns`)).body).toEqual({ message: 'plugin proxy route access denied' });
  });
});
