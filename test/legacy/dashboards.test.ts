/**
 * The legacy dashboard endpoints (spec §4.4, §2.6) through HTTP: every rule of POST /api/dashboards/db with the
 * anchor's bodies, GET/DELETE by uid with `meta`, the home dashboard, tags, and organizations kept apart.
 */
import type supertest from 'supertest';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS, RFC3339 } from '../support/paths';
import { createUser, PASSWORD } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(['--dashboards.min_refresh_interval=10s']);
});
afterAll(() => t.close());

const save = (body: unknown) => t.as.post('/api/dashboards/db').send(body as object);

async function folder(name: string, title = name): Promise<number> {
  const res = await t.as.post(FOLDERS).send({ metadata: { name }, spec: { title } });
  expect(res.status).toBe(201);
  return Number(res.body.metadata.labels['svc.app/deprecatedInternalID']);
}

describe('POST /api/dashboards/db', () => {
  it('creates with id null and the given uid, answering {id, uid, url, status, version, slug, folderUid}', async () => {
    const res = await save({ dashboard: { id: null, uid: 'create-1', title: 'Prod: API latency!', tags: ['prod'], panels: [{ id: 1, type: 'stat', extra: true }] }, message: 'first' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), uid: 'create-1', url: '/d/create-1/prod-api-latency', status: 'success', version: 1, slug: 'prod-api-latency', folderUid: '' });
    const stored = await t.as.get(`${DASHBOARDS}/create-1`);
    expect(stored.body.spec).toEqual({ title: 'Prod: API latency!', tags: ['prod'], panels: [{ id: 1, type: 'stat', extra: true }], uid: 'create-1', version: 1 });
    expect(stored.body.metadata.annotations['svc.app/message']).toBe('first');
    expect(stored.body.metadata.labels['svc.app/deprecatedInternalID']).toBe(String(res.body.id));
  });

  it('generates a 14-character uid when uid is null, absent or empty', async () => {
    for (const uid of [null, undefined, '']) {
      const res = await save({ dashboard: { id: null, uid, title: `Generated ${String(uid)}` } });
      expect(res.status).toBe(200);
      expect(res.body.uid).toMatch(/^[a-z][a-z0-9]{8}[a-z0-9]{5}$/);
      expect((await t.as.get(`/api/dashboards/uid/${res.body.uid}`)).body.dashboard.title).toBe(`Generated ${String(uid)}`);
    }
  });

  it('answers 412 name-exists for an existing uid without overwrite, and overwrites with it', async () => {
    await save({ dashboard: { uid: 'taken', title: 'Original' } });
    const again = await save({ dashboard: { id: null, uid: 'taken', title: 'Intruder' } });
    expect(again.status).toBe(412);
    expect(again.body).toEqual({ status: 'name-exists', message: 'A dashboard with the same uid already exists' });
    expect((await t.as.get('/api/dashboards/uid/taken')).body.dashboard.title).toBe('Original');

    const over = await save({ dashboard: { id: null, uid: 'taken', title: 'Overwritten' }, overwrite: true });
    expect(over.status).toBe(200);
    expect(over.body).toMatchObject({ uid: 'taken', version: 2 });
  });

  it('updates by id on the stored version; an older version is 412 version-mismatch unless overwrite', async () => {
    const created = (await save({ dashboard: { uid: 'upd', title: 'V1' } })).body;
    const v2 = await save({ dashboard: { id: created.id, uid: 'upd', title: 'V2', version: 1 } });
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ id: created.id, uid: 'upd', version: 2 });

    const stale = await save({ dashboard: { id: created.id, uid: 'upd', title: 'From an old tab', version: 1 } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ status: 'version-mismatch', message: 'The dashboard has been changed by someone else' });
    expect((await t.as.get('/api/dashboards/uid/upd')).body.dashboard).toMatchObject({ title: 'V2', version: 2 });

    const forced = await save({ dashboard: { id: created.id, title: 'Forced', version: 1 }, overwrite: true });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ uid: 'upd', version: 3 });
  });

  it('of concurrent saves made on one version exactly one wins; of concurrent creates of one uid exactly one', async () => {
    const created = (await save({ dashboard: { uid: 'race', title: 'R0' } })).body;
    const saves = await Promise.all([1, 2, 3, 4, 5].map((i) => save({ dashboard: { id: created.id, uid: 'race', title: `R${i}`, version: 1 } })));
    expect(saves.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412]);
    const winner = saves.find((r) => r.status === 200)!;
    expect(saves.filter((r) => r.status === 412).every((r) => r.body.status === 'version-mismatch')).toBe(true);
    expect((await t.as.get('/api/dashboards/uid/race')).body.dashboard).toMatchObject({ version: 2, title: (await t.as.get(`${DASHBOARDS}/race`)).body.spec.title });
    expect(winner.body.version).toBe(2);

    const creates = await Promise.all([1, 2, 3].map((i) => save({ dashboard: { id: null, uid: 'race-new', title: `N${i}` } })));
    expect(creates.map((r) => [r.status, r.body.status]).sort()).toEqual([
      [200, 'success'],
      [412, 'name-exists'],
      [412, 'name-exists'],
    ]);
  });

  it('answers 404 for an unknown id and 412 name-exists when id and uid name different dashboards', async () => {
    const missing = await save({ dashboard: { id: 99999, title: 'Nobody' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Dashboard not found' });
    const a = (await save({ dashboard: { uid: 'pair-a', title: 'A' } })).body;
    await save({ dashboard: { uid: 'pair-b', title: 'B' } });
    const clash = await save({ dashboard: { id: a.id, uid: 'pair-b', title: 'A', version: 1 } });
    expect(clash.status).toBe(412);
    expect(clash.body).toEqual({ status: 'name-exists', message: 'A dashboard with the same uid already exists' });
  });

  it('puts the dashboard in folderUid over folderId, and moves it to the root when an update names no folder', async () => {
    const opsId = await folder('ops', 'Operations');
    const devId = await folder('dev', 'Development');
    const byId = await save({ dashboard: { uid: 'in-f', title: 'In folder' }, folderId: opsId });
    expect(byId.body.folderUid).toBe('ops');
    const both = await save({ dashboard: { uid: 'in-f', title: 'In folder', version: 1, id: byId.body.id }, folderId: opsId, folderUid: 'dev' });
    expect(both.body.folderUid).toBe('dev');
    const meta = (await t.as.get('/api/dashboards/uid/in-f')).body.meta;
    expect(meta).toMatchObject({ folderUid: 'dev', folderId: devId, folderTitle: 'Development', folderUrl: '/dashboards/f/dev/development' });

    // A move changes no spec: the version stays (versions are the registry's generations).
    expect(both.body.version).toBe(1);
    const root = await save({ dashboard: { uid: 'in-f', title: 'In folder', version: 1, id: byId.body.id } });
    expect(root.body).toMatchObject({ folderUid: '', version: 1 });
    const stored = await t.as.get(`${DASHBOARDS}/in-f`);
    expect(stored.body.metadata.annotations['svc.app/folder']).toBeUndefined();
    expect((await t.as.get('/api/dashboards/uid/in-f')).body.meta).toMatchObject({ folderUid: '', folderId: 0, folderTitle: 'General', folderUrl: '' });
  });

  it('raises a refresh below dashboards.min_refresh_interval to it, and keeps others', async () => {
    const cases: [unknown, unknown][] = [['1s', '10s'], ['500ms', '10s'], ['not-a-duration', '10s'], ['10s', '10s'], ['1m', '1m'], ['', ''], [false, false]];
    for (const [i, [sent, kept]] of cases.entries()) {
      const res = await save({ dashboard: { uid: `refresh-${i}`, title: 'R', refresh: sent } });
      expect(res.status).toBe(200);
      expect((await t.as.get(`/api/dashboards/uid/refresh-${i}`)).body.dashboard.refresh).toEqual(kept);
    }
  });

  it('refuses bad input with 400 in the anchor words, storing nothing', async () => {
    const cases: [unknown, Record<string, string>][] = [
      [{ dashboard: { uid: 'bad-1', title: '' } }, { status: 'empty-name', message: 'Dashboard title cannot be empty' }],
      [{ dashboard: { uid: 'bad-2', title: '   ' } }, { status: 'empty-name', message: 'Dashboard title cannot be empty' }],
      [{ dashboard: { uid: 'bad-3' } }, { status: 'empty-name', message: 'Dashboard title cannot be empty' }],
      [{ dashboard: { uid: 'bad uid!', title: 'x' } }, { message: 'uid contains illegal characters' }],
      [{ dashboard: { uid: 'x'.repeat(41), title: 'x' } }, { message: 'uid too long, max 40 characters' }],
      [{ dashboard: { uid: 'bad-4', title: 'x' }, folderUid: 'nope' }, { message: 'folder not found' }],
      [{ dashboard: { uid: 'bad-5', title: 'x' }, folderId: 4242 }, { message: 'folder not found' }],
      [{ dashboard: { uid: 'bad-6', title: 'x' }, isFolder: true }, { message: 'Use folders endpoint for saving folders.' }],
      [{ dashboard: { uid: 'bad-7', title: 'x' }, message: 'm'.repeat(501) }, { message: 'message too long, max 500 characters' }],
      [{ dashboard: 'not an object' }, { message: 'bad request data' }],
      [{ dashboard: { uid: 42, title: 'x' } }, { message: 'bad request data' }],
      [[1, 2], { message: 'bad request data' }],
    ];
    for (const [body, expected] of cases) {
      const res = await save(body);
      expect([res.status, res.body]).toEqual([400, expected]);
    }
    const list = await t.as.get(DASHBOARDS);
    expect(list.body.items.filter((d: { metadata: { name: string } }) => d.metadata.name.startsWith('bad'))).toEqual([]);
  });

  it('needs credentials', async () => {
    expect((await t.anonymous.post('/api/dashboards/db').send({ dashboard: { title: 'x' } })).status).toBe(401);
  });
});

describe('GET and DELETE /api/dashboards/uid/:uid', () => {
  it('returns the model with id, uid and version, and meta', async () => {
    const saved = (await save({ dashboard: { uid: 'read-1', title: 'Read me', panels: [] } })).body;
    const res = await t.as.get('/api/dashboards/uid/read-1');
    expect(res.status).toBe(200);
    expect(res.body.dashboard).toEqual({ id: saved.id, uid: 'read-1', title: 'Read me', panels: [], version: 1 });
    expect(res.body.meta).toEqual({
      type: 'db',
      isStarred: false,
      canSave: true,
      canEdit: true,
      canAdmin: true,
      canStar: true,
      canDelete: true,
      slug: 'read-me',
      url: '/d/read-1/read-me',
      expires: '0001-01-01T00:00:00Z',
      created: expect.stringMatching(RFC3339),
      updated: expect.stringMatching(RFC3339),
      createdBy: 'admin',
      updatedBy: 'admin',
      version: 1,
      hasAcl: false,
      isFolder: false,
      folderId: 0,
      folderUid: '',
      folderTitle: 'General',
      folderUrl: '',
      provisioned: false,
      provisionedExternalId: '',
      publicDashboardEnabled: false,
    });
  });

  it('shows what a Viewer may do', async () => {
    const vera = await createUser(t, 'vera');
    await t.users!.setRole(SYSTEM, 1, vera.id, 'Viewer');
    await save({ dashboard: { uid: 'seen', title: 'Seen' } });
    const res = await t.anonymous.get('/api/dashboards/uid/seen').auth('vera', PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ canSave: false, canEdit: false, canAdmin: false, canDelete: false, canStar: true, createdBy: 'admin' });
  });

  it("refuses a Viewer's saves, deletes and the version history with the permission it lacks, changing nothing", async () => {
    await save({ dashboard: { uid: 'guarded', title: 'Guarded' } });
    const vera = (method: 'post' | 'delete' | 'get', path: string) => t.anonymous[method](path).auth('vera', PASSWORD);
    const cases: [supertest.Test, string][] = [
      [vera('post', '/api/dashboards/db').send({ dashboard: { uid: 'guarded', title: 'Mine now' }, overwrite: true }), 'any of dashboards:create, dashboards:write'],
      [vera('delete', '/api/dashboards/uid/guarded'), 'dashboards:delete'],
      [vera('get', '/api/dashboards/uid/guarded/versions'), 'dashboards:write'],
      [vera('get', '/api/dashboards/uid/guarded/versions/1'), 'dashboards:write'],
      [vera('post', '/api/dashboards/uid/guarded/restore').send({ version: 1 }), 'dashboards:write'],
    ];
    for (const [req, needed] of cases) {
      const res = await req;
      expect([res.status, res.body]).toEqual([403, { title: 'Access denied', message: `You'll need additional permissions to perform this action. Permissions needed: ${needed}`, accessErrorId: expect.stringMatching(/^ACE\d{10}$/) }]);
    }
    expect((await t.as.get('/api/dashboards/uid/guarded')).body.dashboard).toMatchObject({ title: 'Guarded', version: 1 });
  });

  it('an overwrite of an existing uid is an update: an Editor with Edit on the dashboard needs no create in its folder', async () => {
    const eddie = await createUser(t, 'eddie');
    await t.users!.setRole(SYSTEM, 1, eddie.id, 'Editor');
    await t.as.post('/api/folders').send({ uid: 'view-only', title: 'View only' });
    // Editors may only view in this folder, so may create nothing in it; eddie may edit the one dashboard.
    expect((await t.as.post('/api/folders/view-only/permissions').send({ items: [{ role: 'Editor', permission: 1 }] })).status).toBe(200);
    await save({ dashboard: { uid: 'eddies', title: 'Eddie\'s' }, folderUid: 'view-only' });
    await save({ dashboard: { uid: 'not-eddies', title: 'Not Eddie\'s' }, folderUid: 'view-only' });
    expect((await t.as.post('/api/dashboards/uid/eddies/permissions').send({ items: [{ userId: eddie.id, permission: 2 }] })).status).toBe(200);
    const asEddie = (body: object) => t.anonymous.post('/api/dashboards/db').auth('eddie', PASSWORD).send(body);

    const over = await asEddie({ dashboard: { uid: 'eddies', title: 'Edited by Eddie' }, folderUid: 'view-only', overwrite: true });
    expect([over.status, over.body]).toEqual([200, expect.objectContaining({ uid: 'eddies', version: 2, folderUid: 'view-only' })]);
    expect((await t.as.get('/api/dashboards/uid/eddies')).body.dashboard.title).toBe('Edited by Eddie');

    const exists = await asEddie({ dashboard: { uid: 'eddies', title: 'Again' }, folderUid: 'view-only' });
    expect([exists.status, exists.body]).toEqual([412, { status: 'name-exists', message: 'A dashboard with the same uid already exists' }]);
    const viewOnly = await asEddie({ dashboard: { uid: 'not-eddies', title: 'Taken' }, folderUid: 'view-only', overwrite: true });
    expect([viewOnly.status, viewOnly.body.message]).toEqual([403, expect.stringContaining('Permissions needed: dashboards:write')]);
    const create = await asEddie({ dashboard: { uid: 'eddies-new', title: 'New' }, folderUid: 'view-only', overwrite: true });
    expect([create.status, create.body.message]).toEqual([403, expect.stringContaining('Permissions needed: dashboards:create')]);
    expect((await t.as.get('/api/dashboards/uid/not-eddies')).body.dashboard).toMatchObject({ title: 'Not Eddie\'s', version: 1 });

    // At the root, where Editors may create, an overwrite by uid is the same update.
    await save({ dashboard: { uid: 'root-shared', title: 'Shared' } });
    const root = await asEddie({ dashboard: { uid: 'root-shared', title: 'Shared, edited' }, overwrite: true });
    expect([root.status, root.body]).toEqual([200, expect.objectContaining({ uid: 'root-shared', version: 2, folderUid: '' })]);
  });

  it('answers 404 "Dashboard not found"', async () => {
    for (const res of [await t.as.get('/api/dashboards/uid/missing'), await t.as.delete('/api/dashboards/uid/missing')]) {
      expect([res.status, res.body]).toEqual([404, { message: 'Dashboard not found' }]);
    }
  });

  it('deletes, answering {title, message, uid, id}', async () => {
    const saved = (await save({ dashboard: { uid: 'doomed', title: 'Doomed' } })).body;
    const res = await t.as.delete('/api/dashboards/uid/doomed');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ title: 'Doomed', message: 'Dashboard Doomed deleted', uid: 'doomed', id: saved.id });
    expect((await t.as.get(`${DASHBOARDS}/doomed`)).status).toBe(404);
  });
});

describe('GET /api/dashboards/home and /api/dashboards/tags', () => {
  it('serves the built-in home dashboard', async () => {
    const res = await t.as.get('/api/dashboards/home');
    expect(res.status).toBe(200);
    expect(res.body.dashboard).toMatchObject({ title: 'Home', version: 0, panels: expect.any(Array) });
    expect(res.body.meta).toMatchObject({ isHome: true, canSave: false, canEdit: true, canStar: false, canDelete: false, url: '/', folderTitle: 'General', version: 0 });
    const viewer = await t.anonymous.get('/api/dashboards/home').auth('vera', PASSWORD);
    expect(viewer.body.meta).toMatchObject({ isHome: true, canEdit: false });
  });

  it('counts each tag over the dashboards of the org, by term', async () => {
    const [here, other] = [await t.users!.createOrg(SYSTEM, 'Tags here'), await t.users!.createOrg(SYSTEM, 'Tags elsewhere')];
    for (const org of [here, other]) await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
    const inOrg = (id: number, body: object) => t.as.post('/api/dashboards/db').set('X-Svc-Org-Id', String(id)).send(body);
    expect((await t.as.get('/api/dashboards/tags').set('X-Svc-Org-Id', String(here.id))).body).toEqual([]);
    await inOrg(here.id, { dashboard: { uid: 'tag-1', title: 'T1', tags: ['web', 'prod'] } });
    await inOrg(here.id, { dashboard: { uid: 'tag-2', title: 'T2', tags: ['prod', 'prod'] } });
    await inOrg(other.id, { dashboard: { uid: 'tag-3', title: 'T3', tags: ['prod', 'secret'] } });
    const res = await t.as.get('/api/dashboards/tags').set('X-Svc-Org-Id', String(here.id));
    expect(res.status).toBe(200);
    // 'prod' once per dashboard; the other org's tags are not counted here.
    expect(res.body).toEqual([
      { term: 'prod', count: 2 },
      { term: 'web', count: 1 },
    ]);
    const there = await t.as.get('/api/dashboards/tags').set('X-Svc-Org-Id', String(other.id));
    expect(there.body).toEqual([
      { term: 'prod', count: 1 },
      { term: 'secret', count: 1 },
    ]);
  });
});

describe('organizations', () => {
  it('keeps each org its own dashboards, uids and ids', async () => {
    const org = await t.users!.createOrg(SYSTEM, 'Isolated');
    await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
    const hdr = ['X-Svc-Org-Id', String(org.id)] as const;
    await save({ dashboard: { uid: 'shared-uid', title: 'Org 1' } });
    const there = await t.as.post('/api/dashboards/db').set(...hdr).send({ dashboard: { uid: 'shared-uid', title: 'Org 2' } });
    expect(there.status).toBe(200);
    expect((await t.as.get('/api/dashboards/uid/shared-uid')).body.dashboard.title).toBe('Org 1');
    expect((await t.as.get('/api/dashboards/uid/shared-uid').set(...hdr)).body.dashboard.title).toBe('Org 2');
    const onlyThere = await t.as.post('/api/dashboards/db').set(...hdr).send({ dashboard: { uid: 'only-there', title: 'X' } });
    expect((await t.as.get('/api/dashboards/uid/only-there')).status).toBe(404);
    expect((await t.as.delete('/api/dashboards/uid/only-there')).status).toBe(404);
    expect((await save({ dashboard: { id: onlyThere.body.id, title: 'steal', version: 1 } })).status).toBe(404);
    expect((await t.as.get(`/apis/dashboard.svc.app/v1beta1/namespaces/org-${org.id}/dashboards/only-there`)).body.spec.title).toBe('X');
  });
});
