import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS } from '../support/paths';
import { as, createUser } from '../support/users';
import { dashboardBody, folderBody, names, seen, watchAs } from './access-support';

/**
 * Per-object authorization of /apis for every kind declaring `access` (folders, dashboards, playlists): the
 * caller's org role, the default permissions a new folder or dashboard gets (creator Admin; at the root Editor
 * Edit and Viewer View), inheritance down nested folders; lists and watches show only what the caller may read.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(['--registry.watch_poll_interval_ms=50']);
  await createUser(t, 'viewer', { 1: 'Viewer' });
  await createUser(t, 'editor', { 1: 'Editor' });
  await createUser(t, 'nobody', { 1: 'None' });
  // general ─ top ─ mid ─ leaf ─ d-leaf ; general ─ d-root
  await t.as.post(FOLDERS).send(folderBody('top')).expect(201);
  await t.as.post(FOLDERS).send(folderBody('mid', 'top')).expect(201);
  await t.as.post(FOLDERS).send(folderBody('leaf', 'mid')).expect(201);
  await t.as.post(DASHBOARDS).send(dashboardBody('d-leaf', 'leaf')).expect(201);
  await t.as.post(DASHBOARDS).send(dashboardBody('d-root')).expect(201);
});
afterAll(async () => {
  await t.close();
});

describe('reading', () => {
  it('a Viewer sees root folders and dashboards through their default items, and what is below them', async () => {
    expect(names((await as(t, 'viewer').get(FOLDERS).expect(200)).body)).toEqual(['leaf', 'mid', 'top']);
    expect(names((await as(t, 'viewer').get(DASHBOARDS).expect(200)).body)).toEqual(['d-leaf', 'd-root']);
    const got = await as(t, 'viewer').get(`${DASHBOARDS}/d-leaf`);
    expect(got.status).toBe(200);
    expect(got.body.metadata.name).toBe('d-leaf');
  });

  it('a member with role None sees nothing it was not given: empty lists, 403 naming the action on get', async () => {
    const list = await as(t, 'nobody').get(DASHBOARDS);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    const res = await as(t, 'nobody').get(`${DASHBOARDS}/d-root`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'dashboards.dashboard.svc.app "d-root" is forbidden: User "nobody" cannot access resource "dashboards" in API group "dashboard.svc.app" "d-root": missing permission dashboards:read',
      reason: 'Forbidden',
      details: { name: 'd-root', group: 'dashboard.svc.app', kind: 'dashboards' },
      code: 403,
    });
  });

  it('a missing object is still 404', async () => {
    const res = await as(t, 'viewer').get(`${DASHBOARDS}/nope`);
    expect(res.status).toBe(404);
    expect(res.body.reason).toBe('NotFound');
  });

  it('pages of a filtered list may be short, and continue tokens still walk the whole collection', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await as(t, 'nobody').get(`${FOLDERS}?limit=1${token ? `&continue=${encodeURIComponent(token)}` : ''}`).expect(200);
      expect(res.body.items.length).toBeLessThanOrEqual(1);
      seen.push(...res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      token = res.body.metadata.continue;
      pages++;
    } while (token);
    expect(seen).toEqual([]);
    expect(pages).toBe(3); // leaf, mid, top: one (empty) page each
  });
});

describe('writing', () => {
  it('a Viewer may not create, update or delete (403 naming the action)', async () => {
    const created = await as(t, 'viewer').post(DASHBOARDS).send(dashboardBody('by-viewer'));
    expect(created.status).toBe(403);
    expect(created.body.message).toMatch(/missing permission dashboards:create$/);
    const current = (await t.as.get(`${DASHBOARDS}/d-root`)).body;
    const put = await as(t, 'viewer').put(`${DASHBOARDS}/d-root`).send({ ...current, spec: { ...current.spec, title: 'x' } });
    expect(put.status).toBe(403);
    expect(put.body.message).toMatch(/missing permission dashboards:write$/);
    const patched = await as(t, 'viewer').patch(`${DASHBOARDS}/d-root`).set('Content-Type', 'application/merge-patch+json').send({ spec: { title: 'x' } });
    expect(patched.status).toBe(403);
    const del = await as(t, 'viewer').delete(`${DASHBOARDS}/d-root`);
    expect(del.status).toBe(403);
    expect(del.body.message).toMatch(/missing permission dashboards:delete$/);
    expect((await t.as.get(`${DASHBOARDS}/d-root`)).body.spec.title).toBe('d-root');
  });

  it('an Editor creates at the root and in folders it can edit; the creator administers what it created', async () => {
    await as(t, 'editor').post(DASHBOARDS).send(dashboardBody('by-editor', 'mid')).expect(201);
    await as(t, 'editor').post(FOLDERS).send(folderBody('sub-by-editor', 'leaf')).expect(201);
    await as(t, 'editor').post(FOLDERS).send(folderBody('root-by-editor')).expect(201);
    // Viewers see a root folder through its default items, a nested one through its parents.
    expect(names((await as(t, 'viewer').get(FOLDERS)).body)).toEqual(['leaf', 'mid', 'root-by-editor', 'sub-by-editor', 'top']);
    await as(t, 'editor').delete(`${FOLDERS}/sub-by-editor`).expect(200);
    await as(t, 'editor').delete(`${DASHBOARDS}/by-editor`).expect(200);
  });

  it('a None member may not move what it cannot reach; nothing changes', async () => {
    const patched = await as(t, 'nobody')
      .patch(`${DASHBOARDS}/d-root`)
      .set('Content-Type', 'application/merge-patch+json')
      .send({ metadata: { annotations: { 'svc.app/folder': 'top' } } });
    expect(patched.status).toBe(403);
    expect((await t.as.get(`${DASHBOARDS}/d-root`)).body.metadata.annotations['svc.app/folder']).toBeUndefined();
  });

  it('deletecollection needs the delete action, and deletes only what the caller may read', async () => {
    await t.as.post(DASHBOARDS).send(dashboardBody('dc-1')).expect(201);
    const viewer = await as(t, 'viewer').delete(`${DASHBOARDS}?fieldSelector=metadata.name%3Ddc-1`);
    expect(viewer.status).toBe(403);
    expect(viewer.body.message).toBe(
      'dashboards.dashboard.svc.app is forbidden: User "viewer" cannot access resource "dashboards" in API group "dashboard.svc.app": missing permission dashboards:delete',
    );
    const editor = await as(t, 'editor').delete(`${DASHBOARDS}?fieldSelector=metadata.name%3Ddc-1`);
    expect(editor.status).toBe(200);
    expect(names(editor.body)).toEqual(['dc-1']);
    expect((await t.as.get(`${DASHBOARDS}/dc-1`)).status).toBe(404);
  });
});

describe('watch', () => {
  it('a watch shows only events of objects the caller may read', async () => {
    const lines = await watchAs(t, 'nobody', `${DASHBOARDS}?watch=true&timeoutSeconds=6`, async () => {
      await t.as.post(DASHBOARDS).send(dashboardBody('w-1')).expect(201);
      await t.as.delete(`${DASHBOARDS}/w-1`).expect(200);
    });
    expect(lines).toEqual([]);
    const editorLines = await watchAs(
      t,
      'editor',
      `${DASHBOARDS}?watch=true&timeoutSeconds=25`,
      async (lines) => {
        await t.as.post(DASHBOARDS).send(dashboardBody('w-2')).expect(201);
        // Deleted before the watch considered it, w-2 would be gone with its permissions, and never shown at all.
        await seen(lines, (ls) => ls.some((l) => l.object.metadata.name === 'w-2'));
        await t.as.delete(`${DASHBOARDS}/w-2`).expect(200);
      },
      (lines) => lines.some((l) => l.type === 'DELETED'),
    );
    expect(editorLines.map((l) => `${l.type} ${l.object.metadata.name}`)).toEqual(['ADDED d-leaf', 'ADDED d-root', 'ADDED w-2', 'DELETED w-2']);
  });
});
