/**
 * GET /api/datasources/uid/:uid/health (and /:id/health) and /api/datasources/uid/:uid/resources/* (and
 * /:id/resources/*) over HTTP (anchor-breadth §1.11, §1.12, §4) with the testdata plugin: answers, the caller's
 * credentials withheld from the plugin, malformed uids and ids, unknown and other organizations' data sources,
 * data sources without a plugin, and a Viewer whose Query permission was revoked (enterprise edition).
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

let t: TestApp;
let tdId: number;

async function dataSource(client: TestApp['as'], uid: string, type = 'svc-testdata-datasource'): Promise<number> {
  const res = await client.post('/api/datasources').send({ uid, name: uid, type, access: 'proxy', url: type === 'loki' ? 'http://loki' : '' });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

beforeAll(async () => {
  t = await startTestApp(['--server.edition=enterprise']);
  tdId = await dataSource(t.as, 'hr-td');
  await dataSource(t.as, 'hr-loki', 'loki');
  await createUser(t, 'hr-viewer', { 1: 'Viewer' });
  const other = await t.users.createOrg(SYSTEM, 'Health elsewhere');
  await createUser(t, 'hr-other', { [other.id]: 'Admin' });
  await dataSource(as(t, 'hr-other'), 'hr-other-td');
});
afterAll(() => t.close());

describe('health', () => {
  it('answers the plugin\'s check by uid and by id, to a Viewer too', async () => {
    const ok = { status: 'OK', message: 'Data source is working' };
    expect([(await t.as.get('/api/datasources/uid/hr-td/health')).status, (await t.as.get('/api/datasources/uid/hr-td/health')).body]).toEqual([200, ok]);
    expect((await t.as.get(`/api/datasources/${tdId}/health`)).body).toEqual(ok);
    expect((await as(t, 'hr-viewer').get('/api/datasources/uid/hr-td/health')).body).toEqual(ok);
  });

  it.each([
    ['a malformed uid', '/api/datasources/uid/a.b/health', 400, { message: 'UID is invalid' }],
    ['a too long uid', `/api/datasources/uid/${'x'.repeat(41)}/health`, 400, { message: 'UID is invalid' }],
    ['an id that is no number', '/api/datasources/abc/health', 400, { message: 'id is invalid' }],
    ['an unknown uid', '/api/datasources/uid/nope/health', 404, { message: 'Data source not found' }],
    ['an unknown id', '/api/datasources/987654/health', 404, { message: 'Data source not found' }],
    ['another organization\'s uid', '/api/datasources/uid/hr-other-td/health', 404, { message: 'Data source not found' }],
    ['a type no plugin serves', '/api/datasources/uid/hr-loki/health', 404, { statusCode: 404, messageId: 'plugin.notRegistered', message: 'Plugin not registered' }],
  ])('%s', async (_name, path, status, body) => {
    const res = await t.as.get(path);
    expect([res.status, res.body]).toEqual([status, body]);
  });
});

it('leaves /api/datasources/uid/health and /name/health to the data source routes (a data source named "health")', async () => {
  const id = await dataSource(t.as, 'health');
  expect((await t.as.get('/api/datasources/uid/health')).body).toMatchObject({ uid: 'health', id });
  expect((await t.as.get('/api/datasources/name/health')).body).toMatchObject({ uid: 'health', id });
  expect((await t.as.get('/api/datasources/uid/resources')).status).toBe(404);
  expect((await t.as.get('/api/datasources/uid/health/health')).body).toEqual({ status: 'OK', message: 'Data source is working' });
});

describe('resources', () => {
  it('answers the root text, the scenarios and the echo, by uid and by id', async () => {
    const root = await t.as.get('/api/datasources/uid/hr-td/resources');
    expect([root.status, root.text, root.headers['content-type']]).toEqual([200, 'Hello world from test datasource!', 'text/plain; charset=utf-8']);
    expect((await t.as.get(`/api/datasources/${tdId}/resources/`)).text).toBe('Hello world from test datasource!');
    const scenarios = await t.as.get('/api/datasources/uid/hr-td/resources/scenarios');
    expect(scenarios.status).toBe(200);
    const ids = scenarios.body.map((s: { id: string }) => s.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining(['random_walk', 'csv_content', 'csv_metric_values', 'predictable_pulse', 'predictable_csv_wave', 'random_walk_table', 'no_data_points']));
    expect(scenarios.body.find((s: { id: string }) => s.id === 'csv_metric_values')).toEqual({ id: 'csv_metric_values', name: 'CSV Metric Values', description: expect.any(String), stringInput: '1,20,90,30,5,0' });
  });

  it('echoes method, path, query, headers and body, never the caller\'s credentials', async () => {
    const res = await t.as.post(`/api/datasources/${tdId}/resources/test/json?a=1&b=x%20y`).set('Cookie', 'svc_session=secret').set('X-Custom', 'kept').send({ hello: 'world' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Hello world from test datasource!', request: { method: 'POST', url: '/test/json?a=1&b=x%20y', body: { hello: 'world' } } });
    expect(res.body.request.headers['x-custom']).toBe('kept');
    expect(res.body.request.headers.authorization).toBeUndefined();
    expect(res.body.request.headers.cookie).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/Basic |secret/);
    expect(res.headers['content-security-policy']).toBe('sandbox');
    // Any method; a text body reaches the plugin as text.
    const put = await t.as.put('/api/datasources/uid/hr-td/resources/test').set('Content-Type', 'text/plain').send('plain words');
    expect(put.body.request).toMatchObject({ method: 'PUT', url: '/test', body: 'plain words' });
    for (const method of ['patch', 'delete'] as const) expect((await t.as[method]('/api/datasources/uid/hr-td/resources/test')).body.request.method).toBe(method.toUpperCase());
  });

  it.each([
    ['a path the plugin does not serve', 'get', '/api/datasources/uid/hr-td/resources/nothing/here', 404, { message: 'Not found' }],
    ['a malformed uid', 'get', '/api/datasources/uid/a.b/resources/scenarios', 400, { message: 'UID is invalid' }],
    ['an id that is no number', 'post', '/api/datasources/x1/resources/test', 400, { message: 'id is invalid' }],
    ['an unknown uid', 'get', '/api/datasources/uid/nope/resources/scenarios', 404, { message: 'Data source not found' }],
    ['another organization\'s uid', 'delete', '/api/datasources/uid/hr-other-td/resources/test', 404, { message: 'Data source not found' }],
    ['a type no plugin serves', 'get', '/api/datasources/uid/hr-loki/resources/api/v1/labels', 404, { statusCode: 404, messageId: 'plugin.notRegistered', message: 'Plugin not registered' }],
  ] as const)('%s', async (_name, method, path, status, body) => {
    const res = await t.as[method](path);
    expect([res.status, res.body]).toEqual([status, body]);
  });
});

it('refuses a Viewer whose Query permission was revoked (403), health and resources alike; 401 without credentials', async () => {
  const id = await dataSource(t.as, 'hr-private');
  const viewer = as(t, 'hr-viewer');
  expect((await viewer.get('/api/datasources/uid/hr-private/resources/scenarios')).status).toBe(200);
  expect((await t.as.post(`/api/datasources/${id}/enable-permissions`)).status).toBe(200);
  for (const path of ['/api/datasources/uid/hr-private/health', `/api/datasources/${id}/health`, '/api/datasources/uid/hr-private/resources/scenarios', `/api/datasources/${id}/resources/test`]) {
    const res = await viewer.get(path);
    expect([path, res.status, res.body]).toEqual([path, 403, { message: 'Access denied to datasource' }]);
    expect((await t.anonymous.get(path)).status).toBe(401);
  }
  expect((await t.as.get('/api/datasources/uid/hr-private/health')).status).toBe(200);
});
