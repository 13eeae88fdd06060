/**
 * `dashboards.min_refresh_interval` is the dashboard kind's rule, so both APIs keep it: a `refresh` below it is
 * raised to it by every write through /apis (create, update, merge and JSON patches, server-side apply) as by the
 * legacy save, and what one API stored the other reads back raised.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(['--dashboards.min_refresh_interval=10s']);
});
afterAll(() => t.close());

const APPLY = 'application/apply-patch+yaml';
const stored = async (name: string) => (await t.as.get(`${DASHBOARDS}/${name}`)).body.spec.refresh;

test('a create through /apis raises a refresh below the minimum, and keeps others as sent', async () => {
  const cases: [unknown, unknown][] = [['1s', '10s'], ['500ms', '10s'], ['not-a-duration', '10s'], ['10s', '10s'], ['1m', '1m'], ['', ''], [false, false]];
  for (const [i, [sent, kept]] of cases.entries()) {
    const res = await t.as.post(DASHBOARDS).send({ metadata: { name: `c-${i}` }, spec: { title: 'R', refresh: sent } });
    expect(res.status).toBe(201);
    expect(res.body.spec.refresh).toEqual(kept);
    expect(await stored(`c-${i}`)).toEqual(kept);
    expect((await t.as.get(`/api/dashboards/uid/c-${i}`)).body.dashboard.refresh).toEqual(kept);
  }
  const none = await t.as.post(DASHBOARDS).send({ metadata: { name: 'c-none' }, spec: { title: 'R' } });
  expect(none.body.spec.refresh).toBeUndefined();
});

test('updates, merge and JSON patches and server-side apply raise it too', async () => {
  const created = await t.as.post(DASHBOARDS).send({ metadata: { name: 'u' }, spec: { title: 'U', refresh: '1m' } });
  const put = await t.as.put(`${DASHBOARDS}/u`).send({ ...created.body, spec: { title: 'U', refresh: '2s' } });
  expect(put.status).toBe(200);
  expect(put.body.spec.refresh).toBe('10s');

  const merge = await t.as.patch(`${DASHBOARDS}/u`).set('Content-Type', 'application/merge-patch+json').send({ spec: { refresh: '1s' } });
  expect(merge.status).toBe(200);
  expect(merge.body.spec.refresh).toBe('10s');
  await t.as.patch(`${DASHBOARDS}/u`).set('Content-Type', 'application/merge-patch+json').send({ spec: { refresh: '30s' } });
  const json = await t.as.patch(`${DASHBOARDS}/u`).set('Content-Type', 'application/json-patch+json').send([{ op: 'replace', path: '/spec/refresh', value: '3s' }]);
  expect(json.status).toBe(200);
  expect(json.body.spec.refresh).toBe('10s');

  const body = { apiVersion: 'dashboard.svc.app/v1beta1', kind: 'Dashboard', metadata: { name: 'applied' }, spec: { title: 'A', refresh: '1s' } };
  const applied = await t.as.patch(`${DASHBOARDS}/applied?fieldManager=kubectl`).set('Content-Type', APPLY).send(JSON.stringify(body));
  expect(applied.status).toBe(201);
  expect(applied.body.spec.refresh).toBe('10s');
  const reapplied = await t.as.patch(`${DASHBOARDS}/applied?fieldManager=kubectl`).set('Content-Type', APPLY).send(JSON.stringify({ ...body, spec: { title: 'A', refresh: '2s' } }));
  expect(reapplied.status).toBe(200);
  expect(reapplied.body.spec.refresh).toBe('10s');
  expect((await t.as.get('/api/dashboards/uid/applied')).body.dashboard.refresh).toBe('10s');
});

test('the legacy save raises it as before, and /apis reads it raised', async () => {
  const res = await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'legacy', title: 'L', refresh: '1s' } });
  expect(res.status).toBe(200);
  expect(await stored('legacy')).toBe('10s');
});
