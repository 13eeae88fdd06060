/** Finalizers and deletionTimestamp through /apis, as kube-apiserver's generic store does them for custom resources. */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS, PLAYLISTS, RFC3339 } from '../support/paths';
import { MERGE_PATCH } from '../../pkg/patch';

const KEEP = 'example.com/keep';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const playlist = async (name: string, metadata: Record<string, unknown> = {}) => {
  const res = await t.as.post(PLAYLISTS).send({ metadata: { name, ...metadata }, spec: { title: name, interval: '5m', items: [] } });
  expect(res.status).toBe(201);
  return res.body;
};
const mergePatch = (path: string, patch: unknown) => t.as.patch(path).set('Content-Type', MERGE_PATCH).send(JSON.stringify(patch));

describe('finalizers', () => {
  test('DELETE marks an object with finalizers instead of removing it; again changes nothing', async () => {
    const created = await playlist('fin-1', { finalizers: [KEEP] });
    expect(created.metadata.finalizers).toEqual([KEEP]);
    const res = await t.as.delete(`${PLAYLISTS}/fin-1`).send({ propagationPolicy: 'Background' });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('Playlist');
    expect(res.body.metadata).toMatchObject({ finalizers: [KEEP], deletionTimestamp: expect.stringMatching(RFC3339), deletionGracePeriodSeconds: 0, generation: 2 });
    expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect((await t.as.get(`${PLAYLISTS}/fin-1`)).body).toEqual(res.body);
    const again = await t.as.delete(`${PLAYLISTS}/fin-1`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  test('the update that empties the finalizers removes the object; until then no finalizer may be added', async () => {
    await playlist('fin-2', { finalizers: [KEEP, 'example.com/other'] });
    const marked = (await t.as.delete(`${PLAYLISTS}/fin-2`)).body;
    const added = await mergePatch(`${PLAYLISTS}/fin-2`, { metadata: { finalizers: [KEEP, 'example.com/other', 'example.com/new'] } });
    expect(added.status).toBe(422);
    expect(added.body.message).toBe(
      'Playlist.playlist.svc.app "fin-2" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}',
    );
    expect((await t.as.get(`${PLAYLISTS}/fin-2`)).body).toEqual(marked);
    // Other changes still go through while deleting.
    const one = await mergePatch(`${PLAYLISTS}/fin-2`, { metadata: { finalizers: [KEEP] }, spec: { title: 'last words' } });
    expect(one.status).toBe(200);
    expect(one.body.metadata.deletionTimestamp).toBe(marked.metadata.deletionTimestamp);
    const last = await t.as.put(`${PLAYLISTS}/fin-2`).send({ ...one.body, metadata: { ...one.body.metadata, finalizers: [] } });
    expect(last.status).toBe(200);
    expect(last.body.metadata.finalizers).toBeUndefined();
    expect((await t.as.get(`${PLAYLISTS}/fin-2`)).status).toBe(404);
    // The history ends with the deletion, carrying the object as it was last written.
    const [event] = await t.storage.objectHistory({ group: 'playlist.svc.app', resource: 'playlists', namespace: 'default', name: 'fin-2' }, { limit: 1 });
    expect(event.action).toBe('DELETED');
    expect((event.value as { spec: { title: string } }).spec.title).toBe('last words');
  });

  test('finalizer names must be qualified names; preconditions and dryRun apply to marking too', async () => {
    const bad = await t.as.post(PLAYLISTS).send({ metadata: { name: 'fin-3', finalizers: ['not valid!'] }, spec: { title: 'x', interval: '5m' } });
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes[0]).toMatchObject({ field: 'metadata.finalizers[0]', message: expect.stringContaining('Invalid value: "not valid!"') });
    expect((await t.as.get(`${PLAYLISTS}/fin-3`)).status).toBe(404);

    const created = await playlist('fin-4', { finalizers: [KEEP] });
    const wrong = await t.as.delete(`${PLAYLISTS}/fin-4`).send({ preconditions: { uid: 'nope' } });
    expect(wrong.status).toBe(409);
    const dry = await t.as.delete(`${PLAYLISTS}/fin-4?dryRun=All`);
    expect(dry.status).toBe(200);
    expect(dry.body.metadata.deletionTimestamp).toEqual(expect.stringMatching(RFC3339));
    expect((await t.as.get(`${PLAYLISTS}/fin-4`)).body).toEqual(created);
  });

  test('a folder with finalizers keeps its contents until its last finalizer goes, then takes them with it', async () => {
    await t.as.post(FOLDERS).send({ metadata: { name: 'fin-folder', finalizers: [KEEP] }, spec: { title: 'F' } });
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'fin-dash', annotations: { 'svc.app/folder': 'fin-folder' } }, spec: { title: 'D' } });
    const marked = await t.as.delete(`${FOLDERS}/fin-folder`);
    expect(marked.status).toBe(200);
    expect(marked.body.metadata.deletionTimestamp).toEqual(expect.stringMatching(RFC3339));
    expect((await t.as.get(`${DASHBOARDS}/fin-dash`)).status).toBe(200);
    const released = await mergePatch(`${FOLDERS}/fin-folder`, { metadata: { finalizers: null } });
    expect(released.status).toBe(200);
    expect((await t.as.get(`${FOLDERS}/fin-folder`)).status).toBe(404);
    expect((await t.as.get(`${DASHBOARDS}/fin-dash`)).status).toBe(404);
  });
});
