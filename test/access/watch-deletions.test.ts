import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS } from '../support/paths';
import { as, createUser } from '../support/users';
import { dashboardBody, events, folderBody, names, openWatch, type OpenWatch, seen } from './access-support';

/**
 * What a restricted caller's watch shows of deletions, whatever it starts from: the DELETED event of every object
 * it could read when it was deleted (its permissions go with it, in the same transaction), an object in a folder
 * deleted with everything inside included; an object moving out of sight is DELETED, one moving into sight ADDED;
 * and nothing of objects it could never read.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(['--registry.watch_poll_interval_ms=50']);
  await createUser(t, 'viewer', { 1: 'Viewer' });
  await createUser(t, 'editor', { 1: 'Editor' });
  // pub: root defaults (Editor Edit, Viewer View); secret and team: Editors only; team ─ team-sub: Viewers too.
  for (const f of [folderBody('pub'), folderBody('secret'), folderBody('team'), folderBody('team-sub', 'team')]) {
    await t.as.post(FOLDERS).send(f).expect(201);
  }
  await t.as.post('/api/folders/secret/permissions').send({ items: [{ role: 'Editor', permission: 2 }] }).expect(200);
  await t.as.post('/api/folders/team/permissions').send({ items: [{ role: 'Editor', permission: 2 }] }).expect(200);
  await t.as.post('/api/folders/team-sub/permissions').send({ items: [{ role: 'Viewer', permission: 1 }] }).expect(200);
});
afterAll(async () => {
  await t.close();
});

const dashboard = async (name: string, folder?: string) => {
  await t.as.post(DASHBOARDS).send(dashboardBody(name, folder)).expect(201);
};
const listRv = async (login: string, path = DASHBOARDS) => {
  const res = await as(t, login).get(path).expect(200);
  return { rv: res.body.metadata.resourceVersion as string, names: names(res.body) };
};
const has = (w: OpenWatch, line: string) => () => events(w.lines).includes(line);
const waitFor = (w: OpenWatch, line: string) => seen(w.lines, has(w, line));

describe('a watch from a list resourceVersion', () => {
  it("an Editor's watch gets the DELETED event of a root dashboard it could edit (kubectl wait --for=delete)", async () => {
    await dashboard('e-root');
    const list = await listRv('editor');
    expect(list.names).toContain('e-root');
    const w = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${list.rv}`, { login: 'editor' });
    try {
      expect(w.status).toBe(200);
      await t.as.delete(`${DASHBOARDS}/e-root`).expect(200);
      await waitFor(w, 'DELETED e-root');
    } finally {
      w.close();
    }
  });

  it("a Viewer's watch gets DELETED for what it may read and nothing of what it may not", async () => {
    await dashboard('v-pub');
    await dashboard('v-secret', 'secret');
    const list = await listRv('viewer');
    expect(list.names).toContain('v-pub');
    expect(list.names).not.toContain('v-secret');
    const w = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${list.rv}`, { login: 'viewer' });
    try {
      // In resourceVersion order: anything about v-secret would show before v-pub's deletion.
      await t.as.delete(`${DASHBOARDS}/v-secret`).expect(200);
      await t.as.delete(`${DASHBOARDS}/v-pub`).expect(200);
      await waitFor(w, 'DELETED v-pub');
      expect(events(w.lines)).toEqual(['DELETED v-pub']);
    } finally {
      w.close();
    }
  });

  it('a folder deleted with everything inside: each DELETED goes to who could read it', async () => {
    await dashboard('c-top', 'team');
    await dashboard('c-deep', 'team-sub');
    await t.as.post(FOLDERS).send(folderBody('other-sub', 'team')).expect(201);
    await dashboard('c-hidden', 'other-sub');
    // The Viewer reads team-sub and what is in it, through team-sub's own permissions only.
    const dashboards = await listRv('viewer');
    const folders = await listRv('viewer', FOLDERS);
    expect(dashboards.names).toContain('c-deep');
    expect(dashboards.names).not.toEqual(expect.arrayContaining(['c-top']));
    expect(dashboards.names).not.toEqual(expect.arrayContaining(['c-hidden']));
    expect(folders.names).toContain('team-sub');
    expect(folders.names).not.toEqual(expect.arrayContaining(['team']));
    const editorList = await listRv('editor');
    const wd = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${dashboards.rv}`, { login: 'viewer' });
    const wf = await openWatch(t, `${FOLDERS}?watch=true&resourceVersion=${folders.rv}`, { login: 'viewer' });
    const we = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${editorList.rv}`, { login: 'editor' });
    try {
      await t.as.delete(`${FOLDERS}/team`).expect(200);
      await waitFor(wd, 'DELETED c-deep');
      await waitFor(wf, 'DELETED team-sub');
      await seen(we.lines, () => ['c-top', 'c-deep', 'c-hidden'].every((n) => has(we, `DELETED ${n}`)()));
      // Markers written after the cascade: once the Viewer sees them, every event of the cascade was considered.
      await dashboard('c-marker', 'pub');
      await t.as.post(FOLDERS).send(folderBody('c-marker')).expect(201);
      await waitFor(wd, 'ADDED c-marker');
      await waitFor(wf, 'ADDED c-marker');
      expect(events(wd.lines)).toEqual(['DELETED c-deep', 'ADDED c-marker']);
      expect(events(wf.lines)).toEqual(['DELETED team-sub', 'ADDED c-marker']);
    } finally {
      wd.close();
      wf.close();
      we.close();
    }
  });
});

describe('a watch resumed from an older resourceVersion', () => {
  it('gets the DELETED event of an object deleted while it was away', async () => {
    await dashboard('r-gone', 'pub');
    await dashboard('r-root');
    const viewer = await listRv('viewer');
    const editor = await listRv('editor');
    expect(viewer.names).toContain('r-gone');
    await t.as.delete(`${DASHBOARDS}/r-gone`).expect(200);
    await t.as.delete(`${DASHBOARDS}/r-root`).expect(200);
    const wv = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${viewer.rv}`, { login: 'viewer' });
    const we = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${editor.rv}`, { login: 'editor' });
    try {
      await seen(wv.lines, () => has(wv, 'DELETED r-gone')() && has(wv, 'DELETED r-root')());
      await seen(we.lines, () => has(we, 'DELETED r-gone')() && has(we, 'DELETED r-root')());
    } finally {
      wv.close();
      we.close();
    }
  });

  it('from a version before a folder was deleted: its dashboards are DELETED too', async () => {
    await t.as.post(FOLDERS).send(folderBody('old-team')).expect(201);
    await dashboard('o-in', 'old-team');
    const viewer = await listRv('viewer');
    await t.as.delete(`${FOLDERS}/old-team`).expect(200);
    const w = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${viewer.rv}`, { login: 'viewer' });
    try {
      await waitFor(w, 'DELETED o-in');
    } finally {
      w.close();
    }
  });
});

describe('moves in and out of sight', () => {
  it('an object moved out of sight is DELETED (as the caller saw it), moved back it is ADDED', async () => {
    await dashboard('m-move', 'pub');
    const list = await listRv('viewer');
    const w = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${list.rv}`, { login: 'viewer' });
    try {
      const current = (await t.as.get(`${DASHBOARDS}/m-move`).expect(200)).body;
      const moved = { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, 'svc.app/folder': 'secret' } }, spec: { ...current.spec, title: 'now secret' } };
      const put = await t.as.put(`${DASHBOARDS}/m-move`).send(moved).expect(200);
      await waitFor(w, 'DELETED m-move');
      const left = w.lines.find((l) => l.type === 'DELETED') as unknown as { object: { metadata: { annotations: Record<string, string> }; spec: { title: string } } };
      // What the Viewer could see: the object before it moved, never its new folder or title.
      expect(left.object.metadata.annotations['svc.app/folder']).toBe('pub');
      expect(left.object.spec.title).toBe('m-move');
      const back = { ...put.body, metadata: { ...put.body.metadata, annotations: { ...put.body.metadata.annotations, 'svc.app/folder': 'pub' } } };
      await t.as.put(`${DASHBOARDS}/m-move`).send(back).expect(200);
      await waitFor(w, 'ADDED m-move');
      expect(events(w.lines)).toEqual(['DELETED m-move', 'ADDED m-move']);
    } finally {
      w.close();
    }
  });

  it('from a resourceVersion, a move out of sight of an object the caller listed is DELETED', async () => {
    await dashboard('m-listed', 'pub');
    const list = await listRv('viewer');
    await dashboard('m-later', 'pub');
    const w = await openWatch(t, `${DASHBOARDS}?watch=true&resourceVersion=${list.rv}`, { login: 'viewer' });
    try {
      await waitFor(w, 'ADDED m-later');
      for (const name of ['m-listed', 'm-later']) {
        await t.as.patch(`${DASHBOARDS}/${name}`).set('Content-Type', 'application/merge-patch+json').send({ metadata: { annotations: { 'svc.app/folder': 'secret' } } }).expect(200);
      }
      await seen(w.lines, () => has(w, 'DELETED m-listed')() && has(w, 'DELETED m-later')());
      expect(events(w.lines)).toEqual(['ADDED m-later', 'DELETED m-listed', 'DELETED m-later']);
    } finally {
      w.close();
    }
  });
});
