/** deletecollection (DELETE on a collection path) through /apis, as kube-apiserver's generic store does it. */
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS, PLAYLISTS, RFC3339 } from '../support/paths';

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
const names = (items: { metadata: { name: string } }[]) => items.map((i) => i.metadata.name);

describe('deletecollection', () => {
  test('deletes what the selectors match and answers them as a <Kind>List', async () => {
    await playlist('dc-a', { labels: { dc: 'yes' } });
    await playlist('dc-b', { labels: { dc: 'yes' } });
    await playlist('dc-c', { labels: { dc: 'no' } });
    await playlist('dc-d', { labels: { dc: 'yes' }, finalizers: [KEEP] });
    const res = await t.as.delete(`${PLAYLISTS}?labelSelector=dc%3Dyes`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ apiVersion: 'playlist.svc.app/v1', kind: 'PlaylistList', metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } });
    expect(names(res.body.items)).toEqual(['dc-a', 'dc-b', 'dc-d']);
    expect(res.body.items[2].metadata.deletionTimestamp).toEqual(expect.stringMatching(RFC3339));
    const left = await t.as.get(`${PLAYLISTS}?labelSelector=dc`);
    expect(names(left.body.items)).toEqual(['dc-c', 'dc-d']);

    const byName = await t.as.delete(`${PLAYLISTS}?fieldSelector=metadata.name%3Ddc-c`);
    expect(names(byName.body.items)).toEqual(['dc-c']);
    expect((await t.as.get(`${PLAYLISTS}/dc-c`)).status).toBe(404);
  });

  test('dryRun, a bad selector and a failed precondition delete nothing', async () => {
    await playlist('dn-a', { labels: { dn: 'yes' } });
    await playlist('dn-b', { labels: { dn: 'yes' } });
    const before = (await t.as.get(`${PLAYLISTS}?labelSelector=dn`)).body.items;
    const dry = await t.as.delete(`${PLAYLISTS}?labelSelector=dn%3Dyes&dryRun=All`);
    expect(dry.status).toBe(200);
    expect(names(dry.body.items)).toEqual(['dn-a', 'dn-b']);
    const badSelector = await t.as.delete(`${PLAYLISTS}?labelSelector=dn%20in%20(yes`);
    expect(badSelector.status).toBe(400);
    const badField = await t.as.delete(`${PLAYLISTS}?fieldSelector=spec.title%3Dx`);
    expect(badField.status).toBe(400);
    const precondition = await t.as.delete(`${PLAYLISTS}?labelSelector=dn%3Dyes`).send({ preconditions: { uid: before[1].metadata.uid } });
    expect(precondition.status).toBe(409);
    expect((await t.as.get(`${PLAYLISTS}?labelSelector=dn`)).body.items).toEqual(before);
  });

  test('folders cascade as single deletes do', async () => {
    await t.as.post(FOLDERS).send({ metadata: { name: 'dcf-1', labels: { dcf: 'yes' } }, spec: { title: '1' } });
    await t.as.post(FOLDERS).send({ metadata: { name: 'dcf-sub', annotations: { 'svc.app/folder': 'dcf-1' } }, spec: { title: 'sub' } });
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'dcf-dash', annotations: { 'svc.app/folder': 'dcf-sub' } }, spec: { title: 'D' } });
    await t.as.post(FOLDERS).send({ metadata: { name: 'dcf-2', labels: { dcf: 'no' } }, spec: { title: '2' } });
    const res = await t.as.delete(`${FOLDERS}?labelSelector=dcf%3Dyes`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('FolderList');
    expect(names(res.body.items)).toEqual(['dcf-1']);
    expect((await t.as.get(`${FOLDERS}/dcf-sub`)).status).toBe(404);
    expect((await t.as.get(`${DASHBOARDS}/dcf-dash`)).status).toBe(404);
    expect((await t.as.get(`${FOLDERS}/dcf-2`)).status).toBe(200);
  });
});
