/**
 * The legacy library element API (spec §4.6, anchor-breadth.md §5) over the LibraryPanel kind: the `{result}`
 * records, the search, PATCH versions, the anchor's messages, permissions following folders, and bad input that
 * changes nothing.
 */
import { startTestApp, type TestApp } from '../support/app';
import { FOLDERS, LIBRARY_PANELS } from '../support/paths';
import { recordReads } from '../support/storage-reads';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await createUser(t, 'viewer', { 1: 'Viewer' });
  await createUser(t, 'editor', { 1: 'Editor' });
  await t.as.post('/api/folders').send({ uid: 'lib-f', title: 'Library folder' }).expect(200);
  await t.as.post('/api/folders').send({ uid: 'lib-g', title: 'Other folder' }).expect(200);
  // Only Admins may see into lib-g.
  await t.as.post('/api/folders/lib-g/permissions').send({ items: [] }).expect(200);
}, 120_000);
afterAll(() => t.close());

const EL = '/api/library-elements';
const panel = (name: string, extra: object = {}) => ({ name, kind: 1, model: { type: 'timeseries', title: name, description: `about ${name}` }, ...extra });

async function create(body: object, client = t.as) {
  const res = await client.post(EL).send(body);
  expect([res.status, res.body]).toEqual([200, expect.anything()]);
  return res.body.result;
}

/** Every element, as the admin sees it through /apis: what a refused request must leave unchanged. */
const stored = async () => (await t.as.get(LIBRARY_PANELS).expect(200)).body.items.map((i: { metadata: { name: string; generation: number }; spec: object }) => [i.metadata.name, i.metadata.generation, i.spec]);

describe('create and read', () => {
  it('creates at the root with the anchor record, version 1, and reads it back by uid and by name', async () => {
    const created = await create(panel('CPU busy', { uid: 'cpu-busy' }));
    expect(created).toEqual({
      id: expect.any(Number),
      orgId: 1,
      folderId: 0,
      folderUid: '',
      uid: 'cpu-busy',
      name: 'CPU busy',
      kind: 1,
      type: 'timeseries',
      description: 'about CPU busy',
      model: { type: 'timeseries', title: 'CPU busy', description: 'about CPU busy' },
      version: 1,
      meta: {
        folderName: 'General',
        folderUid: '',
        connectedDashboards: 0,
        created: expect.any(String),
        updated: expect.any(String),
        createdBy: { id: 1, name: 'admin', avatarUrl: expect.stringMatching(/^\/avatar\//) },
        updatedBy: { id: 1, name: 'admin', avatarUrl: expect.stringMatching(/^\/avatar\//) },
      },
    });
    expect((await t.as.get(`${EL}/cpu-busy`).expect(200)).body).toEqual({ result: created });
    expect((await t.as.get(`${EL}/name/${encodeURIComponent('CPU busy')}`).expect(200)).body).toEqual({ result: [created] });
  });

  it('writes the element type and description into a model without them; a variable model is named as the element', async () => {
    const created = await create({ name: 'Env', kind: 2, model: { query: 'a,b' }, folderUid: 'lib-f' });
    expect(created).toMatchObject({ kind: 2, type: '', description: '', folderUid: 'lib-f', meta: { folderName: 'Library folder', folderUid: 'lib-f' } });
    expect(created.model).toEqual({ query: 'a,b', type: '', description: '', name: 'Env' });
    expect(created.uid).toMatch(/^[a-z][a-z0-9]{13}$/);
    expect(created.folderId).toBe((await t.as.get('/api/folders/lib-f')).body.id);
  });

  it('takes the deprecated folderId', async () => {
    const id = (await t.as.get('/api/folders/lib-f')).body.id;
    const created = await create(panel('By id', { folderId: id }));
    expect(created.folderUid).toBe('lib-f');
  });

  it('refuses a taken name in the same folder and kind, a taken uid, and allows the name elsewhere', async () => {
    await create(panel('Dup', { uid: 'dup-1' }));
    const before = await stored();
    for (const body of [panel('Dup'), panel('Other', { uid: 'dup-1' })]) {
      const res = await t.as.post(EL).send(body);
      expect([res.status, res.body]).toEqual([400, { message: 'library element with that name or UID already exists' }]);
    }
    expect(await stored()).toEqual(before);
    await create(panel('Dup', { folderUid: 'lib-f' }));
    await create({ ...panel('Dup'), kind: 2 });
  });

  it('unknown element: 404 with the anchor message, for get, name, connections, patch and delete', async () => {
    const notFound = { message: 'library element could not be found' };
    expect((await t.as.get(`${EL}/nope`)).body).toEqual(notFound);
    expect((await t.as.get(`${EL}/name/nope`)).status).toBe(404);
    expect((await t.as.get(`${EL}/nope/connections`)).status).toBe(404);
    const patched = await t.as.patch(`${EL}/nope`).send({ kind: 1, version: 1, name: 'x' });
    expect([patched.status, patched.body]).toEqual([404, notFound]);
    const deleted = await t.as.delete(`${EL}/nope`);
    expect([deleted.status, deleted.body]).toEqual([404, notFound]);
  });
});

describe('bad input changes nothing', () => {
  const cases: [string, object, string][] = [
    ['no kind', { name: 'x', model: {} }, 'bad request data'],
    ['kind 0', { name: 'x', kind: 0, model: {} }, 'bad request data'],
    ['kind 3', { name: 'x', kind: 3, model: {} }, 'the element kind is not supported'],
    ['kind a string', { name: 'x', kind: '1', model: {} }, 'bad request data'],
    ['no model', { name: 'x', kind: 1 }, 'bad request data'],
    ['model an array', { name: 'x', kind: 1, model: [] }, 'bad request data'],
    ['empty name', { name: ' ', kind: 1, model: {} }, 'name: Invalid value: " ": name cannot be empty'],
    ['illegal uid', { uid: 'a b', name: 'x', kind: 1, model: {} }, 'uid contains illegal characters'],
    ['long uid', { uid: 'a'.repeat(41), name: 'x', kind: 1, model: {} }, 'uid too long, max 40 characters'],
    ['unknown folder', { folderUid: 'nope', name: 'x', kind: 1, model: {} }, 'failed to get folder'],
    ['unknown folder id', { folderId: 999999, name: 'x', kind: 1, model: {} }, 'failed to get folder'],
    ['model type a number', { name: 'x', kind: 1, model: { type: 5 } }, 'model.type: Invalid value: must be a string'],
  ];
  it.each(cases)('POST with %s is 400', async (_label, body, message) => {
    const before = await stored();
    const res = await t.as.post(EL).send(body);
    expect([res.status, res.body]).toEqual([400, { message }]);
    expect(await stored()).toEqual(before);
  });

  it('PATCH refuses a missing version (412), another kind, another uid, a body that is no object; nothing changes', async () => {
    await create(panel('Patchable', { uid: 'patchable' }));
    const before = await stored();
    const refused: [object | string, number, string][] = [
      [{ kind: 1, name: 'y' }, 400, 'bad request data'],
      [{ kind: 1, version: 2, name: 'y' }, 412, 'the library element has been changed by someone else'],
      [{ kind: 2, version: 1, name: 'y' }, 400, 'the element kind is not supported'],
      [{ kind: 1, version: 1, uid: 'other' }, 400, "a library element's uid cannot be changed"],
      [{ kind: 1, version: 1, folderUid: 'nope' }, 400, 'failed to get folder'],
      ['[1]', 400, 'bad request data'],
    ];
    for (const [body, code, message] of refused) {
      const res = await t.as.patch(`${EL}/patchable`).set('Content-Type', 'application/json').send(typeof body === 'string' ? body : JSON.stringify(body));
      expect([body, res.status, res.body]).toEqual([body, code, { message }]);
    }
    expect(await stored()).toEqual(before);
  });

  it('search with both folder filters is 400', async () => {
    const res = await t.as.get(`${EL}?folderFilter=0&folderFilterUIDs=general`);
    expect([res.status, res.body]).toEqual([400, { message: 'cannot pass both folderFilter and folderFilterUIDs' }]);
  });
});

describe('PATCH', () => {
  it('changes what it names, keeps the rest, moves folders, and adds 1 to the version', async () => {
    const created = await create(panel('Movable', { uid: 'movable' }));
    const res = await t.as.patch(`${EL}/movable`).send({ kind: 1, version: 1, name: 'Moved', folderUid: 'lib-f' }).expect(200);
    expect(res.body.result).toMatchObject({ uid: 'movable', id: created.id, name: 'Moved', version: 2, folderUid: 'lib-f', model: created.model });
    const back = await t.as.patch(`${EL}/movable`).send({ kind: 1, version: 2, folderUid: '', model: { type: 'stat' } }).expect(200);
    expect(back.body.result).toMatchObject({ name: 'Moved', version: 3, folderUid: '', type: 'stat', description: 'about Movable', model: { type: 'stat', description: 'about Movable' } });
    // The version is metadata.generation under /apis.
    expect((await t.as.get(`${LIBRARY_PANELS}/movable`)).body.metadata.generation).toBe(3);
  });

  it('refuses a name taken in the folder it moves to', async () => {
    await create(panel('Clash', { folderUid: 'lib-f' }));
    await create(panel('Clash', { uid: 'clash-root' }));
    const res = await t.as.patch(`${EL}/clash-root`).send({ kind: 1, version: 1, folderUid: 'lib-f' });
    expect([res.status, res.body]).toEqual([400, { message: 'library element with that name or UID already exists' }]);
  });
});

describe('search', () => {
  beforeAll(async () => {
    await create({ name: 'zz-search alpha', kind: 1, model: { type: 'stat', description: 'needle here' }, folderUid: 'lib-f' });
    await create({ name: 'zz-search beta', kind: 1, model: { type: 'table' } });
    await create({ name: 'zz-search gamma', kind: 2, model: {} });
    await create({ name: 'zz-search hidden', kind: 1, model: { type: 'stat' }, folderUid: 'lib-g' });
  });
  const names = (res: { body: { result: { elements: { name: string }[] } } }) => res.body.result.elements.map((e) => e.name);
  const search = (q: string, client = t.as) => client.get(`${EL}?searchString=zz-search&${q}`).expect(200);

  it('matches name or description, sorts by name either way, and pages with the total', async () => {
    expect(names(await search(''))).toEqual(['zz-search alpha', 'zz-search beta', 'zz-search gamma', 'zz-search hidden']);
    expect(names(await search('sortDirection=alpha-desc'))).toEqual(['zz-search hidden', 'zz-search gamma', 'zz-search beta', 'zz-search alpha']);
    expect(names(await t.as.get(`${EL}?searchString=NEEDLE`).expect(200))).toEqual(['zz-search alpha']);
    const page = await search('perPage=2&page=2');
    expect(page.body.result).toMatchObject({ totalCount: 4, page: 2, perPage: 2 });
    expect(names(page)).toEqual(['zz-search gamma', 'zz-search hidden']);
    const defaults = await search('perPage=-1&page=0');
    expect(defaults.body.result).toMatchObject({ page: 1, perPage: 100 });
  });

  it('filters by kind, types, excluded uid and folders (general = the root; deprecated ids, 0 = the root)', async () => {
    expect(names(await search('kind=2'))).toEqual(['zz-search gamma']);
    expect(names(await search('kind=7'))).toHaveLength(4);
    expect(names(await search('typeFilter=stat,table'))).toEqual(['zz-search alpha', 'zz-search beta', 'zz-search hidden']);
    const beta = (await search('typeFilter=table')).body.result.elements[0].uid;
    expect(names(await search(`excludeUid=${beta}`))).not.toContain('zz-search beta');
    expect(names(await search('folderFilterUIDs=lib-f'))).toEqual(['zz-search alpha']);
    expect(names(await search('folderFilterUIDs=general'))).toEqual(['zz-search beta', 'zz-search gamma']);
    const id = (await t.as.get('/api/folders/lib-f')).body.id;
    expect(names(await search(`folderFilter=0,${id}`))).toEqual(['zz-search alpha', 'zz-search beta', 'zz-search gamma']);
  });

  it('shows a caller only the elements of folders it may read', async () => {
    expect(names(await search('', as(t, 'viewer')))).toEqual(['zz-search alpha', 'zz-search beta', 'zz-search gamma']);
  });

  it('sorts names as they are (case kept), the uid breaking ties, reversed together; reads the answered page only', async () => {
    for (const [uid, name, folderUid] of [['yy-4', 'yy-B', ''], ['yy-2', 'yy-a', ''], ['yy-3', 'yy-a', 'lib-f'], ['yy-1', 'yy-C', 'lib-f']]) {
      await create({ uid, ...panel(name), folderUid });
    }
    const uids = async (q: string) => (await t.as.get(`${EL}?searchString=yy-&${q}`).expect(200)).body.result.elements.map((e: { uid: string }) => e.uid);
    expect(await uids('')).toEqual(['yy-4', 'yy-1', 'yy-2', 'yy-3']);
    expect(await uids('sortDirection=alpha-desc')).toEqual(['yy-3', 'yy-2', 'yy-1', 'yy-4']);
    const reads = recordReads(t.storage);
    try {
      const second = await t.as.get(`${EL}?searchString=yy-&perPage=1&page=2`).expect(200);
      expect(second.body.result).toMatchObject({ totalCount: 4, page: 2, perPage: 1, elements: [{ uid: 'yy-1' }] });
      expect(reads.of('librarypanels')).toEqual([{ op: 'page', items: 1 }]);
      reads.reads.length = 0;
      const byName = await t.as.get(`${EL}/name/yy-a`).expect(200);
      expect(byName.body.result.map((e: { uid: string }) => e.uid)).toEqual(['yy-2', 'yy-3']);
      expect(reads.of('librarypanels')).toEqual([{ op: 'page', items: 2 }]);
    } finally {
      reads.stop();
    }
  });
});

describe('permissions follow the folder', () => {
  it('a Viewer reads but may not create, change or delete; an Editor may at the root and in folders it edits', async () => {
    await create(panel('Guarded', { uid: 'guarded' }));
    const viewer = as(t, 'viewer');
    await viewer.get(`${EL}/guarded`).expect(200);
    expect((await viewer.post(EL).send(panel('By viewer'))).status).toBe(403);
    expect((await viewer.patch(`${EL}/guarded`).send({ kind: 1, version: 1, name: 'x' })).status).toBe(403);
    expect((await viewer.delete(`${EL}/guarded`)).status).toBe(403);
    const editor = as(t, 'editor');
    const made = await create(panel('By editor', { folderUid: 'lib-f' }), editor);
    await editor.patch(`${EL}/${made.uid}`).send({ kind: 1, version: 1, name: 'By editor 2' }).expect(200);
    await editor.delete(`${EL}/${made.uid}`).expect(200);
    // lib-g gives Editors nothing.
    expect((await editor.post(EL).send(panel('In g', { folderUid: 'lib-g' }))).status).toBe(403);
    const hidden = await create(panel('Hidden', { folderUid: 'lib-g' }));
    expect((await editor.get(`${EL}/${hidden.uid}`)).status).toBe(403);
  });
});

describe('delete', () => {
  it('answers the anchor message with the id, and the element is gone from both APIs', async () => {
    const created = await create(panel('Doomed', { uid: 'doomed' }));
    expect((await t.as.delete(`${EL}/doomed`).expect(200)).body).toEqual({ message: 'Library element deleted', id: created.id });
    expect((await t.as.get(`${EL}/doomed`)).status).toBe(404);
    expect((await t.as.get(`${LIBRARY_PANELS}/doomed`)).status).toBe(404);
    expect((await t.as.get(`${FOLDERS}/lib-f`)).status).toBe(200);
  });
});
