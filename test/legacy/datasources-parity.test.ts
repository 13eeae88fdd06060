/**
 * Parity of the legacy data source routes with the DataSource kind (STYLE rule 12): what /api writes reads back
 * through /apis and the reverse, and a watch on /apis sees the writes of /api (the old default's loss of its flag
 * included).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { onJsonLines } from '../support/json-lines';
import { DATASOURCES } from '../support/paths';

let t: TestApp;
let server: http.Server;
beforeAll(async () => {
  t = await startTestApp();
  server = http.createServer(t.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const ID = 'svc.app/deprecatedInternalID';
const body = { type: 'prometheus', access: 'proxy', url: 'http://prometheus:9090', basicAuth: true, basicAuthUser: 'svc', jsonData: { httpMethod: 'POST' } };

it('POST and PUT /api write what /apis reads: the spec, the id label, the version as generation', async () => {
  const saved = (await t.as.post('/api/datasources').send({ ...body, name: 'Parity', uid: 'par-1' })).body;
  const obj = (await t.as.get(`${DATASOURCES}/par-1`)).body;
  expect(obj).toMatchObject({ apiVersion: 'datasource.svc.app/v1beta1', kind: 'DataSource', metadata: { name: 'par-1', generation: 1, labels: { [ID]: String(saved.id) } } });
  expect(obj.spec).toMatchObject({ name: 'Parity', type: 'prometheus', access: 'proxy', url: 'http://prometheus:9090', basicAuth: true, basicAuthUser: 'svc', jsonData: { httpMethod: 'POST' }, isDefault: true, readOnly: false });
  await t.as.put('/api/datasources/uid/par-1').send({ ...body, name: 'Parity 2', version: 1 });
  const after = (await t.as.get(`${DATASOURCES}/par-1`)).body;
  expect([after.spec.name, after.metadata.generation]).toEqual(['Parity 2', 2]);
  expect(after.metadata.annotations).toMatchObject({ 'svc.app/createdBy': 'user:admin', 'svc.app/updatedBy': 'user:admin' });
});

it('/apis writes what /api reads, and a stale legacy version after an /apis patch is refused', async () => {
  const created = await t.as.post(DATASOURCES).send({ metadata: { name: 'par-2', labels: { team: 'ops' } }, spec: { name: 'From apis', type: 'loki', url: 'http://loki:3100' } });
  expect(created.status).toBe(201);
  const read = (await t.as.get('/api/datasources/uid/par-2')).body;
  expect(read).toMatchObject({ uid: 'par-2', id: Number(created.body.metadata.labels[ID]), name: 'From apis', type: 'loki', access: 'proxy', url: 'http://loki:3100', isDefault: false, version: 1, secureJsonFields: {} });
  const patched = await t.as.patch(`${DATASOURCES}/par-2`).set('Content-Type', 'application/merge-patch+json').send({ spec: { url: 'http://loki-2:3100' } });
  expect(patched.body.metadata.generation).toBe(2);
  expect((await t.as.put('/api/datasources/uid/par-2').send({ ...read, url: 'http://stale' })).status).toBe(409);
  const put = await t.as.put('/api/datasources/uid/par-2').send({ ...read, url: 'http://loki-3:3100', version: 2 });
  expect(put.body.datasource).toMatchObject({ url: 'http://loki-3:3100', version: 3 });
  // The legacy write kept what only /apis sees.
  expect((await t.as.get(`${DATASOURCES}/par-2`)).body.metadata.labels).toEqual({ [ID]: created.body.metadata.labels[ID], team: 'ops' });
  expect((await t.as.get('/api/datasources')).body.map((d: { uid: string }) => d.uid)).toEqual(['par-2', 'par-1']);
});

it('a watch on /apis sees the /api writes: added, the old default modified, deleted', async () => {
  const rv = (await t.as.get(DATASOURCES)).body.metadata.resourceVersion as string;
  const { port } = server.address() as AddressInfo;
  const events: { type: string; object: { metadata: { name: string }; spec: { isDefault: boolean } } }[] = [];
  const req = http.get(`http://127.0.0.1:${port}${DATASOURCES}?watch=true&resourceVersion=${rv}`, { auth: `${ADMIN.user}:${ADMIN.password}`, agent: false }, (res) =>
    onJsonLines(res, (e: (typeof events)[number]) => events.push(e)),
  );
  try {
    await t.as.post('/api/datasources').send({ ...body, name: 'Watched', uid: 'par-3', isDefault: true });
    await t.as.post('/api/datasources').send({ ...body, name: 'Watched 2', uid: 'par-4', isDefault: true });
    await t.as.delete('/api/datasources/uid/par-3');
    for (const deadline = Date.now() + 5000; events.length < 4 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    expect(events.map((e) => [e.type, e.object.metadata.name, e.object.spec.isDefault])).toEqual([
      ['ADDED', 'par-3', true],
      ['MODIFIED', 'par-3', false],
      ['ADDED', 'par-4', true],
      ['DELETED', 'par-3', false],
    ]);
  } finally {
    req.destroy();
  }
});
