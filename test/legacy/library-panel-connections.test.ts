/**
 * Connections of library panels to dashboards (spec §4.6, anchor-breadth.md §5.5): derived from the dashboards'
 * `libraryPanel.uid` (rows included) by the registry in the transaction of every dashboard write and delete, through
 * either API, so they are never orphaned (the anchor's #49774): a dashboard's delete through /apis, through /api and
 * through its folder's cascade each takes its connections with it, and no reader ever sees a connection to a deleted
 * dashboard. A connected element, or a folder holding one, cannot be deleted; a dashboard naming an element that
 * does not exist or that the caller may not read is refused.
 */
import type { Reference } from '../../storage';
import { dashboardKind, libraryPanelKind } from '../../apis';
import { anyKind } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS, LIBRARY_PANELS } from '../support/paths';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await createUser(t, 'editor', { 1: 'Editor' });
  await t.as.post('/api/folders').send({ uid: 'private', title: 'Private' }).expect(200);
  await t.as.post('/api/folders/private/permissions').send({ items: [] }).expect(200);
}, 120_000);
afterAll(() => t.close());

const EL = '/api/library-elements';
const ELEMENTS = anyKind(libraryPanelKind);
const DASHBOARD_KIND = anyKind(dashboardKind);
const SYSTEM_CTX = { requester: { identity: 'test' }, namespace: 'default', fieldManager: 'test' };

async function element(uid: string, folderUid = '') {
  const res = await t.as.post(EL).send({ uid, name: `Element ${uid}`, kind: 1, model: { type: 'stat' }, folderUid });
  expect([res.status, res.body]).toEqual([200, expect.anything()]);
}

/** A dashboard JSON using `top` directly and `nested` inside a collapsed row. */
const dashboardJson = (uid: string, top: string[], nested: string[] = []) => ({
  uid,
  title: `Dashboard ${uid}`,
  panels: [
    ...top.map((u, i) => ({ id: i + 1, type: 'stat', libraryPanel: { uid: u, name: 'informational' } })),
    { id: 100, type: 'row', collapsed: true, panels: nested.map((u, i) => ({ id: 101 + i, libraryPanel: { uid: u } })) },
  ],
});

const legacySave = (uid: string, top: string[], nested: string[] = [], folderUid = '', client = t.as) =>
  client.post('/api/dashboards/db').send({ dashboard: dashboardJson(uid, top, nested), folderUid, overwrite: true });

const connected = async (uid: string) => (await t.as.get(`${EL}/${uid}`).expect(200)).body.result.meta.connectedDashboards as number;
const connectionUids = async (uid: string) =>
  ((await t.as.get(`${EL}/${uid}/connections`).expect(200)).body.result as { connectionUid: string }[]).map((c) => c.connectionUid);

describe('connections follow every dashboard write', () => {
  it('a legacy save connects the panels and the panels of rows; a later save replaces them', async () => {
    await element('c-a');
    await element('c-b');
    await legacySave('c-dash', ['c-a', 'c-a'], ['c-b']).expect(200);
    expect([await connected('c-a'), await connected('c-b')]).toEqual([1, 1]);
    const conns = (await t.as.get(`${EL}/c-a/connections`).expect(200)).body.result;
    const dash = (await t.as.get('/api/dashboards/uid/c-dash').expect(200)).body.dashboard;
    expect(conns).toEqual([
      {
        id: dash.id,
        kind: 1,
        elementId: (await t.as.get(`${EL}/c-a`)).body.result.id,
        connectionId: dash.id,
        connectionUid: 'c-dash',
        created: expect.any(String),
        createdBy: { id: 1, name: 'admin', avatarUrl: expect.any(String) },
      },
    ]);
    // The anchor documents the path with a trailing slash: both spellings answer the same.
    expect((await t.as.get(`${EL}/c-a/connections/`).expect(200)).body.result).toEqual(conns);
    await legacySave('c-dash', ['c-b']).expect(200);
    expect([await connected('c-a'), await connected('c-b')]).toEqual([0, 1]);
  });

  it('an /apis create, update and merge patch keep them too', async () => {
    await element('c-x');
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'c-apis' }, spec: dashboardJson('c-apis', ['c-x']) }).expect(201);
    expect(await connectionUids('c-x')).toEqual(['c-apis']);
    await t.as.patch(`${DASHBOARDS}/c-apis`).set('Content-Type', 'application/merge-patch+json').send({ spec: { panels: [] } }).expect(200);
    expect(await connectionUids('c-x')).toEqual([]);
  });

  it('a dashboard naming an element that does not exist, or that the caller may not read, is refused, and nothing changes', async () => {
    await element('c-private', 'private');
    await element('c-open');
    await legacySave('c-keep', ['c-open'], [], '', as(t, 'editor')).expect(200);
    const before = (await t.as.get(`${DASHBOARDS}/c-keep`)).body.metadata.resourceVersion;
    const missing = await legacySave('c-keep', ['c-open', 'nope']);
    expect([missing.status, missing.body]).toEqual([400, { message: 'library panel "nope" could not be found' }]);
    const hidden = await legacySave('c-keep', [], ['c-private'], '', as(t, 'editor'));
    expect([hidden.status, hidden.body]).toEqual([400, { message: 'library panel "c-private" could not be found' }]);
    const apis = await t.as.post(DASHBOARDS).send({ metadata: { name: 'c-new' }, spec: dashboardJson('c-new', ['nope']) });
    expect(apis.status).toBe(400);
    expect(apis.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message: 'library panel "nope" could not be found' });
    const noUid = await t.as.post('/api/dashboards/db').send({ dashboard: { title: 'No uid', panels: [{ libraryPanel: { name: 'x' } }] } });
    expect([noUid.status, noUid.body]).toEqual([400, { message: 'library panel header is missing required property uid' }]);
    const noUidApis = await t.as.post(DASHBOARDS).send({ metadata: { name: 'c-nouid' }, spec: { title: 'x', panels: [{ libraryPanel: {} }] } });
    expect([noUidApis.status, noUidApis.body.details?.causes?.[0]?.field]).toEqual([422, 'spec.panels[0].libraryPanel.uid']);
    expect((await t.as.get(`${DASHBOARDS}/c-keep`)).body.metadata.resourceVersion).toBe(before);
    expect((await t.as.get(`${DASHBOARDS}/c-new`)).status).toBe(404);
    expect(await connectionUids('c-open')).toEqual(['c-keep']);
    // The admin may read it: the same save succeeds.
    await legacySave('c-keep', [], ['c-private']).expect(200);
  });
});

describe('a connected element cannot be deleted', () => {
  it('403 "the library element has connections" through both APIs, until no dashboard uses it', async () => {
    await element('c-used');
    await legacySave('c-user', ['c-used']).expect(200);
    const legacy = await t.as.delete(`${EL}/c-used`);
    expect([legacy.status, legacy.body]).toEqual([403, { message: 'the library element has connections' }]);
    const apis = await t.as.delete(`${LIBRARY_PANELS}/c-used`);
    expect(apis.status).toBe(403);
    expect(apis.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', message: 'the library element has connections' });
    expect(await connected('c-used')).toBe(1);
    await legacySave('c-user', []).expect(200);
    await t.as.delete(`${EL}/c-used`).expect(200);
  });

  it('a folder holding a connected element cannot be deleted (both APIs), unless the dashboard goes with it', async () => {
    await t.as.post('/api/folders').send({ uid: 'holder', title: 'Holder' }).expect(200);
    await element('c-held', 'holder');
    await legacySave('c-outside', ['c-held']).expect(200);
    const legacy = await t.as.delete('/api/folders/holder');
    expect([legacy.status, legacy.body]).toEqual([403, { message: 'folder contains library elements that are linked in use' }]);
    const apis = await t.as.delete(`${FOLDERS}/holder`);
    expect([apis.status, apis.body.message]).toEqual([403, 'folder contains library elements that are linked in use']);
    await t.as.get(`${EL}/c-held`).expect(200);
    // Moved into the folder, the dashboard goes with it: nothing stays connected.
    await legacySave('c-outside', ['c-held'], [], 'holder').expect(200);
    await t.as.delete('/api/folders/holder').expect(200);
    expect((await t.as.get(`${EL}/c-held`)).status).toBe(404);
    expect((await t.as.get('/api/dashboards/uid/c-outside')).status).toBe(404);
  });
});

/**
 * Deletes the dashboard with `remove` while a reader keeps checking, in that order, that the dashboard exists and
 * then what references the element: once the dashboard is seen gone, a connection to it must never be seen again
 * (it would be an orphan, however briefly).
 */
async function deleteWatched(dashboard: string, elementUid: string, remove: () => Promise<unknown>): Promise<void> {
  let done = false;
  let orphanSeen = false;
  let reads = 0;
  const reader = (async () => {
    while (!done) {
      const gone = !(await t.registry.exists(DASHBOARD_KIND, 'default', dashboard));
      const refs: Reference[] = await t.registry.referrers(SYSTEM_CTX, ELEMENTS, [elementUid]);
      if (gone && refs.some((r) => r.from.name === dashboard)) orphanSeen = true;
      reads++;
      // The embedded database has one connection: leave the delete its turn.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  await remove();
  done = true;
  await reader;
  expect(reads).toBeGreaterThan(0);
  expect(orphanSeen).toBe(false);
  expect(await connected(elementUid)).toBe(0);
  expect(await connectionUids(elementUid)).toEqual([]);
}

describe('connections are never orphaned', () => {
  beforeAll(async () => {
    await element('o-el');
    await t.as.post('/api/folders').send({ uid: 'o-folder', title: 'Doomed' }).expect(200);
  });

  it('a dashboard deleted through /apis takes its connections in the same transaction', async () => {
    await legacySave('o-apis', ['o-el']).expect(200);
    expect(await connected('o-el')).toBe(1);
    await deleteWatched('o-apis', 'o-el', () => t.as.delete(`${DASHBOARDS}/o-apis`).expect(200));
  });

  it('a dashboard deleted through /api takes its connections in the same transaction', async () => {
    await legacySave('o-api', [], ['o-el']).expect(200);
    expect(await connected('o-el')).toBe(1);
    await deleteWatched('o-api', 'o-el', () => t.as.delete('/api/dashboards/uid/o-api').expect(200));
  });

  it("a dashboard deleted with its folder takes its connections in the folder delete's transaction", async () => {
    await legacySave('o-cascade', ['o-el'], [], 'o-folder').expect(200);
    expect(await connected('o-el')).toBe(1);
    await deleteWatched('o-cascade', 'o-el', () => t.as.delete('/api/folders/o-folder').expect(200));
    // Nothing is left to block the element's delete.
    await t.as.delete(`${EL}/o-el`).expect(200);
  });
});

describe('parity', () => {
  it('what /api writes reads back through /apis, and the reverse', async () => {
    const created = (await t.as.post(EL).send({ uid: 'p-el', name: 'Parity', kind: 1, model: { type: 'gauge' }, folderUid: 'private' }).expect(200)).body.result;
    const obj = (await t.as.get(`${LIBRARY_PANELS}/p-el`).expect(200)).body;
    expect(obj).toMatchObject({
      apiVersion: 'dashboard.svc.app/v1beta1',
      kind: 'LibraryPanel',
      metadata: { name: 'p-el', generation: 1, labels: { 'svc.app/deprecatedInternalID': String(created.id) }, annotations: { 'svc.app/folder': 'private' } },
      spec: { name: 'Parity', kind: 1, type: 'gauge', description: '', model: created.model },
    });
    await t.as
      .post(LIBRARY_PANELS)
      .send({ metadata: { name: 'p-apis' }, spec: { name: 'From apis', kind: 2, model: { query: 'x' } } })
      .expect(201);
    const legacy = (await t.as.get(`${EL}/p-apis`).expect(200)).body.result;
    expect(legacy).toMatchObject({ uid: 'p-apis', name: 'From apis', kind: 2, version: 1, folderUid: '', model: { query: 'x', name: 'From apis', type: '', description: '' } });
    await t.as.patch(`${EL}/p-apis`).send({ kind: 2, version: 1, name: 'Renamed' }).expect(200);
    expect((await t.as.get(`${LIBRARY_PANELS}/p-apis`)).body).toMatchObject({ metadata: { generation: 2 }, spec: { name: 'Renamed', model: { name: 'Renamed' } } });
  });
});
