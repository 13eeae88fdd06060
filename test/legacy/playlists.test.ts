/**
 * The legacy playlists (/api/playlists, the anchor's shapes) as a client of the Playlist kind: what /api writes,
 * /apis and its watch show, and the reverse; items are checked as /apis checks them; writes need Editor.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { watchApis } from '../support/apis-watch';
import { PLAYLISTS } from '../support/paths';
import { recordReads } from '../support/storage-reads';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await createUser(t, 'pl-viewer', { 1: 'Viewer' });
  await createUser(t, 'pl-editor', { 1: 'Editor' });
}, 120_000); // the embedded database starts slowly on a busy machine
afterAll(() => t.close());

const ID = 'svc.app/deprecatedInternalID';
const items = [
  { type: 'dashboard_by_uid', value: 'abc' },
  { type: 'dashboard_by_tag', value: 'ops' },
];

describe('the anchor shapes', () => {
  it('creates, reads, lists, updates and deletes', async () => {
    const created = await t.as.post('/api/playlists').send({ uid: 'pl-a', name: 'Morning', interval: '5m', items });
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    expect(id).toBeGreaterThan(0);
    expect(created.body).toEqual({ id, uid: 'pl-a', name: 'Morning', interval: '5m', items });

    expect((await t.as.get('/api/playlists/pl-a')).body).toEqual({ uid: 'pl-a', name: 'Morning', interval: '5m', items });
    expect((await t.as.get('/api/playlists/pl-a/items')).body).toEqual(items);
    expect((await t.as.get('/api/playlists?query=MORN')).body).toEqual([{ id, uid: 'pl-a', name: 'Morning', interval: '5m' }]);
    expect((await t.as.get('/api/playlists?query=nothing')).body).toEqual([]);

    const put = await t.as.put('/api/playlists/pl-a').send({ name: 'Evening', interval: '10m', items: [items[1]] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ uid: 'pl-a', name: 'Evening', interval: '10m', items: [items[1]] });

    const del = await t.as.delete('/api/playlists/pl-a');
    expect([del.status, del.body]).toEqual([200, '']);
    const gone = await t.as.get('/api/playlists/pl-a');
    expect([gone.status, gone.body]).toEqual([404, { message: 'Playlist not found' }]);
    expect((await t.as.get('/api/playlists/pl-a/items')).status).toBe(404);
    expect((await t.as.put('/api/playlists/pl-a').send({ name: 'X', interval: '5m', items: [] })).status).toBe(404);
    expect((await t.as.delete('/api/playlists/pl-a')).status).toBe(404);
  });

  it('generates a 14-character uid; limit caps the list (1000 when invalid), sorted by name', async () => {
    const a = await t.as.post('/api/playlists').send({ name: 'Lim B', interval: '1m' });
    expect(a.body.uid).toMatch(/^[A-Za-z0-9]{14}$/);
    expect(a.body.items).toEqual([]);
    await t.as.post('/api/playlists').send({ name: 'Lim A', interval: '1m' }).expect(200);
    expect((await t.as.get('/api/playlists?query=lim&limit=1')).body.map((p: { name: string }) => p.name)).toEqual(['Lim A']);
    expect((await t.as.get('/api/playlists?query=lim&limit=abc')).body.map((p: { name: string }) => p.name)).toEqual(['Lim A', 'Lim B']);
  });

  it('matches and sorts in the database: a case-folded title (then uid), for a Viewer too; only the answered page is read', async () => {
    for (const [uid, name] of [['ord-3', 'ord beta'], ['ord-1', 'Ord Beta'], ['ord-2', 'ORD alpha'], ['ord-4', 'ord Gamma 100%'], ['ord-5', 'Ord delta']]) {
      await t.as.post('/api/playlists').send({ uid, name, interval: '1m' }).expect(200);
    }
    const uids = async (q: string, caller = t.as) => (await caller.get(`/api/playlists?${q}`).expect(200)).body.map((p: { uid: string }) => p.uid);
    expect(await uids('query=oRd')).toEqual(['ord-2', 'ord-1', 'ord-3', 'ord-5', 'ord-4']);
    expect(await uids('query=oRd', as(t, 'pl-viewer'))).toEqual(['ord-2', 'ord-1', 'ord-3', 'ord-5', 'ord-4']);
    // % is a plain character, not a pattern.
    expect(await uids('query=0%25')).toEqual(['ord-4']);
    const reads = recordReads(t.storage);
    try {
      expect(await uids('query=ord&limit=2', as(t, 'pl-viewer'))).toEqual(['ord-2', 'ord-1']);
      expect(reads.reads).toEqual([{ op: 'page', resource: 'playlists', items: 2 }]);
    } finally {
      reads.stop();
    }
  });

  it('Viewers read, Editors write; another organization sees none of it', async () => {
    await t.as.post('/api/playlists').send({ uid: 'pl-roles', name: 'Roles', interval: '5m' }).expect(200);
    const viewer = as(t, 'pl-viewer');
    expect((await viewer.get('/api/playlists/pl-roles')).status).toBe(200);
    expect((await viewer.post('/api/playlists').send({ name: 'No', interval: '5m' })).status).toBe(403);
    expect((await viewer.put('/api/playlists/pl-roles').send({ name: 'No', interval: '5m' })).status).toBe(403);
    expect((await viewer.delete('/api/playlists/pl-roles')).status).toBe(403);
    const editor = as(t, 'pl-editor');
    expect((await editor.put('/api/playlists/pl-roles').send({ name: 'Edited', interval: '5m' })).status).toBe(200);
    const org = await t.users.createOrg(SYSTEM, 'Playlists elsewhere');
    await t.users.setRole(SYSTEM, org.id, 1, 'Admin');
    expect((await t.as.get('/api/playlists/pl-roles').set('X-Svc-Org-Id', String(org.id))).status).toBe(404);
    expect((await t.as.get('/api/playlists?query=Edited').set('X-Svc-Org-Id', String(org.id))).body).toEqual([]);
  });
});

describe('bad input', () => {
  it('each is a 4xx {message} and changes nothing', async () => {
    await t.as.post('/api/playlists').send({ uid: 'pl-bad', name: 'Kept', interval: '5m', items }).expect(200);
    const before = (await t.as.get(PLAYLISTS)).body.items;
    const cases: [string, () => Promise<{ status: number; body: { message?: unknown } }>][] = [
      ['body an array', () => t.as.post('/api/playlists').send([1])],
      ['malformed JSON', () => t.as.post('/api/playlists').set('Content-Type', 'application/json').send('{"name":')],
      ['no name', () => t.as.post('/api/playlists').send({ interval: '5m' })],
      ['empty name', () => t.as.post('/api/playlists').send({ name: ' ', interval: '5m' })],
      ['bad interval', () => t.as.post('/api/playlists').send({ name: 'N', interval: 'soon' })],
      ['unknown item type', () => t.as.post('/api/playlists').send({ name: 'N', interval: '5m', items: [{ type: 'dashboard_by_name', value: 'x' }] })],
      ['empty tag', () => t.as.post('/api/playlists').send({ name: 'N', interval: '5m', items: [{ type: 'dashboard_by_tag', value: '' }] })],
      ['uid item without value', () => t.as.post('/api/playlists').send({ name: 'N', interval: '5m', items: [{ type: 'dashboard_by_uid' }] })],
      ['items not a list', () => t.as.post('/api/playlists').send({ name: 'N', interval: '5m', items: 'x' })],
      ['item not an object', () => t.as.post('/api/playlists').send({ name: 'N', interval: '5m', items: ['x'] })],
      ['uid a number', () => t.as.post('/api/playlists').send({ uid: 7, name: 'N', interval: '5m' })],
      ['bad uid', () => t.as.post('/api/playlists').send({ uid: 'a/b c', name: 'N', interval: '5m' })],
      ['taken uid', () => t.as.post('/api/playlists').send({ uid: 'pl-bad', name: 'N', interval: '5m' })],
      ['update with a bad interval', () => t.as.put('/api/playlists/pl-bad').send({ name: 'N', interval: '5 minutes' })],
      ['update with a bad item', () => t.as.put('/api/playlists/pl-bad').send({ name: 'N', interval: '5m', items: [{ type: 'x', value: 'y' }] })],
      ['update of a body an array', () => t.as.put('/api/playlists/pl-bad').send([])],
    ];
    for (const [label, send] of cases) {
      const res = await send();
      expect([label, res.status >= 400 && res.status < 500, typeof res.body.message]).toEqual([label, true, 'string']);
    }
    const after = (await t.as.get(PLAYLISTS)).body.items;
    expect(after).toEqual(before);
  });

  it('names the legacy field, `name`, where the kind says spec.title', async () => {
    const long = await t.as.post('/api/playlists').send({ name: 'n'.repeat(20_000), interval: '5m' });
    expect([long.status, long.body.message]).toEqual([400, expect.stringMatching(/^name too long, max \d+ characters$/)]);
    const numeric = await t.as.post('/api/playlists').send({ name: 123, interval: '5m' });
    expect(numeric.status).toBe(400);
    expect(numeric.body.message).toMatch(/^name\b/);
    expect(numeric.body.message).not.toMatch(/title/);
  });
});

describe('parity with /apis', () => {
  it('what /api writes reads back through /apis, and the reverse', async () => {
    const created = (await t.as.post('/api/playlists').send({ uid: 'pl-par', name: 'Parity', interval: '5m', items })).body;
    const obj = (await t.as.get(`${PLAYLISTS}/pl-par`)).body;
    expect(obj.spec).toEqual({ title: 'Parity', interval: '5m', items });
    expect(obj.metadata.labels[ID]).toBe(String(created.id));

    const patched = await t.as.patch(`${PLAYLISTS}/pl-par`).set('Content-Type', 'application/merge-patch+json').send({ metadata: { labels: { team: 'a' } }, spec: { title: 'From apis' } });
    expect(patched.status).toBe(200);
    expect((await t.as.get('/api/playlists/pl-par')).body).toEqual({ uid: 'pl-par', name: 'From apis', interval: '5m', items });
    await t.as.put('/api/playlists/pl-par').send({ name: 'Again', interval: '1h', items: [] }).expect(200);
    const after = (await t.as.get(`${PLAYLISTS}/pl-par`)).body;
    expect(after.spec).toEqual({ title: 'Again', interval: '1h', items: [] });
    expect(after.metadata.labels).toEqual({ [ID]: String(created.id), team: 'a' });
  });

  it('a watch on /apis sees the writes of /api', async () => {
    const rv = (await t.as.get(PLAYLISTS)).body.metadata.resourceVersion;
    const w = await watchApis(t.app, `${PLAYLISTS}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name=pl-watch`);
    try {
      await t.as.post('/api/playlists').send({ uid: 'pl-watch', name: 'W1', interval: '5m' }).expect(200);
      await t.as.put('/api/playlists/pl-watch').send({ name: 'W2', interval: '5m' }).expect(200);
      await t.as.delete('/api/playlists/pl-watch').expect(200);
      const events = await w.until(3);
      expect(events.map((e) => [e.type, e.object.spec.title])).toEqual([['ADDED', 'W1'], ['MODIFIED', 'W2'], ['DELETED', 'W2']]);
    } finally {
      await w.close();
    }
  });
});
