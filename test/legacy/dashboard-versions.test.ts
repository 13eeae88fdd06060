/**
 * Dashboard version history through the legacy API (spec §4.4, §2.13): the registry's history of the Dashboard
 * kind, paged with the registry's continue tokens, one version read with its data, and restore.
 */
import { allKinds } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { silentLogger } from '../../pkg/log';
import { Compactor } from '../../pkg/registry';
import { registryOptions } from '../../pkg/server/server';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, RFC3339 } from '../support/paths';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const save = (body: object) => t.as.post('/api/dashboards/db').send(body);
const versions = (uid: string, query = '') => t.as.get(`/api/dashboards/uid/${uid}/versions${query}`);

/** Saves `titles` in turn as versions 1..n of `uid`, each with a message naming it. */
async function history(uid: string, titles: string[]): Promise<number> {
  let id = 0;
  for (const [i, title] of titles.entries()) {
    const res = await save({ dashboard: { id: id || null, uid, title, version: i }, message: `save ${i + 1}` });
    expect(res.status).toBe(200);
    id = res.body.id;
  }
  return id;
}

test('lists versions newest first as records of spec §2.13', async () => {
  const id = await history('hist', ['One', 'Two', 'Three']);
  const res = await versions('hist');
  expect(res.status).toBe(200);
  expect(res.body.continueToken).toBe('');
  expect(res.body.versions).toHaveLength(3);
  expect(res.body.versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
  expect(res.body.versions[0]).toEqual({
    id: expect.any(Number),
    dashboardId: id,
    uid: 'hist',
    parentVersion: 2,
    restoredFrom: 0,
    version: 3,
    created: expect.stringMatching(RFC3339),
    createdBy: 'admin',
    message: 'save 3',
  });
  expect(res.body.versions[2]).toMatchObject({ version: 1, parentVersion: 0, message: 'save 1' });
  expect(new Set(res.body.versions.map((v: { id: number }) => v.id)).size).toBe(3);
});

test('pages with limit and the continueToken; limit defaults to 1000 also when invalid; start skips', async () => {
  await history('paged', ['a', 'b', 'c', 'd', 'e']);
  const first = await versions('paged', '?limit=2');
  expect(first.body.versions.map((v: { version: number }) => v.version)).toEqual([5, 4]);
  expect(first.body.continueToken).not.toBe('');
  const second = await versions('paged', `?limit=2&continueToken=${first.body.continueToken}`);
  expect(second.body.versions.map((v: { version: number }) => v.version)).toEqual([3, 2]);
  const third = await versions('paged', `?limit=2&continueToken=${second.body.continueToken}`);
  expect(third.body.versions.map((v: { version: number }) => v.version)).toEqual([1]);
  expect(third.body.continueToken).toBe('');

  for (const q of ['', '?limit=abc', '?limit=-3', '?limit=0']) {
    const res = await versions('paged', q);
    expect([q, res.body.versions.length, res.body.continueToken]).toEqual([q, 5, '']);
  }
  expect((await versions('paged', '?start=3')).body.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  // start skips before limit counts; the token resumes after the last version answered.
  const skipped = await versions('paged', '?start=1&limit=2');
  expect(skipped.body.versions.map((v: { version: number }) => v.version)).toEqual([4, 3]);
  const rest = await versions('paged', `?limit=5&continueToken=${skipped.body.continueToken}`);
  expect([rest.body.versions.map((v: { version: number }) => v.version), rest.body.continueToken]).toEqual([[2, 1], '']);

  const forged = await versions('paged', '?continueToken=not-a-token!');
  expect([forged.status, forged.body]).toEqual([400, { message: 'continue key is not valid: not base64url encoded' }]);
  const elsewhere = await versions('hist', `?limit=2&continueToken=${first.body.continueToken}`);
  expect([elsewhere.status, elsewhere.body]).toEqual([400, { message: 'continue key is not valid: it belongs to another object' }]);
});

test('a page reads its own versions from storage, not every row of the history before it', async () => {
  await history('deep', Array.from({ length: 12 }, (_, i) => `Deep ${i + 1}`));
  // A write that changes only labels: a history row that belongs to version 12, never a version of its own.
  const stored = (await t.as.get(`${DASHBOARDS}/deep`)).body;
  await t.as.put(`${DASHBOARDS}/deep`).send({ ...stored, metadata: { ...stored.metadata, labels: { ...stored.metadata.labels, team: 'a' } } }).expect(200);
  const all = (await versions('deep')).body.versions.map((v: { version: number; message: string }) => [v.version, v.message]);
  expect(all).toEqual(Array.from({ length: 12 }, (_, i) => [12 - i, `save ${12 - i}`]));
  const read: number[] = [];
  const storage = t.storage;
  const { objectHistory, objectVersions } = storage;
  storage.objectHistory = async (key, opts) => {
    const rows = await objectHistory.call(storage, key, opts);
    read.push(rows.length);
    return rows;
  };
  storage.objectVersions = async (key, query) => {
    const rows = await objectVersions.call(storage, key, query);
    read.push(rows.length);
    return rows;
  };
  try {
    const deep = await versions('deep', '?start=8&limit=2');
    expect(deep.body.versions.map((v: { version: number }) => v.version)).toEqual([4, 3]);
    // The page and one more, to know whether a token is due.
    expect(read).toEqual([3]);
    read.length = 0;
    const rest = await versions('deep', `?limit=5&continueToken=${deep.body.continueToken}`);
    expect([rest.body.versions.map((v: { version: number }) => v.version), rest.body.continueToken]).toEqual([[2, 1], '']);
    expect(read).toEqual([2]);
    read.length = 0;
    expect((await t.as.get('/api/dashboards/uid/deep/versions/3')).body).toMatchObject({ version: 3, message: 'save 3' });
    expect(read).toEqual([1]);
  } finally {
    storage.objectHistory = objectHistory;
    storage.objectVersions = objectVersions;
  }
});

test('a write that changes no spec is no new version; a deleted and re-created dashboard starts a new history', async () => {
  await history('life', ['L1', 'L2']);
  const stored = (await t.as.get(`${DASHBOARDS}/life`)).body;
  await t.as.put(`${DASHBOARDS}/life`).send({ ...stored, metadata: { ...stored.metadata, labels: { ...stored.metadata.labels, team: 'a' } } });
  expect((await versions('life')).body.versions.map((v: { version: number; message: string }) => [v.version, v.message])).toEqual([
    [2, 'save 2'],
    [1, 'save 1'],
  ]);
  expect((await t.as.delete('/api/dashboards/uid/life')).status).toBe(200);
  expect((await versions('life')).status).toBe(404);
  await save({ dashboard: { uid: 'life', title: 'Reborn' }, message: 'again' });
  expect((await versions('life')).body.versions.map((v: { version: number; message: string }) => [v.version, v.message])).toEqual([[1, 'again']]);
});

test('reads one version with its data; unknown ones are 404', async () => {
  const id = await history('one', ['First', 'Second']);
  const res = await t.as.get('/api/dashboards/uid/one/versions/1');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ version: 1, uid: 'one', dashboardId: id, message: 'save 1', createdBy: 'admin' });
  expect(res.body.data).toEqual({ id, uid: 'one', title: 'First', version: 1 });

  const missing = await t.as.get('/api/dashboards/uid/one/versions/7');
  expect([missing.status, missing.body]).toEqual([404, { message: `Dashboard version 7 not found for dashboardId ${id}` }]);
  const zero = await t.as.get('/api/dashboards/uid/one/versions/0');
  expect([zero.status, zero.body]).toEqual([404, { message: `Dashboard version 0 not found for dashboardId ${id}` }]);
  for (const bad of ['abc', '-1', '1.5', '1e3', '99999999999999999999']) {
    const res = await t.as.get(`/api/dashboards/uid/one/versions/${bad}`);
    expect([bad, res.status, res.body]).toEqual([bad, 400, { message: 'version is invalid' }]);
  }
  const gone = await t.as.get('/api/dashboards/uid/nope/versions/1');
  expect([gone.status, gone.body]).toEqual([404, { message: 'Dashboard not found' }]);
});

test('restore saves the old model as a new version that says where it came from', async () => {
  const id = await history('rest', ['Good', 'Broken']);
  const res = await t.as.post('/api/dashboards/uid/rest/restore').send({ version: 1 });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id, uid: 'rest', url: '/d/rest/good', status: 'success', version: 3, slug: 'good', folderUid: '' });
  expect((await t.as.get('/api/dashboards/uid/rest')).body.dashboard).toEqual({ id, uid: 'rest', title: 'Good', version: 3 });
  const [newest, previous] = (await versions('rest')).body.versions;
  expect(newest).toMatchObject({ version: 3, parentVersion: 2, restoredFrom: 1, message: 'Restored from version 1' });
  expect(previous).toMatchObject({ version: 2, restoredFrom: 0, message: 'save 2' });

  expect((await t.as.post('/api/dashboards/uid/rest/restore').send({ version: 9 })).body).toEqual({ message: 'Dashboard version not found' });
  expect((await t.as.post('/api/dashboards/uid/rest/restore').send({ version: 'one' })).status).toBe(400);
  expect((await t.as.post('/api/dashboards/uid/nope/restore').send({ version: 1 })).status).toBe(404);
});

test("another org's history is not reachable", async () => {
  const org = await t.users!.createOrg(SYSTEM, 'History elsewhere');
  await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
  await t.as.post('/api/dashboards/db').set('X-Svc-Org-Id', String(org.id)).send({ dashboard: { uid: 'theirs', title: 'Theirs' } });
  expect((await versions('theirs')).status).toBe(404);
  expect((await t.as.get('/api/dashboards/uid/theirs/versions/1')).status).toBe(404);
  expect((await versions('theirs').set('X-Svc-Org-Id', String(org.id))).body.versions).toHaveLength(1);
});

describe('dashboards.versions_to_keep', () => {
  let five: TestApp;
  beforeAll(async () => {
    five = await startTestApp(['--dashboards.versions_to_keep=5']);
  });
  afterAll(() => five.close());

  test('keeps the newest versions of each dashboard: older ones are gone from the list and 404', async () => {
    let id = 0;
    for (let i = 0; i < 12; i++) {
      const res = await five.as.post('/api/dashboards/db').send({ dashboard: { id: id || null, uid: 'kept', title: `Save ${i + 1}`, version: i } });
      expect(res.status).toBe(200);
      id = res.body.id;
    }
    const listed = async (query = '') => (await five.as.get(`/api/dashboards/uid/kept/versions${query}`)).body;
    expect((await listed()).versions.map((v: { version: number }) => v.version)).toEqual([12, 11, 10, 9, 8]);
    // Paged, the last page ends at the oldest kept version with no further token.
    const first = await listed('?limit=3');
    expect(first.versions.map((v: { version: number }) => v.version)).toEqual([12, 11, 10]);
    const second = await listed(`?limit=3&continueToken=${first.continueToken}`);
    expect([second.versions.map((v: { version: number }) => v.version), second.continueToken]).toEqual([[9, 8], '']);
    expect((await five.as.get('/api/dashboards/uid/kept/versions/8')).body.data).toMatchObject({ title: 'Save 8' });
    const old = await five.as.get('/api/dashboards/uid/kept/versions/7');
    expect([old.status, old.body]).toEqual([404, { message: `Dashboard version 7 not found for dashboardId ${id}` }]);
    expect((await five.as.post('/api/dashboards/uid/kept/restore').send({ version: 3 })).status).toBe(404);

    // Compaction then removes their rows once past the history window, and what is shown stays the same.
    const compactor = new Compactor(five.storage, allKinds, five.config.registry.history_window_seconds, silentLogger, registryOptions(five.config).versionsToKeep);
    expect(await compactor.compactOnce(Date.now() + 2 * 3_600_000)).toBeGreaterThanOrEqual(7);
    const rows = await five.storage.objectHistory({ group: 'dashboard.svc.app', resource: 'dashboards', namespace: 'default', name: 'kept' }, { limit: 100 });
    expect(rows).toHaveLength(5);
    expect((await listed()).versions.map((v: { version: number }) => v.version)).toEqual([12, 11, 10, 9, 8]);
    expect((await five.as.get('/api/dashboards/uid/kept')).body.dashboard).toMatchObject({ title: 'Save 12', version: 12 });
  });

  test('by default a dashboard keeps its newest 20', async () => {
    await history('twenty', Array.from({ length: 22 }, (_, i) => `Save ${i + 1}`));
    const shown = (await versions('twenty')).body.versions.map((v: { version: number }) => v.version);
    expect(shown).toEqual(Array.from({ length: 20 }, (_, i) => 22 - i));
    expect((await t.as.get('/api/dashboards/uid/twenty/versions/2')).status).toBe(404);
  });
});
