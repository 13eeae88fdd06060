/**
 * The legacy folder API (spec §4.2) through HTTP, on a real database: every route and its errors in the anchor's
 * words, and parity with /apis (what one API writes, the other reads back; a watch on /apis sees /api writes).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { FOLDERS, RFC3339 } from '../support/paths';
import { as, createUser, PASSWORD } from '../support/users';
import { onJsonLines } from '../support/json-lines';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const NOT_FOUND = { status: 'not-found', message: 'folder not found' };
const VERSION_MISMATCH = { status: 'version-mismatch', message: 'the folder has been changed by someone else' };

async function create(body: Record<string, unknown>) {
  const res = await t.as.post('/api/folders').send(body);
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown> & { id: number; uid: string; version: number };
}

describe('POST /api/folders', () => {
  it('creates a folder with the chosen uid and answers the anchor record', async () => {
    const res = await t.as.post('/api/folders').send({ uid: 'ops', title: '  Operations Team ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      uid: 'ops',
      title: 'Operations Team',
      url: '/dashboards/f/ops/operations-team',
      hasAcl: false,
      canSave: true,
      canEdit: true,
      canAdmin: true,
      canDelete: true,
      createdBy: ADMIN.user,
      created: expect.stringMatching(RFC3339),
      updatedBy: ADMIN.user,
      updated: res.body.created,
      version: 1,
    });
    expect(res.body.id).toBeGreaterThan(0);
  });

  it('generates a uid when none is given, and numbers folders with distinct ids', async () => {
    const a = await create({ title: 'Generated A' });
    const b = await create({ uid: '', title: 'Generated B' });
    expect(a.uid).toMatch(/^[a-z0-9]{14}$/);
    expect(b.uid).toMatch(/^[a-z0-9]{14}$/);
    expect(a.id).not.toBe(b.id);
  });

  it('creates under a parent: parentUid and the parents chain', async () => {
    await create({ uid: 'p-root', title: 'Root' });
    const res = await t.as.post('/api/folders').send({ uid: 'p-child', title: 'Child', parentUid: 'p-root' });
    expect(res.status).toBe(200);
    expect(res.body.parentUid).toBe('p-root');
    expect(res.body.parents).toEqual([expect.objectContaining({ uid: 'p-root', title: 'Root', url: '/dashboards/f/p-root/root', canSave: true })]);
  });

  it.each([
    [{ title: '   ' }, 'folder title cannot be empty'],
    [{}, 'folder title cannot be empty'],
    [{ title: 7 }, 'bad request data'],
    [{ title: 'x', uid: 'has space' }, 'uid contains illegal characters'],
    [{ title: 'x', uid: 'u'.repeat(41) }, 'uid too long, max 40 characters'],
    [{ title: 'x', uid: 'general' }, 'invalid uid for folder provided'],
    [{ title: 'x', uid: 'orphan', parentUid: 'no-such-parent' }, 'folder "no-such-parent" not found'],
  ])('refuses %j with 400 and stores nothing', async (body, message) => {
    const before = (await t.as.get(FOLDERS)).body.items.length;
    const res = await t.as.post('/api/folders').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
    expect((await t.as.get(FOLDERS)).body.items.length).toBe(before);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const res = await t.as.post('/api/folders').set('Content-Type', 'application/json').send('{"title":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'the request body is not valid JSON' });
  });

  it('answers 412 when the uid exists, and keeps the existing folder', async () => {
    await create({ uid: 'taken', title: 'First' });
    const res = await t.as.post('/api/folders').send({ uid: 'taken', title: 'Second' });
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ message: 'a folder/dashboard with the same uid already exists' });
    expect((await t.as.get('/api/folders/taken')).body.title).toBe('First');
  });

  it('needs credentials', async () => {
    const res = await t.anonymous.post('/api/folders').send({ title: 'x' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthorized' });
  });
});

describe('GET /api/folders/:uid and /api/folders/id/:id', () => {
  it('reads a folder by uid and by its numeric id', async () => {
    const made = await create({ uid: 'read-me', title: 'Read Me' });
    const byUid = await t.as.get('/api/folders/read-me');
    expect(byUid.status).toBe(200);
    expect(byUid.body).toEqual(made);
    const byId = await t.as.get(`/api/folders/id/${made.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(made);
  });

  it('answers 404 {status, message} for an unknown uid or id, 400 for a malformed id', async () => {
    expect(await t.as.get('/api/folders/nope')).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await t.as.get('/api/folders/id/999999')).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await t.as.get('/api/folders/id/abc')).toMatchObject({ status: 400, body: { message: 'id is invalid' } });
  });

  it('gives every parent from the root down', async () => {
    await create({ uid: 'chain-a', title: 'A' });
    await create({ uid: 'chain-b', title: 'B', parentUid: 'chain-a' });
    await create({ uid: 'chain-c', title: 'C', parentUid: 'chain-b' });
    const res = await t.as.get('/api/folders/chain-c');
    expect(res.body.parentUid).toBe('chain-b');
    expect(res.body.parents.map((p: { uid: string }) => p.uid)).toEqual(['chain-a', 'chain-b']);
    expect(res.body.parents[1]).toMatchObject({ uid: 'chain-b', title: 'B', parentUid: 'chain-a', version: 1 });
    expect(res.body.parents[1]).not.toHaveProperty('parents');
  });

  it('answers a Viewer with its real permissions: nothing but reading', async () => {
    const viewer = await createUser(t, 'folder-viewer');
    await t.users!.setRole(SYSTEM, 1, viewer.id, 'Viewer');
    await create({ uid: 'for-viewer', title: 'Shared' });
    const res = await as(t, 'folder-viewer').get('/api/folders/for-viewer');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: 'for-viewer', canSave: false, canEdit: false, canAdmin: false, canDelete: false, createdBy: ADMIN.user });
  });
});

describe('permissions', () => {
  it("refuses a Viewer's writes with the permission the route needs, changing nothing", async () => {
    const viewer = await createUser(t, 'folder-vera');
    await t.users!.setRole(SYSTEM, 1, viewer.id, 'Viewer');
    await create({ uid: 'guarded', title: 'Guarded' });
    const vera = (method: 'post' | 'put' | 'delete', path: string) => t.anonymous[method](path).auth('folder-vera', PASSWORD);
    const cases: [Promise<{ status: number; body: unknown }>, string][] = [
      [vera('post', '/api/folders').send({ uid: 'vera-made', title: 'Mine' }), 'folders:create'],
      [vera('put', '/api/folders/guarded').send({ title: 'Mine now', overwrite: true }), 'folders:write'],
      [vera('post', '/api/folders/guarded/move').send({ parentUid: 'ops' }), 'folders:write'],
      [vera('delete', '/api/folders/guarded'), 'folders:delete'],
    ];
    for (const [req, needed] of cases) {
      const res = await req;
      expect([res.status, res.body]).toEqual([403, { title: 'Access denied', message: `You'll need additional permissions to perform this action. Permissions needed: ${needed}`, accessErrorId: expect.stringMatching(/^ACE\d{10}$/) }]);
    }
    expect((await t.as.get('/api/folders/guarded')).body).toMatchObject({ title: 'Guarded', version: 1 });
    expect((await t.as.get('/api/folders/guarded')).body).not.toHaveProperty('parentUid');
    expect((await t.as.get('/api/folders/vera-made')).status).toBe(404);
  });
});

describe('parents the caller may not read', () => {
  it('are redacted in the chain, never shown', async () => {
    const reader = await createUser(t, 'folder-reader');
    await t.users!.setRole(SYSTEM, 1, reader.id, 'Viewer');
    await create({ uid: 'secret-top', title: 'Secret Top' });
    await create({ uid: 'secret-mid', title: 'Secret Mid', parentUid: 'secret-top' });
    await create({ uid: 'open-leaf', title: 'Open Leaf', parentUid: 'secret-mid' });
    // Only org Admins on the top (no Viewer default), and the reader on the leaf alone.
    await t.as.post('/api/folders/secret-top/permissions').send({ items: [{ role: 'Admin', permission: 4 }] }).expect(200);
    await t.as.post('/api/folders/open-leaf/permissions').send({ items: [{ userId: reader.id, permission: 1 }] }).expect(200);
    const res = await as(t, 'folder-reader').get('/api/folders/open-leaf');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: 'open-leaf', parentUid: 'secret-mid', canSave: false });
    expect(res.body.parents).toEqual([
      { uid: 'redacted', title: 'redacted' },
      { uid: 'redacted', title: 'redacted' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('Secret');
    // The admin sees the whole chain.
    expect((await t.as.get('/api/folders/open-leaf')).body.parents.map((p: { title: string }) => p.title)).toEqual(['Secret Top', 'Secret Mid']);
    expect((await as(t, 'folder-reader').get('/api/folders/secret-mid')).status).toBe(403);
  });
});

describe('createdBy and updatedBy', () => {
  it('show the login of whoever wrote, and "Anonymous" once that user is gone', async () => {
    const editor = await createUser(t, 'folder-editor');
    await t.users!.setRole(SYSTEM, 1, editor.id, 'Editor');
    const made = await as(t, 'folder-editor').post('/api/folders').send({ uid: 'by-editor', title: 'By Editor' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ createdBy: 'folder-editor', updatedBy: 'folder-editor' });
    await t.as.put('/api/folders/by-editor').send({ title: 'By Admin', version: 1 }).expect(200);
    expect((await t.as.get('/api/folders/by-editor')).body).toMatchObject({ createdBy: 'folder-editor', updatedBy: ADMIN.user });
    await t.users!.deleteUser(SYSTEM, editor.id);
    expect((await t.as.get('/api/folders/by-editor')).body).toMatchObject({ createdBy: 'Anonymous', updatedBy: ADMIN.user });
  });
});

describe('GET /api/folders', () => {
  beforeAll(async () => {
    await create({ uid: 'list-parent', title: 'List Parent' });
    for (const [uid, title] of [['list-c', 'Charlie'], ['list-a', 'Alpha'], ['list-b', 'Bravo']]) {
      await create({ uid, title, parentUid: 'list-parent' });
    }
    await create({ uid: 'list-grandchild', title: 'Deep', parentUid: 'list-a' });
  });

  it('lists the immediate children of a parent, by title, as {id, uid, title, parentUid}', async () => {
    const res = await t.as.get('/api/folders?parentUid=list-parent');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: expect.any(Number), uid: 'list-a', title: 'Alpha', parentUid: 'list-parent' },
      { id: expect.any(Number), uid: 'list-b', title: 'Bravo', parentUid: 'list-parent' },
      { id: expect.any(Number), uid: 'list-c', title: 'Charlie', parentUid: 'list-parent' },
    ]);
  });

  it('lists only root folders without parentUid', async () => {
    const res = await t.as.get('/api/folders');
    const uids = res.body.map((f: { uid: string }) => f.uid);
    expect(uids).toContain('list-parent');
    expect(uids).not.toContain('list-a');
    expect(uids).not.toContain('list-grandchild');
    expect(res.body.every((f: Record<string, unknown>) => !('parentUid' in f))).toBe(true);
  });

  it('pages with limit and page (from 1); bad values fall back to the defaults', async () => {
    const page = async (q: string) => (await t.as.get(`/api/folders?parentUid=list-parent&${q}`)).body.map((f: { uid: string }) => f.uid);
    expect(await page('limit=2')).toEqual(['list-a', 'list-b']);
    expect(await page('limit=2&page=2')).toEqual(['list-c']);
    expect(await page('limit=2&page=3')).toEqual([]);
    expect(await page('limit=abc&page=0')).toEqual(['list-a', 'list-b', 'list-c']);
  });

  it('pages in title order (case folded, then uid, as /api/search), counting only the folders the caller may read', async () => {
    const pager = await createUser(t, 'folder-pager');
    await t.users!.setRole(SYSTEM, 1, pager.id, 'None');
    // Root folders, as the caller's list of the root holds only those it was given (its role grants none).
    const titles: [string, string][] = [['pg-4', 'Pg Gamma'], ['pg-2', 'pg beta'], ['pg-1', 'Pg Beta'], ['pg-3', 'pg alpha'], ['pg-5', 'Pg Delta'], ['pg-6', 'pg epsilon']];
    for (const [uid, title] of titles) {
      await create({ uid, title });
      if (uid !== 'pg-5') await t.as.post(`/api/folders/${uid}/permissions`).send({ items: [{ userId: pager.id, permission: 1 }] }).expect(200);
    }
    const page = async (q: string) => (await as(t, 'folder-pager').get(`/api/folders?${q}`)).body.map((f: { uid: string }) => f.uid);
    // pg-1 and pg-2 fold to one title: the uid orders them. pg-5 is not the caller's: it takes no place on a page.
    expect(await page('limit=2')).toEqual(['pg-3', 'pg-1']);
    expect(await page('limit=2&page=2')).toEqual(['pg-2', 'pg-6']);
    expect(await page('limit=2&page=3')).toEqual(['pg-4']);
    expect(await page('limit=2&page=4')).toEqual([]);
    expect(await page('limit=4&page=2')).toEqual(['pg-4']);
    const admin = (await t.as.get('/api/folders?limit=1000')).body.map((f: { uid: string }) => f.uid).filter((uid: string) => uid.startsWith('pg-'));
    expect(admin).toEqual(['pg-3', 'pg-1', 'pg-2', 'pg-5', 'pg-6', 'pg-4']);
  });

  it('a caller who reads every folder has its page read alone: the index answers that page’s rows, none of the earlier pages', async () => {
    await create({ uid: 'skip-parent', title: 'Skip Parent' });
    const titles = ['Kilo', 'alpha', 'Echo', 'echo', 'Bravo', 'india', 'Delta'];
    for (const [i, title] of titles.entries()) await create({ uid: `skip-${i}`, title, parentUid: 'skip-parent' });
    const uids = async (q: string) => (await t.as.get(`/api/folders?parentUid=skip-parent&${q}`).expect(200)).body.map((f: { uid: string }) => f.uid);
    const all = await uids('limit=1000');
    // Case folded titles, ties by uid: the order the filtered pages above keep.
    expect(all).toEqual(['skip-1', 'skip-4', 'skip-6', 'skip-2', 'skip-3', 'skip-5', 'skip-0']);
    const read: number[] = [];
    const search = t.storage.search;
    t.storage.search = async (q) => {
      const found = await search.call(t.storage, q);
      read.push(found.hits.length);
      return found;
    };
    try {
      const pages = [];
      for (let p = 1; p <= 4; p++) pages.push(await uids(`limit=2&page=${p}`));
      expect(pages).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4, 6), all.slice(6)]);
      expect(read).toEqual([2, 2, 2, 1]);
      read.length = 0;
      expect(await uids('limit=2&page=5')).toEqual([]);
      expect(read).toEqual([0]);
    } finally {
      t.storage.search = search;
    }
  });

  it('answers 404 for an unknown parent', async () => {
    const res = await t.as.get('/api/folders?parentUid=no-such-folder');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('answers at most 1000 folders by default', async () => {
    await create({ uid: 'many', title: 'Many' });
    const ctx = { requester: { identity: 'user:admin' }, namespace: 'default', fieldManager: 'test' };
    const folders = t.registry.find('folder.svc.app', 'v1beta1', 'folders')!;
    for (let i = 0; i < 1001; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, 1001 - i) }, (_, j) =>
          t.registry.create(ctx, folders, { metadata: { name: `many-${String(i + j).padStart(4, '0')}`, annotations: { 'svc.app/folder': 'many' } }, spec: { title: `M ${String(i + j).padStart(4, '0')}` } }),
        ),
      );
    }
    const first = await t.as.get('/api/folders?parentUid=many');
    expect(first.body).toHaveLength(1000);
    expect(first.body[0].uid).toBe('many-0000');
    const second = await t.as.get('/api/folders?parentUid=many&page=2');
    expect(second.body.map((f: { uid: string }) => f.uid)).toEqual(['many-1000']);
  }, 120_000);
});

describe('PUT /api/folders/:uid', () => {
  it('updates with the current version, which then grows', async () => {
    const made = await create({ uid: 'upd', title: 'Before' });
    const res = await t.as.put('/api/folders/upd').send({ title: ' After ', version: made.version });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: 'upd', title: 'After', url: '/dashboards/f/upd/after', version: made.version + 1, id: made.id, updatedBy: ADMIN.user });
  });

  it('answers 412 version-mismatch for a stale or missing version, and changes nothing', async () => {
    await create({ uid: 'stale', title: 'Original' });
    await t.as.put('/api/folders/stale').send({ title: 'Second', version: 1 }).expect(200);
    for (const body of [{ title: 'Third', version: 1 }, { title: 'Third' }]) {
      const res = await t.as.put('/api/folders/stale').send(body);
      expect(res.status).toBe(412);
      expect(res.body).toEqual(VERSION_MISMATCH);
    }
    expect((await t.as.get('/api/folders/stale')).body).toMatchObject({ title: 'Second', version: 2 });
  });

  it('overwrites whatever the version with overwrite: true', async () => {
    await create({ uid: 'over', title: 'Original' });
    const res = await t.as.put('/api/folders/over').send({ title: 'Forced', version: 99, overwrite: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Forced', version: 2 });
  });

  it('answers 400 for an empty title or bad types, 404 for an unknown folder', async () => {
    await create({ uid: 'upd-bad', title: 'Kept' });
    expect(await t.as.put('/api/folders/upd-bad').send({ title: ' ', version: 1 })).toMatchObject({ status: 400, body: { message: 'folder title cannot be empty' } });
    expect(await t.as.put('/api/folders/upd-bad').send({ title: 'x', version: 'one' })).toMatchObject({ status: 400, body: { message: 'bad request data' } });
    expect(await t.as.put('/api/folders/no-such').send({ title: 'x', overwrite: true })).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await t.as.get('/api/folders/upd-bad')).body).toMatchObject({ title: 'Kept', version: 1 });
  });
});

describe('DELETE /api/folders/:uid', () => {
  it('deletes the folder and everything under it, and answers {message, id, title}', async () => {
    const top = await create({ uid: 'del-top', title: 'Doomed' });
    await create({ uid: 'del-sub', title: 'Sub', parentUid: 'del-top' });
    await create({ uid: 'del-subsub', title: 'SubSub', parentUid: 'del-sub' });
    const res = await t.as.delete('/api/folders/del-top?forceDeleteRules=false');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Folder deleted', id: top.id, title: 'Doomed' });
    for (const uid of ['del-top', 'del-sub', 'del-subsub']) {
      expect(await t.as.get(`/api/folders/${uid}`)).toMatchObject({ status: 404, body: NOT_FOUND });
    }
    expect(await t.as.get(`/api/folders/id/${top.id}`)).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it('answers 404 for an unknown folder', async () => {
    expect(await t.as.delete('/api/folders/never-was')).toMatchObject({ status: 404, body: NOT_FOUND });
  });
});

describe('POST /api/folders/:uid/move', () => {
  beforeAll(async () => {
    await create({ uid: 'mv-a', title: 'A' });
    await create({ uid: 'mv-b', title: 'B', parentUid: 'mv-a' });
    await create({ uid: 'mv-x', title: 'X' });
  });

  it('moves under another folder: the record has parentUid, parents and canDelete', async () => {
    const res = await t.as.post('/api/folders/mv-x/move').send({ parentUid: 'mv-b' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: 'mv-x', parentUid: 'mv-b', canDelete: true, version: 1 });
    expect(res.body.parents.map((p: { uid: string }) => p.uid)).toEqual(['mv-a', 'mv-b']);
    const listed = await t.as.get('/api/folders?parentUid=mv-b');
    expect(listed.body.map((f: { uid: string }) => f.uid)).toEqual(['mv-x']);
  });

  it('moves back to the root with an empty parentUid', async () => {
    const res = await t.as.post('/api/folders/mv-x/move').send({ parentUid: '' });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('parentUid');
    expect(res.body).not.toHaveProperty('parents');
    expect((await t.as.get('/api/folders')).body.map((f: { uid: string }) => f.uid)).toContain('mv-x');
  });

  it('refuses cycles with 400 and leaves the tree as it was', async () => {
    const intoChild = await t.as.post('/api/folders/mv-a/move').send({ parentUid: 'mv-b' });
    expect(intoChild.status).toBe(400);
    expect(intoChild.body).toEqual({ message: 'folder "mv-a" cannot be moved into its own subfolder "mv-b"' });
    const intoSelf = await t.as.post('/api/folders/mv-a/move').send({ parentUid: 'mv-a' });
    expect(intoSelf.status).toBe(400);
    expect(intoSelf.body).toEqual({ message: 'a folder cannot be its own parent' });
    expect((await t.as.get('/api/folders/mv-a')).body).not.toHaveProperty('parentUid');
  });

  it('answers 404 for an unknown folder and 400 for an unknown parent', async () => {
    expect(await t.as.post('/api/folders/nope/move').send({ parentUid: 'mv-a' })).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await t.as.post('/api/folders/mv-x/move').send({ parentUid: 'nope' })).toMatchObject({ status: 400, body: { message: 'folder "nope" not found' } });
    expect(await t.as.post('/api/folders/mv-x/move').send({ parentUid: 3 })).toMatchObject({ status: 400, body: { message: 'bad request data' } });
  });
});

describe('parity with /apis', () => {
  it('POST /api reads back through /apis', async () => {
    const made = await create({ uid: 'par-1', title: 'Parity', parentUid: 'mv-a' });
    const res = await t.as.get(`${FOLDERS}/par-1`);
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({ title: 'Parity' });
    expect(res.body.metadata).toMatchObject({
      name: 'par-1',
      generation: made.version,
      creationTimestamp: made.created,
      labels: { 'svc.app/deprecatedInternalID': String(made.id) },
      annotations: { 'svc.app/folder': 'mv-a', 'svc.app/createdBy': 'user:admin' },
    });
  });

  it('POST /apis reads back through /api', async () => {
    const created = await t.as.post(FOLDERS).send({ metadata: { name: 'par-2', annotations: { 'svc.app/folder': 'mv-a' } }, spec: { title: 'From Apis' } });
    expect(created.status).toBe(201);
    const res = await t.as.get('/api/folders/par-2');
    expect(res.body).toMatchObject({
      uid: 'par-2',
      title: 'From Apis',
      id: Number(created.body.metadata.labels['svc.app/deprecatedInternalID']),
      version: created.body.metadata.generation,
      created: created.body.metadata.creationTimestamp,
      parentUid: 'mv-a',
      createdBy: ADMIN.user,
    });
  });

  it('PUT /api reads back through /apis, and PUT /apis through /api', async () => {
    await t.as.put('/api/folders/par-1').send({ title: 'Renamed', version: 1 }).expect(200);
    const apis = (await t.as.get(`${FOLDERS}/par-1`)).body;
    expect(apis.spec.title).toBe('Renamed');
    expect(apis.metadata.generation).toBe(2);
    const put = await t.as.put(`${FOLDERS}/par-1`).send({ ...apis, spec: { title: 'Renamed Again' } });
    expect(put.status).toBe(200);
    expect((await t.as.get('/api/folders/par-1')).body).toMatchObject({ title: 'Renamed Again', version: 3 });
    // A stale /api version after an /apis write is the same 412.
    expect(await t.as.put('/api/folders/par-1').send({ title: 'x', version: 2 })).toMatchObject({ status: 412, body: VERSION_MISMATCH });
  });

  it('moves through /api read back through /apis, and the reverse', async () => {
    await t.as.post('/api/folders/par-1/move').send({ parentUid: 'mv-x' }).expect(200);
    expect((await t.as.get(`${FOLDERS}/par-1`)).body.metadata.annotations['svc.app/folder']).toBe('mv-x');
    const apis = (await t.as.get(`${FOLDERS}/par-1`)).body;
    const { 'svc.app/folder': _parent, ...rest } = apis.metadata.annotations;
    await t.as.put(`${FOLDERS}/par-1`).send({ ...apis, metadata: { ...apis.metadata, annotations: rest } }).expect(200);
    expect((await t.as.get('/api/folders/par-1')).body).not.toHaveProperty('parentUid');
  });

  it('lists through /api what /apis lists, by numeric id too', async () => {
    const apis = (await t.as.get(FOLDERS)).body.items as { metadata: { name: string; labels: Record<string, string>; annotations?: Record<string, string> } }[];
    const rootsViaApis = apis.filter((f) => !f.metadata.annotations?.['svc.app/folder']).map((f) => f.metadata.name).sort();
    const rootsViaApi = (await t.as.get('/api/folders')).body.map((f: { uid: string }) => f.uid).sort();
    expect(rootsViaApi).toEqual(rootsViaApis);
    const one = apis[0];
    expect((await t.as.get(`/api/folders/id/${one.metadata.labels['svc.app/deprecatedInternalID']}`)).body.uid).toBe(one.metadata.name);
  });

  it('DELETE /api is gone from /apis, and DELETE /apis from /api', async () => {
    await t.as.delete('/api/folders/par-2').expect(200);
    expect((await t.as.get(`${FOLDERS}/par-2`)).status).toBe(404);
    await t.as.delete(`${FOLDERS}/par-1`).expect(200);
    expect(await t.as.get('/api/folders/par-1')).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it('a watch on /apis sees ADDED, MODIFIED and DELETED of /api writes', async () => {
    const server = http.createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const rv = (await t.as.get(FOLDERS)).body.metadata.resourceVersion;
    const events: { type: string; object: { metadata: { name: string }; spec: { title: string } } }[] = [];
    const req = http.get(`http://127.0.0.1:${port}${FOLDERS}?watch=true&resourceVersion=${rv}`, { auth: `${ADMIN.user}:${ADMIN.password}` }, (res) => {
      onJsonLines<(typeof events)[number]>(res, (event) => events.push(event));
    });
    req.on('error', () => undefined);
    try {
      await create({ uid: 'watched', title: 'Watched' });
      await t.as.put('/api/folders/watched').send({ title: 'Watched 2', version: 1 }).expect(200);
      await t.as.delete('/api/folders/watched').expect(200);
      const deadline = Date.now() + 10_000;
      while (!events.some((e) => e.type === 'DELETED') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const mine = events.filter((e) => e.object.metadata.name === 'watched').map((e) => [e.type, e.object.spec.title]);
      expect(mine).toEqual([
        ['ADDED', 'Watched'],
        ['MODIFIED', 'Watched 2'],
        ['DELETED', 'Watched 2'],
      ]);
    } finally {
      req.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('organizations', () => {
  it('keeps each organization to its folders', async () => {
    const org = await t.users!.createOrg(SYSTEM, 'Folders Other Org');
    await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
    await create({ uid: 'org1-only', title: 'Org One' });
    const other = (p: string) => t.as.get(p).set('X-Svc-Org-Id', String(org.id));
    expect(await other('/api/folders/org1-only')).toMatchObject({ status: 404, body: NOT_FOUND });
    const listed = await other('/api/folders');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
    const id = (await t.as.get('/api/folders/org1-only')).body.id;
    expect(await other(`/api/folders/id/${id}`)).toMatchObject({ status: 404, body: NOT_FOUND });
    // The same uid in the other org is another folder, with its own id sequence untouched by org 1's.
    const same = await t.as.post('/api/folders').set('X-Svc-Org-Id', String(org.id)).send({ uid: 'org1-only', title: 'Org Two' });
    expect(same.status).toBe(200);
    expect((await t.as.get('/api/folders/org1-only')).body.title).toBe('Org One');
    expect((await other('/api/folders/org1-only')).body.title).toBe('Org Two');
    expect(await t.as.delete('/api/folders/org1-only').set('X-Svc-Org-Id', String(org.id))).toMatchObject({ status: 200 });
    expect((await t.as.get('/api/folders/org1-only')).status).toBe(200);
  });
});

describe('with nested folders turned off', () => {
  let flat: TestApp;
  beforeAll(async () => {
    flat = await startTestApp(['--feature_toggles.nestedFolders=false']);
  });
  afterAll(() => flat.close());

  it('refuses a parent on create and on move with 400; root folders work', async () => {
    expect((await flat.as.post('/api/folders').send({ uid: 'top', title: 'Top' })).status).toBe(200);
    const nested = await flat.as.post('/api/folders').send({ uid: 'sub', title: 'Sub', parentUid: 'top' });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toContain('nested folders are not enabled');
    expect((await flat.as.post('/api/folders').send({ uid: 'other', title: 'Other' })).status).toBe(200);
    const move = await flat.as.post('/api/folders/other/move').send({ parentUid: 'top' });
    expect(move.status).toBe(400);
    expect(move.body.message).toContain('nested folders are not enabled');
    expect((await flat.as.get('/api/folders')).body.map((f: { uid: string }) => f.uid).sort()).toEqual(['other', 'top']);
  });
});
