/**
 * GET /api/folders/:uid/counts (the anchor's folder descendant counts): what lies under a folder, its subfolders at
 * any depth included, by kind, counted by the registry for the caller.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function folder(uid: string, parentUid?: string): Promise<void> {
  const res = await t.as.post('/api/folders').send({ uid, title: uid, ...(parentUid ? { parentUid } : {}) });
  expect(res.status).toBe(200);
}
async function dashboard(uid: string, folderUid: string): Promise<void> {
  const res = await t.as.post('/api/dashboards/db').send({ dashboard: { uid, title: uid }, folderUid });
  expect(res.status).toBe(200);
}
async function element(name: string, folderUid: string): Promise<void> {
  const res = await t.as.post('/api/library-elements').send({ name, folderUid, kind: 1, model: { type: 'stat' } });
  expect(res.status).toBe(200);
}
const counts = (uid: string) => t.as.get(`/api/folders/${uid}/counts`);

beforeAll(async () => {
  await folder('top');
  await folder('sub', 'top');
  await folder('subsub', 'sub');
  await folder('beside');
  await dashboard('top-1', 'top');
  await dashboard('top-2', 'top');
  await dashboard('sub-1', 'sub');
  await dashboard('subsub-1', 'subsub');
  await dashboard('beside-1', 'beside');
  await element('in sub', 'sub');
  await element('beside', 'beside');
});

it('counts the subtree: subfolders at any depth, their dashboards and library panels, alert rules 0', async () => {
  const res = await counts('top');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ folders: 2, dashboards: 4, librarypanels: 1, alertrules: 0 });
  expect((await counts('subsub')).body).toEqual({ folders: 0, dashboards: 1, librarypanels: 0, alertrules: 0 });
  expect((await counts('beside')).body).toEqual({ folders: 0, dashboards: 1, librarypanels: 1, alertrules: 0 });
});

it('follows writes: a move and a delete change the counts', async () => {
  await folder('moving');
  await dashboard('moving-1', 'moving');
  expect((await t.as.post('/api/folders/moving/move').send({ parentUid: 'beside' })).status).toBe(200);
  expect((await counts('beside')).body).toEqual({ folders: 1, dashboards: 2, librarypanels: 1, alertrules: 0 });
  expect((await t.as.delete('/api/folders/moving')).status).toBe(200);
  expect((await counts('beside')).body).toEqual({ folders: 0, dashboards: 1, librarypanels: 1, alertrules: 0 });
});

it('bad input: an unknown folder is 404 as the folder read, and the folder stays as it was', async () => {
  for (const uid of ['nope', 'a%20b', 'x'.repeat(41), '..', '%2e%2e%2fdashboards']) {
    const res = await counts(uid);
    expect([uid, res.status, res.body]).toEqual([uid, 404, { status: 'not-found', message: 'folder not found' }]);
  }
  // A NUL in the path is every route's 400.
  expect((await counts('%00')).status).toBe(400);
  expect((await t.as.get('/api/folders/top')).body.version).toBe(1);
});

it('needs read on the folder: a Viewer without it is 403; another org has no such folder', async () => {
  await folder('private');
  expect((await t.as.post('/api/folders/private/permissions').send({ items: [] })).status).toBe(200);
  await createUser(t, 'counts-viewer', { 1: 'Viewer' });
  const viewer = as(t, 'counts-viewer');
  expect((await viewer.get('/api/folders/private/counts')).status).toBe(403);
  expect((await viewer.get('/api/folders/top/counts')).body).toEqual({ folders: 2, dashboards: 4, librarypanels: 1, alertrules: 0 });
  expect((await t.anonymous.get('/api/folders/top/counts')).status).toBe(401);

  const org = await t.users.createOrg(SYSTEM, 'Counts elsewhere');
  await t.users.setRole(SYSTEM, org.id, 1, 'Admin');
  expect((await counts('top').set('X-Svc-Org-Id', String(org.id))).status).toBe(404);
});
