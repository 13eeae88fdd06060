/**
 * The `[dataproxy]` settings as the proxy applies them, on a server started with non-default values, against a real
 * upstream that records what it receives: `user_agent`, `send_user_header` (not for an anonymous visitor), `timeout`;
 * and an https upstream, whose certificate is checked unless the data source says `tlsSkipVerify`.
 */
import { generateSelfSigned } from '../../pkg/server/tls-certificate';
import { startTestApp, type TestApp } from '../support/app';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream';
import { as, createUser } from '../support/users';

let t: TestApp;
let up: RecordingUpstream;
let secure: RecordingUpstream;

beforeAll(async () => {
  up = await startRecordingUpstream();
  secure = await startRecordingUpstream({ tls: await generateSelfSigned({ dns: ['localhost'], ips: ['127.0.0.1'] }) });
  t = await startTestApp([
    '--dataproxy.user_agent=Custom-Agent/2',
    '--dataproxy.send_user_header=true',
    '--dataproxy.timeout=1',
    '--auth.anonymous.enabled=true',
  ]);
  await createUser(t, 'ps-viewer', { 1: 'Viewer' });
  expect((await t.as.post('/api/datasources').send({ name: 'Up', uid: 'up', type: 'test-upstream', access: 'proxy', url: up.url })).status).toBe(200);
  expect((await t.as.post('/api/datasources').send({ name: 'Checked', uid: 'checked', type: 'test-upstream', access: 'proxy', url: `${secure.url}/s` })).status).toBe(200);
  const skip = { name: 'Unchecked', uid: 'unchecked', type: 'test-upstream', access: 'proxy', url: `${secure.url}/s`, jsonData: { tlsSkipVerify: true } };
  expect((await t.as.post('/api/datasources').send(skip)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await up.close();
  await secure.close();
  await t.close();
});

beforeEach(() => {
  up.reset();
  secure.reset();
});

it("sends dataproxy.user_agent, and the caller's login as X-Svc-User with send_user_header", async () => {
  await as(t, 'ps-viewer').get('/api/datasources/proxy/uid/up/x').set('X-Svc-User', 'admin').expect(200);
  expect(up.requests.map((r) => [r.headers['user-agent'], r.headers['x-svc-user']])).toEqual([['Custom-Agent/2', 'ps-viewer']]);
});

it('sends no X-Svc-User for an anonymous visitor, and drops a forged one', async () => {
  await t.anonymous.get('/api/datasources/proxy/uid/up/x').set('X-Svc-User', 'admin').expect(200);
  expect(up.requests).toHaveLength(1);
  expect(up.requests[0]!.headers['x-svc-user']).toBeUndefined();
});

it('answers 504 after dataproxy.timeout seconds without an answer', async () => {
  up.reply = () => ({ delayMs: 3000, body: 'late' });
  const started = Date.now();
  const res = await as(t, 'ps-viewer').get('/api/datasources/proxy/uid/up/slow');
  expect(res.status).toBe(504);
  expect(Date.now() - started).toBeLessThan(2800);
});

it("refuses an https upstream's self-signed certificate (502, nothing sent), unless the data source says tlsSkipVerify", async () => {
  const checked = await as(t, 'ps-viewer').get('/api/datasources/proxy/uid/checked/x');
  expect([checked.status, checked.text]).toEqual([502, '']);
  expect(secure.requests).toEqual([]);
  await as(t, 'ps-viewer').get('/api/datasources/proxy/uid/unchecked/x?y=1').expect(200);
  expect(secure.requests.map((r) => [r.rawPath, r.headers.host])).toEqual([['/s/x?y=1', `127.0.0.1:${secure.port}`]]);
});
