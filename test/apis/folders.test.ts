/** Folder rules of the registry through /apis: nesting, moves, cycles, cascading deletes, the nestedFolders toggle. */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS } from '../support/paths';

const PARENT = 'svc.app/folder';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function folder(name: string, parent?: string) {
  const res = await t.as.post(FOLDERS).send({ metadata: { name, ...(parent ? { annotations: { [PARENT]: parent } } : {}) }, spec: { title: name } });
  expect(res.status).toBe(201);
  return res.body;
}

async function dashboard(name: string, folderName?: string) {
  const res = await t.as.post(DASHBOARDS).send({ metadata: { name, ...(folderName ? { annotations: { [PARENT]: folderName } } : {}) }, spec: { title: name } });
  expect(res.status).toBe(201);
  return res.body;
}

const exists = async (path: string) => (await t.as.get(path)).status === 200;

test('a folder nests under an existing parent, named by its annotation', async () => {
  await folder('root-a');
  const child = await folder('child-a', 'root-a');
  expect(child.metadata.annotations[PARENT]).toBe('root-a');
  expect((await t.as.get(`${FOLDERS}/child-a`)).body.metadata.annotations[PARENT]).toBe('root-a');
});

test('a missing parent, self-parenting and cycles are 400 and store nothing', async () => {
  const missing = await t.as.post(FOLDERS).send({ metadata: { name: 'orphan', annotations: { [PARENT]: 'nope' } }, spec: { title: 'x' } });
  expect(missing.status).toBe(400);
  expect(missing.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', message: 'folder "nope" not found' });
  expect(await exists(`${FOLDERS}/orphan`)).toBe(false);

  const self = await t.as.post(FOLDERS).send({ metadata: { name: 'selfish', annotations: { [PARENT]: 'selfish' } }, spec: { title: 'x' } });
  expect(self.status).toBe(400);
  expect(self.body.message).toBe('a folder cannot be its own parent');

  const top = await folder('cyc-1');
  await folder('cyc-2', 'cyc-1');
  await folder('cyc-3', 'cyc-2');
  const move = await t.as.put(`${FOLDERS}/cyc-1`).send({ ...top, metadata: { ...top.metadata, annotations: { ...top.metadata.annotations, [PARENT]: 'cyc-3' } } });
  expect(move.status).toBe(400);
  expect(move.body.message).toBe('folder "cyc-1" cannot be moved into its own subfolder "cyc-3"');
  expect((await t.as.get(`${FOLDERS}/cyc-1`)).body).toEqual(top);
});

test('changing the annotation moves a folder; removing it moves it to the root', async () => {
  await folder('mv-a');
  await folder('mv-b');
  const f = await folder('mv-child', 'mv-a');
  const moved = await t.as.put(`${FOLDERS}/mv-child`).send({ ...f, metadata: { ...f.metadata, annotations: { [PARENT]: 'mv-b' } } });
  expect(moved.status).toBe(200);
  expect(moved.body.metadata.annotations[PARENT]).toBe('mv-b');
  // A move is not a spec change.
  expect(moved.body.metadata.generation).toBe(1);
  const toRoot = await t.as
    .patch(`${FOLDERS}/mv-child`)
    .set('Content-Type', 'application/merge-patch+json')
    .send(JSON.stringify({ metadata: { annotations: { [PARENT]: null } } }));
  expect(toRoot.status).toBe(200);
  expect(toRoot.body.metadata.annotations[PARENT]).toBeUndefined();
});

test('a dashboard needs its folder to exist', async () => {
  const res = await t.as.post(DASHBOARDS).send({ metadata: { name: 'lost', annotations: { [PARENT]: 'no-such-folder' } }, spec: { title: 'Lost' } });
  expect(res.status).toBe(400);
  expect(res.body.message).toBe('folder "no-such-folder" not found');
  expect(await exists(`${DASHBOARDS}/lost`)).toBe(false);
  await folder('home');
  const ok = await dashboard('found', 'home');
  expect(ok.metadata.annotations[PARENT]).toBe('home');
});

test('deleting a folder deletes its subfolders and their dashboards, and nothing else', async () => {
  await folder('del-top');
  await folder('del-mid', 'del-top');
  await folder('del-leaf', 'del-mid');
  await folder('del-other');
  await dashboard('d-top', 'del-top');
  await dashboard('d-leaf', 'del-leaf');
  await dashboard('d-other', 'del-other');
  await dashboard('d-root');
  const res = await t.as.delete(`${FOLDERS}/del-top`);
  expect(res.status).toBe(200);
  expect(res.body.kind).toBe('Folder');
  expect(res.body.metadata.name).toBe('del-top');
  for (const gone of [`${FOLDERS}/del-top`, `${FOLDERS}/del-mid`, `${FOLDERS}/del-leaf`, `${DASHBOARDS}/d-top`, `${DASHBOARDS}/d-leaf`]) {
    expect([gone, await exists(gone)]).toEqual([gone, false]);
  }
  for (const kept of [`${FOLDERS}/del-other`, `${DASHBOARDS}/d-other`, `${DASHBOARDS}/d-root`]) {
    expect([kept, await exists(kept)]).toEqual([kept, true]);
  }
  // Every cascaded delete is in history, so watchers and later list pages see it.
  const events = await t.storage.eventsSince({ group: 'dashboard.svc.app', resource: 'dashboards' }, 0, 10000);
  expect(events.filter((e) => e.action === 'DELETED').map((e) => e.key.name).sort()).toEqual(['d-leaf', 'd-top']);
});

test('a folder delete and a create inside it never leave an orphan', async () => {
  for (let round = 0; round < 5; round++) {
    await folder(`race-${round}`);
    const [del, create] = await Promise.all([
      t.as.delete(`${FOLDERS}/race-${round}`),
      t.as.post(DASHBOARDS).send({ metadata: { name: `race-d-${round}`, annotations: { [PARENT]: `race-${round}` } }, spec: { title: 'x' } }),
    ]);
    expect(del.status).toBe(200);
    // Either the dashboard was created first and then deleted with the folder, or it was refused.
    expect([201, 400]).toContain(create.status);
    expect(await exists(`${DASHBOARDS}/race-d-${round}`)).toBe(false);
  }
});

describe('with nested folders turned off', () => {
  let flat: TestApp;
  beforeAll(async () => {
    flat = await startTestApp(['--feature_toggles.nestedFolders=false']);
  });
  afterAll(() => flat.close());

  test('a parent annotation on a folder is 400; dashboards still live in folders', async () => {
    expect((await flat.as.post(FOLDERS).send({ metadata: { name: 'top' }, spec: { title: 'Top' } })).status).toBe(201);
    const nested = await flat.as.post(FOLDERS).send({ metadata: { name: 'sub', annotations: { [PARENT]: 'top' } }, spec: { title: 'Sub' } });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toContain('nested folders are not enabled');
    expect((await flat.as.post(DASHBOARDS).send({ metadata: { name: 'd', annotations: { [PARENT]: 'top' } }, spec: { title: 'D' } })).status).toBe(201);
  });
});
