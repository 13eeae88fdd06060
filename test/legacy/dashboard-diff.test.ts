/**
 * POST /api/dashboards/calculate-diff: the difference of two dashboard versions (or a version and an unsaved model)
 * as JSON, the `json` delta in the jsondiffpatch format and the `basic` list of changes.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const diff = (body: unknown) => t.as.post('/api/dashboards/calculate-diff').send(body as object);

/** Saves each model in turn as versions 1..n of `uid`: its legacy id. */
async function history(uid: string, models: object[]): Promise<number> {
  let id = 0;
  for (const [i, model] of models.entries()) {
    const res = await t.as.post('/api/dashboards/db').send({ dashboard: { ...model, id: id || null, uid, version: i } });
    expect(res.status).toBe(200);
    id = res.body.id;
  }
  return id;
}

let id = 0;
beforeAll(async () => {
  id = await history('diffed', [
    { title: 'One', tags: ['a'], panels: [{ id: 1, title: 'p1' }] },
    { title: 'Two', tags: ['a', 'b'], panels: [{ id: 1, title: 'p1 renamed' }], refresh: '1m' },
  ]);
});

it('json: the jsondiffpatch delta between two stored versions (version included, as the versions show it)', async () => {
  const res = await diff({ base: { dashboardId: id, version: 1 }, new: { dashboardId: id, version: 2 }, diffType: 'json' });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    title: ['One', 'Two'],
    tags: { _t: 'a', 1: ['b'] },
    panels: { _t: 'a', 0: { title: ['p1', 'p1 renamed'] } },
    refresh: ['1m'],
    version: [1, 2],
  });
  const same = await diff({ base: { dashboardId: id, version: 2 }, new: { dashboardId: id, version: 2 }, diffType: 'delta' });
  expect([same.status, same.body]).toEqual([200, {}]);
});

it('basic (the default): the changes by JSON Pointer', async () => {
  const res = await diff({ base: { dashboardId: id, version: 2 }, new: { dashboardId: id, version: 1 } });
  expect(res.status).toBe(200);
  // In the stored model's key order.
  expect(res.body).toHaveLength(5);
  expect(res.body).toEqual(expect.arrayContaining([
    { op: 'replace', path: '/title', oldValue: 'Two', value: 'One' },
    { op: 'remove', path: '/tags/1', oldValue: 'b' },
    { op: 'replace', path: '/panels/0/title', oldValue: 'p1 renamed', value: 'p1' },
    { op: 'remove', path: '/refresh', oldValue: '1m' },
    { op: 'replace', path: '/version', oldValue: 2, value: 1 },
  ]));
});

it('compares an unsaved model, and versions of two dashboards', async () => {
  const unsaved = await diff({ base: { dashboardId: id, version: 2 }, new: { dashboardId: id, unsavedDashboard: { title: 'Draft' } }, diffType: 'basic' });
  expect(unsaved.status).toBe(200);
  expect(unsaved.body).toContainEqual({ op: 'replace', path: '/title', oldValue: 'Two', value: 'Draft' });
  const other = await history('diffed-other', [{ title: 'Two', tags: ['a', 'b'], panels: [{ id: 1, title: 'p1 renamed' }], refresh: '1m' }]);
  const res = await diff({ base: { dashboardId: id, version: 2 }, new: { dashboardId: other, version: 1 }, diffType: 'json' });
  expect(res.body).toEqual({ id: [id, other], uid: ['diffed', 'diffed-other'], version: [2, 1] });
});

it('bad input: 400 or 404 with the anchor words, and nothing changes', async () => {
  const before = (await t.as.get(`${DASHBOARDS}/diffed`)).body.metadata.resourceVersion;
  const ok = { dashboardId: id, version: 1 };
  for (const [body, status, message] of [
    [{}, 400, 'bad request data'],
    ['not json', 400, 'bad request data'],
    [{ base: ok }, 400, 'bad request data'],
    [{ base: ok, new: { dashboardId: id } }, 400, 'bad request data'],
    [{ base: ok, new: { dashboardId: 'x', version: 1 } }, 400, 'bad request data'],
    [{ base: ok, new: { dashboardId: id, version: -1 } }, 400, 'bad request data'],
    [{ base: ok, new: { dashboardId: id, version: 1.5 } }, 400, 'bad request data'],
    [{ base: ok, new: { dashboardId: id, unsavedDashboard: [1] } }, 400, 'bad request data'],
    [{ base: ok, new: ok, diffType: 'html' }, 400, 'Unsupported diff type'],
    [{ base: ok, new: ok, diffType: 3 }, 400, 'bad request data'],
    [{ base: ok, new: { dashboardId: 987654, version: 1 } }, 404, 'Dashboard not found'],
    [{ base: ok, new: { dashboardId: id, version: 99 } }, 404, 'Dashboard version not found'],
  ] as const) {
    const res = await diff(body);
    expect([JSON.stringify(body), res.status, res.body.message]).toEqual([JSON.stringify(body), status, message]);
  }
  expect((await t.as.get(`${DASHBOARDS}/diffed`)).body.metadata.resourceVersion).toBe(before);
});

it("needs dashboards:write on both: a Viewer is 403; another org's id names nothing", async () => {
  await createUser(t, 'diff-viewer', { 1: 'Viewer' });
  const res = await as(t, 'diff-viewer').post('/api/dashboards/calculate-diff').send({ base: { dashboardId: id, version: 1 }, new: { dashboardId: id, version: 2 } });
  expect([res.status, res.body.message]).toEqual([403, "You'll need additional permissions to perform this action. Permissions needed: dashboards:write"]);
  expect((await t.anonymous.post('/api/dashboards/calculate-diff').send({})).status).toBe(401);

  const org = await t.users.createOrg(SYSTEM, 'Diff elsewhere');
  await t.users.setRole(SYSTEM, org.id, 1, 'Admin');
  const other = await diff({ base: { dashboardId: id, version: 1 }, new: { dashboardId: id, version: 2 } }).set('X-Svc-Org-Id', String(org.id));
  expect([other.status, other.body.message]).toEqual([404, 'Dashboard not found']);
});
