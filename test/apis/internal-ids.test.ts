/**
 * The legacy API's numeric ids (`svc.app/deprecatedInternalID`): the registry numbers folders, dashboards and
 * playlists on create, per type and never reusing one, and keeps the number through every update.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS } from '../support/paths';

const ID = 'svc.app/deprecatedInternalID';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const create = async (path: string, name: string, labels?: Record<string, string>) => {
  const res = await t.as.post(path).send({ metadata: { name, ...(labels ? { labels } : {}) }, spec: { title: name } });
  expect(res.status).toBe(201);
  return res.body;
};

test('creates are numbered 1, 2, 3 per type; a deleted number is never handed out again', async () => {
  expect((await create(DASHBOARDS, 'd1')).metadata.labels[ID]).toBe('1');
  expect((await create(DASHBOARDS, 'd2')).metadata.labels[ID]).toBe('2');
  expect((await create(FOLDERS, 'f1')).metadata.labels[ID]).toBe('1');
  expect((await t.as.delete(`${DASHBOARDS}/d2`)).status).toBe(200);
  expect((await create(DASHBOARDS, 'd3')).metadata.labels[ID]).toBe('3');
});

test("a client's id on create is replaced, and updates keep the stored id whatever the body says", async () => {
  const created = await create(DASHBOARDS, 'mine', { [ID]: '999', team: 'a' });
  const id = created.metadata.labels[ID];
  expect(id).not.toBe('999');
  expect(created.metadata.labels.team).toBe('a');

  const put = await t.as.put(`${DASHBOARDS}/mine`).send({ ...created, metadata: { ...created.metadata, labels: { [ID]: '5', team: 'b' } } });
  expect(put.status).toBe(200);
  expect(put.body.metadata.labels).toEqual({ [ID]: id, team: 'b' });

  const patched = await t.as.patch(`${DASHBOARDS}/mine`).set('Content-Type', 'application/merge-patch+json').send({ metadata: { labels: null } });
  expect(patched.status).toBe(200);
  expect(patched.body.metadata.labels).toEqual({ [ID]: id });
});

test('a dry-run create takes no number', async () => {
  const dry = await t.as.post(`${FOLDERS}?dryRun=All`).send({ metadata: { name: 'dry' }, spec: { title: 'dry' } });
  expect(dry.status).toBe(201);
  expect(dry.body.metadata.labels?.[ID]).toBeUndefined();
  expect((await create(FOLDERS, 'wet')).metadata.labels[ID]).toBe('2');
});

test('the id finds the object with a label selector', async () => {
  const { metadata } = await create(FOLDERS, 'findme');
  const list = await t.as.get(`${FOLDERS}?labelSelector=${encodeURIComponent(`${ID}=${metadata.labels[ID]}`)}`);
  expect(list.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(['findme']);
});
