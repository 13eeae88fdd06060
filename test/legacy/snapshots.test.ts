/**
 * Snapshots (spec §2.9, §4.7): the legacy routes over the Snapshot kind, read by key and deleted by delete key
 * without credentials, the delete rules, the expiry sweeper on several replicas, and what the database holds.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { silentLogger } from '../../pkg/log';
import { SnapshotSweeper } from '../../pkg/snapshots/sweeper';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { storedText } from '../support/stored-text';
import { as, createUser } from '../support/users';

const SNAPSHOTS = '/apis/dashboard.svc.app/v1beta1/namespaces/default/snapshots';
const TYPE = { group: 'dashboard.svc.app', resource: 'snapshots' };
const DELETED = "Snapshot deleted. It might take an hour before it's cleared from any CDN caches.";

let t: TestApp;
let otherOrg: number;
beforeAll(async () => {
  t = await startTestApp(['--server.root_url=https://dash.example/']);
  await createUser(t, 'sn-viewer', { 1: 'Viewer' });
  await createUser(t, 'sn-viewer2', { 1: 'Viewer' });
  await createUser(t, 'sn-editor', { 1: 'Editor' });
  otherOrg = (await t.users.createOrg(SYSTEM, 'Snapshots elsewhere')).id;
  await createUser(t, 'sn-other', { [otherOrg]: 'Admin' });
  expect((await t.as.post(DASHBOARDS).send({ metadata: { name: 'sn-src' }, spec: { title: 'Source board' } })).status).toBe(201);
}, 120_000); // the embedded database starts slowly on a busy machine
afterAll(() => t.close());

const model = (extra: object = {}) => ({ title: 'Source board', panels: [{ id: 1, type: 'stat', snapshotData: [{ v: 42 }] }], ...extra });
const take = (body: object, who = t.as) => who.post('/api/snapshots').send(body);

describe('create and read', () => {
  it('answers the keys once; anyone with the key reads it, cached an hour', async () => {
    const res = await take({ dashboard: model({ uid: 'sn-src' }), name: 'Incident', expires: 3600 });
    expect(res.status).toBe(200);
    const { key, deleteKey, id } = res.body;
    expect(key).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(deleteKey).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(deleteKey).not.toBe(key);
    expect(id).toBeGreaterThan(0);
    expect(res.body).toEqual({ key, deleteKey, id, url: `https://dash.example/dashboard/snapshot/${key}`, deleteUrl: `https://dash.example/api/snapshots-delete/${deleteKey}` });

    const read = await t.anonymous.get(`/api/snapshots/${key}`);
    expect(read.status).toBe(200);
    expect(read.headers['cache-control']).toBe('public, max-age=3600');
    expect(read.body.dashboard).toEqual(model({ uid: 'sn-src' }));
    const expires = Date.parse(read.body.meta.expires);
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000);
    expect(read.body.meta).toEqual({ isSnapshot: true, type: 'snapshot', canSave: false, canEdit: false, canStar: false, slug: 'source-board', created: expect.any(String), expires: read.body.meta.expires });
    // Another organization's member reads it too: the key is the permission.
    expect((await as(t, 'sn-other').get(`/api/snapshots/${key}`)).status).toBe(200);
    const missing = await t.anonymous.get('/api/snapshots/nope');
    expect([missing.status, missing.body]).toEqual([404, { message: 'Dashboard snapshot not found' }]);
  });

  it('names a snapshot "Unnamed snapshot" and makes it never expire (50 years) by default', async () => {
    const { key } = (await take({ dashboard: model() })).body;
    const [item] = (await t.as.get(`/api/dashboard/snapshots?query=unnamed`)).body.filter((s: { key: string }) => s.key === key);
    expect(item.name).toBe('Unnamed snapshot');
    expect(new Date(item.expires).getUTCFullYear()).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 49);
  });

  it('an external snapshot keeps the keys given and points at the external server', async () => {
    const res = await take({ dashboard: model(), external: true, key: 'ext-key-1', deleteKey: 'ext-delete-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ key: 'ext-key-1', deleteKey: 'ext-delete-1', url: 'https://snapshots.svc.example/dashboard/snapshot/ext-key-1' });
    const [item] = (await t.as.get('/api/dashboard/snapshots')).body.filter((s: { key: string }) => s.key === 'ext-key-1');
    expect(item).toMatchObject({ external: true, externalUrl: 'https://snapshots.svc.example/dashboard/snapshot/ext-key-1' });
    // A key is one snapshot's, in every organization.
    const again = await take({ dashboard: model(), key: 'ext-key-1' }, as(t, 'sn-other'));
    expect(again.status).toBe(409);
  });

  it('shows through /apis as a Snapshot, without its delete key', async () => {
    const { key, deleteKey } = (await take({ dashboard: model(), name: 'Via apis' })).body;
    const obj = (await t.as.get(`${SNAPSHOTS}/${key}`)).body;
    expect(obj).toMatchObject({ kind: 'Snapshot', apiVersion: 'dashboard.svc.app/v1beta1', metadata: { name: key }, spec: { name: 'Via apis', key, external: false } });
    expect(JSON.stringify(obj)).not.toContain(deleteKey);
  });
});

describe('list', () => {
  it('org Admins see the organization\'s, others their own; query and limit (1000 when invalid)', async () => {
    const mine = (await take({ dashboard: model(), name: 'Viewer list A' }, as(t, 'sn-viewer'))).body.key;
    await take({ dashboard: model(), name: 'Viewer list B' }, as(t, 'sn-viewer2')).expect(200);
    const names = (body: { name: string }[]) => body.map((s) => s.name);
    expect(names((await as(t, 'sn-viewer').get('/api/dashboard/snapshots?query=viewer list')).body)).toEqual(['Viewer list A']);
    expect(names((await t.as.get('/api/dashboard/snapshots?query=VIEWER LIST&limit=zz')).body)).toEqual(['Viewer list A', 'Viewer list B']);
    expect(names((await t.as.get('/api/dashboard/snapshots?query=viewer list&limit=1')).body)).toEqual(['Viewer list A']);
    const [item] = (await as(t, 'sn-viewer').get('/api/dashboard/snapshots?query=viewer list')).body;
    const viewerId = (await t.users.userByLoginOrEmail('sn-viewer'))!.id;
    expect(item).toEqual({ id: expect.any(Number), name: 'Viewer list A', key: mine, orgId: 1, userId: viewerId, external: false, externalUrl: '', expires: expect.any(String), created: expect.any(String), updated: expect.any(String) });
    expect((await as(t, 'sn-other').get('/api/dashboard/snapshots?query=viewer list')).body).toEqual([]);
  });
});

describe('delete', () => {
  it('by key: the creator, or who may write the source dashboard while it exists; else 403; another org 404', async () => {
    const byViewer = (await take({ dashboard: model({ uid: 'sn-src' }), name: 'Del' }, as(t, 'sn-viewer'))).body;
    const denied = await as(t, 'sn-viewer2').delete(`/api/snapshots/${byViewer.key}`);
    expect([denied.status, denied.body]).toEqual([403, { message: 'Access denied to this snapshot' }]);
    expect((await as(t, 'sn-other').delete(`/api/snapshots/${byViewer.key}`)).status).toBe(404);
    // Editors have Edit on a root dashboard: they may delete its snapshots.
    const res = await as(t, 'sn-editor').delete(`/api/snapshots/${byViewer.key}`);
    expect([res.status, res.body]).toEqual([200, { message: DELETED, id: byViewer.id }]);
    expect((await t.anonymous.get(`/api/snapshots/${byViewer.key}`)).status).toBe(404);
    const gone = await as(t, 'sn-viewer').delete(`/api/snapshots/${byViewer.key}`);
    expect([gone.status, gone.body]).toEqual([404, { message: 'Snapshot not found' }]);

    const own = (await take({ dashboard: model(), name: 'Own' }, as(t, 'sn-viewer'))).body;
    expect((await as(t, 'sn-viewer').delete(`/api/snapshots/${own.key}`)).status).toBe(200);
  });

  it('a snapshot of a dashboard since deleted: only its creator (or an org Admin) deletes it, not any Viewer (the anchor advisory)', async () => {
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'sn-doomed' }, spec: { title: 'Doomed' } }).expect(201);
    const snap = (await take({ dashboard: model({ uid: 'sn-doomed' }) }, as(t, 'sn-viewer'))).body;
    await t.as.delete(`${DASHBOARDS}/sn-doomed`).expect(200);
    expect((await as(t, 'sn-viewer2').delete(`/api/snapshots/${snap.key}`)).status).toBe(403);
    expect((await as(t, 'sn-editor').delete(`/api/snapshots/${snap.key}`)).status).toBe(403);
    expect((await t.as.delete(`/api/snapshots/${snap.key}`)).status).toBe(200);
  });

  it('by delete key, without credentials; a wrong or used key is 404', async () => {
    const snap = (await take({ dashboard: model() })).body;
    const wrong = await t.anonymous.get(`/api/snapshots-delete/${snap.key}`);
    expect([wrong.status, wrong.body]).toEqual([404, { message: 'Snapshot not found' }]);
    const res = await t.anonymous.get(`/api/snapshots-delete/${snap.deleteKey}`);
    expect([res.status, res.body]).toEqual([200, { message: DELETED, id: snap.id }]);
    expect((await t.anonymous.get(`/api/snapshots/${snap.key}`)).status).toBe(404);
    expect((await t.anonymous.get(`/api/snapshots-delete/${snap.deleteKey}`)).status).toBe(404);
  });
});

describe('expiry', () => {
  const expired = async (name: string) => {
    const res = await t.as.post(SNAPSHOTS).send({ metadata: { name }, spec: { name, expires: '2001-01-01T00:00:00Z' } });
    expect(res.status).toBe(201);
    return res.body.spec.key as string;
  };

  it('an expired snapshot reads as missing and is not listed before the sweeper deletes it', async () => {
    const key = await expired('sn-exp-read');
    expect((await t.anonymous.get(`/api/snapshots/${key}`)).status).toBe(404);
    expect((await t.as.get('/api/dashboard/snapshots?query=sn-exp-read')).body).toEqual([]);
    expect((await t.as.get(`${SNAPSHOTS}/sn-exp-read`)).status).toBe(200);
  });

  it('sweepers of several replicas at once delete each expired snapshot exactly once, and nothing else', async () => {
    const replicas = [new SnapshotSweeper(t.registry, silentLogger), new SnapshotSweeper(t.registry, silentLogger), new SnapshotSweeper(t.registry, silentLogger)];
    await replicas[0].sweepOnce(); // what earlier tests left expired
    const keys = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((s) => expired(`sn-sweep-${s}`)));
    const live = (await take({ dashboard: model(), expires: 3600, name: 'Live' })).body.key;
    const counts = await Promise.all(replicas.map((r) => r.sweepOnce()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(keys.length);
    for (const s of ['a', 'b', 'c', 'd', 'e']) expect((await t.as.get(`${SNAPSHOTS}/sn-sweep-${s}`)).status).toBe(404);
    expect((await t.anonymous.get(`/api/snapshots/${live}`)).status).toBe(200);
    expect(await replicas[0].sweepOnce()).toBe(0);
  });
});

describe('what the database holds', () => {
  it('never the delete key, nor the dashboard JSON in clear (encrypted at rest), which reads back by key', async () => {
    const snap = (await take({ dashboard: model({ title: 'Stored board' }) })).body;
    const text = await storedText(t, TYPE);
    expect(text).toContain(snap.key);
    expect(text).not.toContain(snap.deleteKey);
    expect(text).not.toContain('Stored board');
    expect(text).not.toContain('snapshotData');
    const read = await t.anonymous.get(`/api/snapshots/${snap.key}`);
    expect([read.status, read.body.dashboard?.title]).toEqual([200, 'Stored board']);
  });
});

describe('bad input', () => {
  it('each is a 4xx {message} and stores nothing', async () => {
    const before = (await t.as.get(SNAPSHOTS)).body.items.map((s: { metadata: { name: string } }) => s.metadata.name).sort();
    const cases: [string, () => Promise<{ status: number; body: { message?: unknown } }>, number][] = [
      ['no dashboard', () => take({ name: 'x' }), 400],
      ['dashboard not an object', () => take({ dashboard: 'x' }), 400],
      ['body an array', () => t.as.post('/api/snapshots').send([1]), 400],
      ['malformed JSON', () => t.as.post('/api/snapshots').set('Content-Type', 'application/json').send('{"dashboard":'), 400],
      ['name a number', () => take({ dashboard: model(), name: 5 }), 400],
      ['expires negative', () => take({ dashboard: model(), expires: -1 }), 400],
      ['expires a fraction', () => take({ dashboard: model(), expires: 1.5 }), 400],
      ['expires a string', () => take({ dashboard: model(), expires: '60' }), 400],
      // Past 9999-12-31T23:59:59Z an expiry has no RFC 3339 timestamp (Date would throw).
      ['expires past the year 9999', () => take({ dashboard: model(), expires: 10000000000000 }), 400],
      ['expires just past the year 9999', () => take({ dashboard: model(), expires: 1000000000000 }), 400],
      ['external not a boolean', () => take({ dashboard: model(), external: 'yes' }), 400],
      ['external without keys', () => take({ dashboard: model(), external: true }), 400],
      ['a key with a slash', () => take({ dashboard: model(), key: 'a/b' }), 400],
      ['a deleteKey too long', () => take({ dashboard: model(), deleteKey: 'k'.repeat(64) }), 400],
      ['an unknown dashboard uid', () => take({ dashboard: model({ uid: 'no-such-board' }) }), 400],
      ['delete an unknown key', () => t.as.delete('/api/snapshots/no-such-key'), 404],
      ['delete a malformed key', () => t.as.delete('/api/snapshots/%E2%82%AC'), 404],
      ['delete by a malformed delete key', () => t.anonymous.get('/api/snapshots-delete/%E2%82%AC'), 404],
      ['read a NUL key', () => t.anonymous.get('/api/snapshots/a%00b'), 400],
    ];
    for (const [label, send, code] of cases) {
      const res = await send();
      expect([label, res.status, typeof res.body.message]).toEqual([label, code, 'string']);
    }
    const unknown = await take({ dashboard: model({ uid: 'no-such-board' }) });
    expect(unknown.body.message).toBe('Dashboard not found');
    expect((await take({ dashboard: model(), expires: 1000000000000 })).body.message).toMatch(/expires lies past the year 9999/);
    const after = (await t.as.get(SNAPSHOTS)).body.items.map((s: { metadata: { name: string } }) => s.metadata.name).sort();
    expect(after).toEqual(before);
  });
});

describe('settings', () => {
  it('shared-options tells them; snapshots.enabled and external_enabled refuse creates', async () => {
    expect((await t.as.get('/api/snapshot/shared-options')).body).toEqual({
      snapshotEnabled: true,
      externalSnapshotURL: 'https://snapshots.svc.example',
      externalSnapshotName: 'Publish to snapshots.svc.example',
      externalEnabled: true,
    });
    const off = await startTestApp(['--snapshots.external_enabled=false']);
    try {
      expect((await off.as.get('/api/snapshot/shared-options')).body).toMatchObject({ snapshotEnabled: true, externalEnabled: false });
      const ext = await off.as.post('/api/snapshots').send({ dashboard: model(), external: true, key: 'k1', deleteKey: 'k2' });
      expect([ext.status, ext.body.message]).toEqual([403, 'External dashboard creation is disabled']);
      expect((await off.as.post('/api/snapshots').send({ dashboard: model() })).status).toBe(200);
    } finally {
      await off.close();
    }
    const disabled = await startTestApp(['--snapshots.enabled=false']);
    try {
      const res = await disabled.as.post('/api/snapshots').send({ dashboard: model() });
      expect([res.status, res.body.message]).toEqual([403, 'Dashboard Snapshots are disabled']);
    } finally {
      await disabled.close();
    }
  }, 120_000);
});
