/**
 * Correlations (the anchor's /api/datasources/.../correlations) through HTTP: the Correlation kind between two data
 * sources of one organization, parity with /apis, and a data source's delete taking its correlations with it.
 */
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  for (const uid of ['logs', 'traces', 'metrics']) {
    expect((await t.as.post('/api/datasources').send({ name: uid, uid, type: 'svc-testdata-datasource', access: 'proxy' })).status).toBe(200);
  }
});
afterAll(() => t.close());

const CORRELATIONS = '/apis/correlation.svc.app/v1beta1/namespaces/default/correlations';
const config = { field: 'traceID', type: 'query', target: { expr: '${traceID}' }, transformations: [{ type: 'logfmt' }] };

async function create(source: string, body: Record<string, unknown>) {
  const res = await t.as.post(`/api/datasources/uid/${source}/correlations`).send(body);
  expect(res.status).toBe(200);
  return res.body.result as { uid: string } & Record<string, unknown>;
}

it('creates, reads, lists, changes and deletes a correlation in the anchor shapes; /apis shows the same object', async () => {
  const res = await t.as.post('/api/datasources/uid/logs/correlations').send({ targetUID: 'traces', label: 'Logs to traces', description: 'd', config });
  expect(res.body).toEqual({
    message: 'Correlation created',
    result: { uid: expect.any(String), orgId: 1, sourceUID: 'logs', targetUID: 'traces', label: 'Logs to traces', description: 'd', provisioned: false, config },
  });
  const { uid } = res.body.result;
  expect((await t.as.get(`/api/datasources/uid/logs/correlations/${uid}`)).body).toEqual(res.body.result);
  expect((await t.as.get('/api/datasources/uid/logs/correlations')).body).toEqual([res.body.result]);
  expect((await t.as.get('/api/datasources/correlations?sourceUID=logs')).body).toEqual([res.body.result]);
  const obj = (await t.as.get(`${CORRELATIONS}/${uid}`)).body;
  expect(obj.spec).toMatchObject({ sourceUID: 'logs', targetUID: 'traces', label: 'Logs to traces', config });
  const patched = await t.as.patch(`/api/datasources/uid/logs/correlations/${uid}`).send({ label: 'Renamed', config: { field: 'traceId' } });
  expect(patched.body).toEqual({ message: 'Correlation updated', result: { ...res.body.result, label: 'Renamed', config: { ...config, field: 'traceId' } } });
  expect((await t.as.get(`${CORRELATIONS}/${uid}`)).body.metadata.generation).toBe(2);
  // Under another source, it is not found.
  expect((await t.as.get(`/api/datasources/uid/metrics/correlations/${uid}`)).body).toEqual({ message: 'Correlation not found' });
  expect((await t.as.delete(`/api/datasources/uid/logs/correlations/${uid}`)).body).toEqual({ message: 'Correlation deleted' });
  expect((await t.as.get(`/api/datasources/uid/logs/correlations/${uid}`)).status).toBe(404);
  expect((await t.as.get('/api/datasources/uid/logs/correlations')).body).toEqual({ message: 'No correlation found' });
});

it('/apis writes what /api reads', async () => {
  const created = await t.as.post(CORRELATIONS).send({ metadata: { name: 'from-apis' }, spec: { sourceUID: 'metrics', targetUID: 'logs', label: 'M to L', config } });
  expect(created.status).toBe(201);
  expect(created.body.metadata.labels).toEqual({ 'correlation.svc.app/source': 'metrics', 'correlation.svc.app/target': 'logs' });
  expect((await t.as.get('/api/datasources/uid/metrics/correlations/from-apis')).body).toMatchObject({ uid: 'from-apis', sourceUID: 'metrics', targetUID: 'logs', label: 'M to L' });
  await t.as.delete(`${CORRELATIONS}/from-apis`);
});

it('pages the list and filters it by source', async () => {
  for (let i = 0; i < 3; i++) await create('metrics', { targetUID: 'traces', label: `p${i}`, config });
  expect((await t.as.get('/api/datasources/correlations?limit=2')).body).toHaveLength(2);
  expect((await t.as.get('/api/datasources/correlations?limit=2&page=2')).body).toHaveLength(1);
  expect((await t.as.get('/api/datasources/correlations?limit=2&page=3')).status).toBe(404);
  expect((await t.as.get('/api/datasources/correlations?sourceUID=traces')).body).toEqual({ message: 'No correlation found' });
});

it("deleting a data source deletes its correlations (from it and to it), in the delete's transaction", async () => {
  await t.as.post('/api/datasources').send({ name: 'gone', uid: 'gone', type: 'svc-testdata-datasource', access: 'proxy' });
  const from = await create('gone', { targetUID: 'logs', config });
  const to = await create('logs', { targetUID: 'gone', config });
  const kept = await create('logs', { targetUID: 'traces', config });
  expect((await t.as.delete('/api/datasources/uid/gone')).status).toBe(200);
  expect((await t.as.get(`${CORRELATIONS}/${from.uid}`)).status).toBe(404);
  expect((await t.as.get(`${CORRELATIONS}/${to.uid}`)).status).toBe(404);
  expect((await t.as.get(`${CORRELATIONS}/${kept.uid}`)).status).toBe(200);
});

it('refuses a provisioned correlation\'s change and delete with 403', async () => {
  const p = await create('logs', { targetUID: 'traces', provisioned: true, config });
  expect((await t.as.patch(`/api/datasources/uid/logs/correlations/${p.uid}`).send({ label: 'x' })).body).toEqual({ message: 'Correlation can only be edited via provisioning' });
  expect((await t.as.delete(`/api/datasources/uid/logs/correlations/${p.uid}`)).status).toBe(403);
});

describe('bad input: a clear 4xx that changes nothing', () => {
  let plain = '';
  beforeAll(async () => {
    plain = (await create('metrics', { targetUID: 'logs', config })).uid;
  });
  const all = async () => (await t.as.get(CORRELATIONS)).body.items.map((c: { metadata: { name: string; resourceVersion: string } }) => [c.metadata.name, c.metadata.resourceVersion]);
  const cases: [string, () => Promise<{ status: number; body: unknown }>, number, unknown][] = [
    ['an unknown source', () => t.as.post('/api/datasources/uid/nope/correlations').send({ targetUID: 'logs', config }), 404, { message: 'Data source not found' }],
    ['an unknown target', () => t.as.post('/api/datasources/uid/logs/correlations').send({ targetUID: 'nope', config }), 404, { message: 'Data source not found' }],
    ['a query without target', () => t.as.post('/api/datasources/uid/logs/correlations').send({ config }), 400, { message: 'targetUID: targetUID is required for a query correlation' }],
    ['no config', () => t.as.post('/api/datasources/uid/logs/correlations').send({ targetUID: 'logs' }), 400, { message: 'bad request data' }],
    ['a config without field', () => t.as.post('/api/datasources/uid/logs/correlations').send({ targetUID: 'logs', config: { type: 'query', target: {} } }), 400, expect.objectContaining({ message: expect.stringContaining('config.field') })],
    ['a bad config type', () => t.as.post('/api/datasources/uid/logs/correlations').send({ targetUID: 'logs', config: { ...config, type: 'teleport' } }), 400, expect.objectContaining({ message: expect.stringContaining('config.type') })],
    ['wrong types', () => t.as.post('/api/datasources/uid/logs/correlations').send({ targetUID: 7, config }), 400, { message: 'bad request data' }],
    ['an unknown correlation', () => t.as.patch('/api/datasources/uid/logs/correlations/nope').send({ label: 'x' }), 404, { message: 'Correlation not found' }],
    ['an empty change', () => t.as.patch(`/api/datasources/uid/metrics/correlations/${plain}`).send({}), 400, { message: 'At least one of label, description or config is required' }],
    ['a change of wrong types', () => t.as.patch(`/api/datasources/uid/metrics/correlations/${plain}`).send({ label: 1 }), 400, { message: 'bad request data' }],
  ];
  it.each(cases)('%s', async (_what, call, status, body) => {
    const before = await all();
    const res = await call();
    expect([res.status, res.body]).toEqual([status, body]);
    expect(await all()).toEqual(before);
  });

  it("another organization's data sources are not found", async () => {
    const org = await t.as.post('/api/orgs').send({ name: 'Corr elsewhere' });
    const other = String(org.body.orgId);
    expect((await t.as.post('/api/datasources').set('X-Svc-Org-Id', other).send({ name: 'theirs', uid: 'theirs', type: 'svc-testdata-datasource', access: 'proxy' })).status).toBe(200);
    expect((await t.as.post('/api/datasources/uid/logs/correlations').send({ targetUID: 'theirs', config })).body).toEqual({ message: 'Data source not found' });
    expect((await t.as.post('/api/datasources/uid/theirs/correlations').send({ targetUID: 'logs', config })).status).toBe(404);
  });

  it('is for Admins: a Viewer gets 403', async () => {
    await createUser(t, 'corr-viewer', { 1: 'Viewer' });
    expect((await as(t, 'corr-viewer').get('/api/datasources/correlations')).status).toBe(403);
    expect((await as(t, 'corr-viewer').post('/api/datasources/uid/logs/correlations').send({ targetUID: 'traces', config })).status).toBe(403);
    expect((await as(t, 'corr-viewer').get(CORRELATIONS)).body.items).toEqual([]);
  });
});
