/**
 * Parity of the legacy dashboard routes with the Dashboard kind (STYLE rule 12): what each /api route writes reads
 * back identically through /apis, and what /apis writes reads back identically through each /api route; a watch on
 * /apis sees the writes of /api.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS } from '../support/paths';
import { onJsonLines } from '../support/json-lines';

let t: TestApp;
let server: http.Server;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp();
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  expect((await t.as.post(FOLDERS).send({ metadata: { name: 'pf' }, spec: { title: 'Parity folder' } })).status).toBe(201);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const ID = 'svc.app/deprecatedInternalID';
const apis = (uid: string) => t.as.get(`${DASHBOARDS}/${uid}`);
const legacyGet = (uid: string) => t.as.get(`/api/dashboards/uid/${uid}`);

/** Creates through /apis, as a kubectl-like client would. */
async function apisCreate(uid: string, spec: object, annotations: Record<string, string> = {}) {
  const res = await t.as.post(DASHBOARDS).send({ metadata: { name: uid, annotations }, spec });
  expect(res.status).toBe(201);
  return res.body;
}

describe('POST /api/dashboards/db', () => {
  it('writes what /apis reads: spec as sent, folder and message annotations, id label, generation as version', async () => {
    const model = { title: 'Parity', tags: ['a'], panels: [{ id: 1, type: 'timeseries', gridPos: { h: 8, w: 12, x: 0, y: 0 }, custom: { deep: [1] } }], unknownTop: 'kept' };
    const saved = (await t.as.post('/api/dashboards/db').send({ dashboard: { ...model, id: null, uid: 'par-save' }, folderUid: 'pf', message: 'via api' })).body;
    const obj = (await apis('par-save')).body;
    expect(obj.spec).toEqual({ ...model, uid: 'par-save', version: saved.version });
    expect(obj.metadata).toMatchObject({ name: 'par-save', generation: saved.version, labels: { [ID]: String(saved.id) }, annotations: { 'svc.app/folder': 'pf', 'svc.app/message': 'via api' } });

    const update = await t.as.post('/api/dashboards/db').send({ dashboard: { ...model, title: 'Parity 2', id: saved.id, uid: 'par-save', version: saved.version }, folderUid: 'pf' });
    const after = (await apis('par-save')).body;
    expect(after.spec).toEqual({ ...model, title: 'Parity 2', uid: 'par-save', version: update.body.version });
    expect(after.metadata.generation).toBe(update.body.version);
    expect(after.metadata.annotations['svc.app/message']).toBeUndefined();
  });

  it('updates what /apis wrote, keeping its labels and annotations; the version is its generation', async () => {
    const created = await apisCreate('par-upd', { title: 'From apis' }, { team: 'x' });
    const patched = await t.as.patch(`${DASHBOARDS}/par-upd`).set('Content-Type', 'application/merge-patch+json').send({ metadata: { labels: { owner: 'ops' } }, spec: { title: 'Patched' } });
    expect(patched.body.metadata.generation).toBe(2);
    const stale = await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'par-upd', id: Number(created.metadata.labels[ID]), title: 'Stale', version: 1 } });
    expect(stale.status).toBe(412);
    const res = await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'par-upd', id: Number(created.metadata.labels[ID]), title: 'Legacy edit', version: 2 } });
    expect(res.body.version).toBe(3);
    const obj = (await apis('par-upd')).body;
    expect(obj.metadata.labels).toEqual({ [ID]: created.metadata.labels[ID], owner: 'ops' });
    expect(obj.metadata.annotations).toMatchObject({ team: 'x', 'svc.app/createdBy': 'user:admin', 'svc.app/updatedBy': 'user:admin' });
    expect(obj.spec).toEqual({ title: 'Legacy edit', uid: 'par-upd', version: 3 });
  });
});

describe('GET /api/dashboards/uid/:uid', () => {
  it('reads what /apis wrote: the spec with id, uid and version, meta from metadata', async () => {
    const spec = { title: 'Written by apis', tags: ['t'], templating: { list: [] }, anything: { x: 1 } };
    const obj = await apisCreate('par-get', spec, { 'svc.app/folder': 'pf' });
    const res = await legacyGet('par-get');
    expect(res.status).toBe(200);
    expect(res.body.dashboard).toEqual({ ...spec, id: Number(obj.metadata.labels[ID]), uid: 'par-get', version: obj.metadata.generation });
    expect(res.body.meta).toMatchObject({ version: obj.metadata.generation, created: obj.metadata.creationTimestamp, folderUid: 'pf', folderTitle: 'Parity folder', createdBy: 'admin' });
    const folderId = Number((await t.as.get(`${FOLDERS}/pf`)).body.metadata.labels[ID]);
    expect(res.body.meta.folderId).toBe(folderId);
  });
});

describe('DELETE /api/dashboards/uid/:uid', () => {
  it('deletes what /apis reads, and /api no longer finds what /apis deleted', async () => {
    await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'par-del', title: 'Gone' } });
    expect((await t.as.delete('/api/dashboards/uid/par-del')).status).toBe(200);
    expect((await apis('par-del')).status).toBe(404);

    await apisCreate('par-del2', { title: 'Gone too' });
    expect((await t.as.delete(`${DASHBOARDS}/par-del2`)).status).toBe(200);
    expect((await legacyGet('par-del2')).status).toBe(404);
  });
});

describe('versions and restore', () => {
  it('lists the versions /apis wrote, with the message annotation of each write', async () => {
    const obj = await apisCreate('par-ver', { title: 'v1' }, { 'svc.app/message': 'created by apis' });
    const put = await t.as.put(`${DASHBOARDS}/par-ver`).send({ ...obj, metadata: { ...obj.metadata, annotations: { 'svc.app/message': 'edited by apis' } }, spec: { title: 'v2' } });
    expect(put.status).toBe(200);
    const res = await t.as.get('/api/dashboards/uid/par-ver/versions');
    expect(res.body.versions.map((v: { version: number; message: string }) => [v.version, v.message])).toEqual([
      [2, 'edited by apis'],
      [1, 'created by apis'],
    ]);
    expect(res.body.versions[0].id).toBe(Number(put.body.metadata.resourceVersion));
    const one = await t.as.get('/api/dashboards/uid/par-ver/versions/1');
    expect(one.body.data).toEqual({ title: 'v1', id: Number(obj.metadata.labels[ID]), uid: 'par-ver', version: 1 });
  });

  it('restores into what /apis reads: the old spec, a new generation, svc.app/restoredFrom', async () => {
    const obj = await apisCreate('par-rest', { title: 'good', panels: [] });
    await t.as.put(`${DASHBOARDS}/par-rest`).send({ ...obj, spec: { title: 'bad' } });
    expect((await t.as.post('/api/dashboards/uid/par-rest/restore').send({ version: 1 })).status).toBe(200);
    const after = (await apis('par-rest')).body;
    expect(after.spec).toEqual({ title: 'good', panels: [], uid: 'par-rest', version: 3 });
    expect(after.metadata.annotations).toMatchObject({ 'svc.app/restoredFrom': '1', 'svc.app/message': 'Restored from version 1' });
  });
});

describe('GET /api/dashboards/tags', () => {
  it('counts the tags /apis wrote', async () => {
    await apisCreate('par-tag', { title: 'tagged', tags: ['parity-only'] });
    expect((await t.as.get('/api/dashboards/tags')).body).toContainEqual({ term: 'parity-only', count: 1 });
  });
});

describe('watch', () => {
  type Event = { type: string; object: { metadata: { name: string; generation: number; resourceVersion: string }; spec: Record<string, unknown> } };

  /** A watch on the /apis collection, read line by line over a real socket. */
  function watch(query: string): Promise<{ events: Event[]; until(n: number): Promise<Event[]>; close(): void }> {
    return new Promise((resolve, reject) => {
      const events: Event[] = [];
      const req = http.get(`${baseUrl}${DASHBOARDS}?watch=true&${query}`, { auth: `${ADMIN.user}:${ADMIN.password}`, agent: false }, (res) => {
        onJsonLines<Event>(res, (event) => events.push(event));
        const until = async (n: number) => {
          for (const deadline = Date.now() + 5000; events.length < n; ) {
            if (Date.now() > deadline) throw new Error(`got ${JSON.stringify(events.map((e) => [e.type, e.object.metadata.name]))}`);
            await new Promise((r) => setTimeout(r, 20));
          }
          return events;
        };
        resolve({ events, until, close: () => req.destroy() });
      });
      req.on('error', reject);
    });
  }

  it('sees the saves, restores and deletes of /api as they are read through /apis', async () => {
    const rv = (await t.as.get(DASHBOARDS)).body.metadata.resourceVersion;
    const w = await watch(`resourceVersion=${rv}&fieldSelector=metadata.name=par-watch`);
    try {
      const saved = (await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'par-watch', title: 'W1' } })).body;
      await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'par-watch', id: saved.id, title: 'W2', version: 1 } });
      await t.as.post('/api/dashboards/uid/par-watch/restore').send({ version: 1 });
      const before = (await apis('par-watch')).body;
      await t.as.delete('/api/dashboards/uid/par-watch');
      const events = await w.until(4);
      expect(events.map((e) => [e.type, e.object.spec.title, e.object.metadata.generation])).toEqual([
        ['ADDED', 'W1', 1],
        ['MODIFIED', 'W2', 2],
        ['MODIFIED', 'W1', 3],
        ['DELETED', 'W1', 3],
      ]);
      expect(events[2].object).toEqual(before);
    } finally {
      w.close();
    }
  });
});

describe('organizations', () => {
  it('an org-2 save through /api is read in namespace org-2 only', async () => {
    const org = await t.users!.createOrg({ identity: 'service:test' }, 'Parity org');
    await t.users!.setRole({ identity: 'service:test' }, org.id, 1, 'Admin');
    await t.as.post('/api/dashboards/db').set('X-Svc-Org-Id', String(org.id)).send({ dashboard: { uid: 'par-org', title: 'Org 2' } });
    expect((await t.as.get(`/apis/dashboard.svc.app/v1beta1/namespaces/org-${org.id}/dashboards/par-org`)).body.spec.title).toBe('Org 2');
    expect((await apis('par-org')).status).toBe(404);
  });
});
