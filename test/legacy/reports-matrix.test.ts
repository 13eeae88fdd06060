/**
 * The reporting area's authorization matrix (the shared matrix serves the open-source edition, where these routes
 * are 404) and its hostile input: each of the 11 routes, called by every kind of caller, gets the status its row
 * says, a refusal being a `{message}` that changes nothing stored; a route added to the area without a row fails the
 * guard test. Hostile bodies and query strings get a 4xx `{message}`, never a 5xx, and store nothing.
 */
import { internalKinds, reportKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { reportsArea } from '../../legacy-adapters/reports';
import { routeName } from '../../legacy-adapters';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';
import { type RecordingSmtp, startRecordingSmtp } from './reports-support';

type Caller = 'anonymous' | 'viewer' | 'editor' | 'orgAdmin' | 'serverAdmin' | 'otherOrg' | 'serviceAccount';
const CALLERS: readonly Caller[] = ['anonymous', 'viewer', 'editor', 'orgAdmin', 'serverAdmin', 'otherOrg', 'serviceAccount'];
type Expect = Record<Caller, number>;
/** The anchor's fixed reports roles are basic Admins'; an Admin service account holds them too. */
const admins = (ok = 200): Expect => ({ anonymous: 401, viewer: 403, editor: 403, orgAdmin: ok, serverAdmin: ok, otherOrg: 403, serviceAccount: ok });
/** Rendering: any member who may read the dashboard (a root dashboard's defaults let Viewers read it). */
const readers = (ok = 200): Expect => ({ anonymous: 401, viewer: ok, editor: ok, orgAdmin: ok, serverAdmin: ok, otherOrg: 403, serviceAccount: ok });

interface Call {
  path: string;
  body?: unknown;
}
interface Row {
  route: string;
  call: () => Promise<Call> | Call;
  expect: Expect;
}

let t: TestApp;
let smtp: RecordingSmtp;
let saKey = '';
let dashboardId = 0;
const body = (name = 'Matrix') => ({ name, recipients: 'm@example.org', schedule: { frequency: 'never' }, dashboards: [{ dashboard: { uid: 'mx-board' } }] });
const report = async (name = 'Matrix') => (await t.as.post('/api/reports').send(body(name)).expect(200)).body.id as number;

const ROWS: Row[] = [
  { route: 'GET /api/reports/settings', call: () => ({ path: '/api/reports/settings' }), expect: admins() },
  { route: 'POST /api/reports/settings', call: () => ({ path: '/api/reports/settings', body: { branding: { emailFooterMode: 'none' } } }), expect: admins() },
  { route: 'POST /api/reports/email', call: async () => ({ path: '/api/reports/email', body: { id: String(await report()), useEmailsFromReport: true } }), expect: admins() },
  { route: 'POST /api/reports/test-email', call: () => ({ path: '/api/reports/test-email', body: body() }), expect: admins() },
  { route: 'GET /api/reports/render/pdfs', call: () => ({ path: '/api/reports/render/pdfs?dashboardID=mx-board' }), expect: readers() },
  { route: 'GET /api/reports/render/pdf/:dashboardID', call: () => ({ path: `/api/reports/render/pdf/${dashboardId}` }), expect: readers() },
  { route: 'GET /api/reports', call: () => ({ path: '/api/reports' }), expect: admins() },
  { route: 'POST /api/reports', call: () => ({ path: '/api/reports', body: body() }), expect: admins() },
  { route: 'GET /api/reports/:id', call: async () => ({ path: `/api/reports/${await report()}` }), expect: admins() },
  { route: 'PUT /api/reports/:id', call: async () => ({ path: `/api/reports/${await report()}`, body: body('Changed') }), expect: admins() },
  { route: 'DELETE /api/reports/:id', call: async () => ({ path: `/api/reports/${await report()}` }), expect: admins() },
];

/** Every Report of org 1, as stored (what a refusal must leave alone). */
async function stored(): Promise<unknown[]> {
  const registry = t.registry.companion(internalKinds);
  return (await registry.list({ requester: SYSTEM, namespace: 'default', fieldManager: 'test' }, anyKind(reportKind), {})).items.map((o) => [o.metadata.name, o.metadata.resourceVersion]);
}

function send(who: Caller, method: string, call: Call) {
  const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
  let req = t.anonymous[verb](call.path).set('X-Svc-Org-Id', '1');
  if (who === 'serverAdmin') req = req.auth(ADMIN.user, ADMIN.password);
  else if (who === 'serviceAccount') req = req.set('Authorization', `Bearer ${saKey}`);
  else if (who !== 'anonymous') req = req.auth(`mx-${who}`, PASSWORD);
  return call.body === undefined ? req : req.send(call.body as object);
}

beforeAll(async () => {
  smtp = await startRecordingSmtp();
  t = await startTestApp(['--server.edition=enterprise', '--smtp.enabled=true', `--smtp.host=127.0.0.1:${smtp.port}`]);
  const created = await t.as.post(DASHBOARDS).send({ metadata: { name: 'mx-board' }, spec: { title: 'Matrix board' } }).expect(201);
  dashboardId = Number(created.body.metadata.labels['svc.app/deprecatedInternalID']);
  await createUser(t, 'mx-viewer', { 1: 'Viewer' });
  await createUser(t, 'mx-editor', { 1: 'Editor' });
  await createUser(t, 'mx-orgAdmin', { 1: 'Admin' });
  const other = await t.users.createOrg(SYSTEM, 'Matrix elsewhere');
  await createUser(t, 'mx-otherOrg', { [other.id]: 'Admin' });
  const sa = await t.as.post('/api/serviceaccounts').send({ name: 'mx-robot', role: 'Admin' });
  saKey = (await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'mx-robot' })).body.key;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

test('every route of the reporting area has a row', () => {
  expect(ROWS.map((r) => r.route).sort()).toEqual(reportsArea.routes.map(routeName).sort());
});

describe.each(ROWS.map((row) => [row.route, row] as const))('%s', (_route, row) => {
  test.each(CALLERS.map((c) => [c, row.expect[c]] as const))('%s gets %i', async (who, status) => {
    const call = await row.call();
    const before = await stored();
    const res = await send(who, row.route.split(' ')[0]!, call);
    expect({ who, path: call.path, status: res.status }).toEqual({ who, path: call.path, status });
    if (status >= 400) {
      expect(typeof res.body.message).toBe('string');
      expect(await stored()).toEqual(before);
    }
  });
});

describe('hostile input', () => {
  it.each([
    ['malformed JSON', () => t.as.post('/api/reports').set('Content-Type', 'application/json').send('{"name":')],
    ['a NUL in the name', () => t.as.post('/api/reports').send({ ...body(), name: 'a\u0000b' })],
    ['a lone surrogate in the message', () => t.as.post('/api/reports').send({ ...body(), message: 'x\ud800y' })],
    ['a deeply nested report variable', () => t.as.post('/api/reports').send({ ...body(), templateVars: JSON.parse(`${'{"n":'.repeat(200)}1${'}'.repeat(200)}`) })],
    ['a thousand and one recipients', () => t.as.post('/api/reports').send({ ...body(), recipients: Array.from({ length: 1001 }, (_, i) => `r${i}@example.org`).join(',') })],
    ['a huge name', () => t.as.post('/api/reports').send({ ...body(), name: 'x'.repeat(100_000) })],
    ['recipients of the wrong type', () => t.as.post('/api/reports').send({ ...body(), recipients: { a: 1 } })],
    ['a schedule that is a string', () => t.as.post('/api/reports').send({ ...body(), schedule: 'daily' })],
    ['an id past the safe integers', () => t.as.get('/api/reports/99999999999999999999')],
    ['a NUL in the rendered dashboard', () => t.as.get('/api/reports/render/pdfs?dashboardID=a%00b')],
    ['a lone surrogate in the rendered dashboard', () => t.as.get('/api/reports/render/pdfs?dashboardID=%ED%A0%80')],
    ['a dashboard id past the safe integers', () => t.as.get('/api/reports/render/pdf/99999999999999999999')],
    ['a NUL in the email id', () => t.as.post('/api/reports/email').send({ id: '1\u0000', useEmailsFromReport: true })],
    ['emails of the wrong type', () => t.as.post('/api/reports/email').send({ id: '1', emails: [1, 2] })],
    ['settings with a NUL', () => t.as.post('/api/reports/settings').send({ branding: { emailFooterText: 'a\u0000' } })],
    ['settings branding an array', () => t.as.post('/api/reports/settings').send({ branding: [] })],
  ])('%s: a 4xx {message}, nothing stored or sent', async (_what, request) => {
    const before = await stored();
    const sent = smtp.received.length;
    const res = await request();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof res.body.message).toBe('string');
    expect(await stored()).toEqual(before);
    expect(smtp.received.length).toBe(sent);
  });

  it('a title with characters the PDF fonts lack still renders (as ?)', async () => {
    const res = await t.as.get(`/api/reports/render/pdfs?dashboardID=mx-board&title=${encodeURIComponent('Отчёт ✓')}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
  });
});
