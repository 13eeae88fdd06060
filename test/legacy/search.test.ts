import { dashboardKind, folderKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { StoredPermissions } from '../../pkg/auth/authorization/stored-permissions';
import { anyKind } from '../../pkg/meta';
import type { AccessCheck, AccessTarget, RequestContext } from '../../pkg/registry';
import { as, createUser } from '../support/users';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, FOLDERS } from '../support/paths';

/** The scope of an access target (the registry may send the folder with it). */
const scopeText = (target: AccessTarget) => (typeof target === 'string' ? target : target.scope);

/**
 * GET /api/search through HTTP on a real database: every parameter, paging, sorting, limits, stars, org isolation,
 * and the index following every write made through /apis at once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await folder('ops', 'Operations');
  await folder('zeta', 'Zeta folder');
  await folder('team', 'Team A', 'ops');
  await dashboard('lat', 'API latency', ['prod', 'api'], 'ops');
  await dashboard('err', 'Errors', ['prod'], 'ops');
  await dashboard('home', 'Home', []);
  await dashboard('usage', 'api usage 100%', ['api']);
  await dashboard('deep', 'Deep dive', ['prod'], 'team');
});
afterAll(async () => {
  await t.close();
});

async function folder(name: string, title: string, parent?: string) {
  const annotations = parent ? { 'svc.app/folder': parent } : undefined;
  const res = await t.as.post(FOLDERS).send({ metadata: { name, annotations }, spec: { title } });
  expect(res.status).toBe(201);
}

async function dashboard(name: string, title: string, tags: string[], folderUid?: string, path = DASHBOARDS) {
  const annotations = folderUid ? { 'svc.app/folder': folderUid } : undefined;
  const res = await t.as.post(path).send({ metadata: { name, annotations }, spec: { title, tags, panels: [] } });
  expect(res.status).toBe(201);
}

const search = async (query = '') => {
  const res = await t.as.get(`/api/search${query}`);
  expect(res.status).toBe(200);
  return res.body as { uid: string; type: string; isStarred: boolean }[];
};
const uids = async (query = '') => (await search(query)).map((h) => h.uid);

/** Everything of org 1, in the order of a search without `sort`: folders, then dashboards, each by title. */
const ALL = ['ops', 'team', 'zeta', 'lat', 'usage', 'deep', 'err', 'home'];

describe('hits', () => {
  it('lists folders first, then dashboards, each by title, in the anchor hit shape', async () => {
    const hits = await search();
    expect(hits.map((h) => h.uid)).toEqual(ALL);
    const id = (await t.as.get(`${DASHBOARDS}/lat`)).body.metadata.labels['svc.app/deprecatedInternalID'];
    const folderId = (await t.as.get(`${FOLDERS}/ops`)).body.metadata.labels['svc.app/deprecatedInternalID'];
    expect(hits.find((h) => h.uid === 'lat')).toEqual({
      id: Number(id),
      uid: 'lat',
      title: 'API latency',
      uri: 'db/api-latency',
      url: '/d/lat/api-latency',
      slug: 'api-latency',
      type: 'dash-db',
      tags: ['api', 'prod'],
      isStarred: false,
      folderId: Number(folderId),
      folderUid: 'ops',
      folderTitle: 'Operations',
      folderUrl: '/dashboards/f/ops/operations',
      sortMeta: 0,
    });
  });

  it('gives folders their folder url, and root hits no folder fields', async () => {
    const hits = await search();
    expect(hits.find((h) => h.uid === 'ops')).toEqual({
      id: expect.any(Number),
      uid: 'ops',
      title: 'Operations',
      uri: 'db/operations',
      url: '/dashboards/f/ops/operations',
      slug: 'operations',
      type: 'dash-folder',
      tags: [],
      isStarred: false,
      sortMeta: 0,
    });
    expect(hits.find((h) => h.uid === 'team')).toMatchObject({ type: 'dash-folder', folderUid: 'ops', folderTitle: 'Operations' });
    expect(Object.keys(hits.find((h) => h.uid === 'home')!)).not.toContain('folderUid');
  });
});

describe('filters', () => {
  it('query matches a case-insensitive substring of the title, % and _ literally', async () => {
    expect(await uids('?query=API')).toEqual(['lat', 'usage']);
    expect(await uids('?query=erat')).toEqual(['ops']);
    expect(await uids('?query=100%25')).toEqual(['usage']);
    expect(await uids('?query=a_i')).toEqual([]);
    expect(await uids('?query=nothing-like-it')).toEqual([]);
  });

  it('tag keeps hits carrying every tag given (folders have none)', async () => {
    expect(await uids('?tag=prod')).toEqual(['lat', 'deep', 'err']);
    expect(await uids('?tag=prod&tag=api')).toEqual(['lat']);
    expect(await uids('?tag=nope')).toEqual([]);
  });

  it('type keeps dashboards or folders; another value is ignored', async () => {
    expect(await uids('?type=dash-folder')).toEqual(['ops', 'team', 'zeta']);
    expect(await uids('?type=dash-db')).toEqual(['lat', 'usage', 'deep', 'err', 'home']);
    expect(await uids('?type=whatever')).toEqual(ALL);
  });

  it('folderUIDs keeps what is directly in those folders; empty or "general" is the root', async () => {
    expect(await uids('?folderUIDs=ops')).toEqual(['team', 'lat', 'err']);
    expect(await uids('?folderUIDs=ops&folderUIDs=team')).toEqual(['team', 'lat', 'deep', 'err']);
    expect(await uids('?folderUIDs=')).toEqual(['ops', 'zeta', 'usage', 'home']);
    expect(await uids('?folderUIDs=general&type=dash-db')).toEqual(['usage', 'home']);
    expect(await uids('?folderUIDs=missing')).toEqual([]);
  });

  it('dashboardUIDs keeps those uids', async () => {
    expect(await uids('?dashboardUIDs=home&dashboardUIDs=lat&dashboardUIDs=unknown')).toEqual(['lat', 'home']);
  });

  it('the deprecated folderIds and dashboardIds filter by legacy ids: folderIds 0 is the root, an unknown or malformed id matches nothing', async () => {
    const hits = (await search()) as unknown as { uid: string; id: number }[];
    const id = (uid: string) => hits.find((h) => h.uid === uid)!.id;
    expect(await uids(`?folderIds=${id('ops')}`)).toEqual(['team', 'lat', 'err']);
    expect(await uids(`?folderIds=${id('ops')}&folderIds=${id('team')}`)).toEqual(['team', 'lat', 'deep', 'err']);
    expect(await uids('?folderIds=0&type=dash-db')).toEqual(['usage', 'home']);
    expect(await uids('?folderIds=999999')).toEqual([]);
    // With folderUIDs, in both (the anchor ANDs them).
    expect(await uids(`?folderIds=${id('ops')}&folderUIDs=ops&folderUIDs=team`)).toEqual(['team', 'lat', 'err']);
    expect(await uids(`?dashboardIds=${id('home')}&dashboardIds=${id('lat')}`)).toEqual(['lat', 'home']);
    // With dashboardUIDs, either (the anchor ORs them).
    expect(await uids(`?dashboardIds=${id('home')}&dashboardUIDs=err`)).toEqual(['err', 'home']);
    expect(await uids('?dashboardIds=999999')).toEqual([]);
    // A value that is no integer is ignored, as the anchor ignores it.
    expect(await uids('?folderIds=abc')).toEqual(ALL);
  });

  it('combines filters', async () => {
    expect(await uids('?query=e&tag=prod&folderUIDs=ops&type=dash-db')).toEqual(['lat', 'err']);
  });
});

describe('sort, limit and page', () => {
  it('alpha-asc and alpha-desc sort folders and dashboards together by title', async () => {
    const asc = ['lat', 'usage', 'deep', 'err', 'home', 'ops', 'team', 'zeta'];
    expect(await uids('?sort=alpha-asc')).toEqual(asc);
    expect(await uids('?sort=alpha-desc')).toEqual([...asc].reverse());
  });

  it('pages by limit from page 1; the pages together are the whole list, without repeats', async () => {
    for (const sort of ['', '&sort=alpha-asc', '&sort=alpha-desc']) {
      const whole = await uids(`?limit=100${sort}`);
      const pages: string[] = [];
      for (let page = 1; page <= 4; page++) pages.push(...(await uids(`?limit=3&page=${page}${sort}`)));
      expect(pages).toEqual(whole);
    }
    expect(await uids('?limit=3&page=4')).toEqual([]);
    expect(await uids('?limit=3&page=0')).toEqual(ALL.slice(0, 3));
    expect(await uids('?limit=3&page=-2')).toEqual(ALL.slice(0, 3));
  });

  it('limit defaults to 1000 when missing, invalid or below 1, and may not exceed 5000', async () => {
    expect(await uids('?limit=0')).toEqual(ALL);
    expect(await uids('?limit=abc')).toEqual(ALL);
    expect(await uids('?limit=5000')).toEqual(ALL);
    const over = await t.as.get('/api/search?limit=5001');
    expect(over.status).toBe(422);
    expect(over.body).toEqual({ message: 'Limit is above maximum allowed (5000), use page parameter to access hits beyond limit' });
  });
});

describe('stars', () => {
  afterEach(async () => {
    await t.as.delete('/api/user/stars/dashboard/uid/lat');
    await t.as.delete('/api/user/stars/dashboard/uid/home');
  });

  it('marks starred dashboards and starred=true keeps only them', async () => {
    expect((await t.as.post('/api/user/stars/dashboard/uid/lat')).status).toBe(200);
    expect((await t.as.post('/api/user/stars/dashboard/uid/home')).status).toBe(200);
    const hits = await search();
    expect(hits.filter((h) => h.isStarred).map((h) => h.uid)).toEqual(['lat', 'home']);
    expect(await uids('?starred=true')).toEqual(['lat', 'home']);
    expect(await uids('?starred=true&query=home')).toEqual(['home']);
    expect(await uids('?starred=true&dashboardUIDs=home&dashboardUIDs=err')).toEqual(['home']);
    expect(await uids('?starred=true&type=dash-folder')).toEqual([]);
    expect(await uids('?starred=false')).toEqual(ALL);
  });

  it('starred=true with no stars is empty', async () => {
    expect(await uids('?starred=true')).toEqual([]);
  });
});

describe('index consistency', () => {
  it('finds a dashboard renamed through /apis by its new title at once, and no longer by the old one', async () => {
    await dashboard('ren', 'Before rename', ['x']);
    expect(await uids('?query=before')).toEqual(['ren']);
    const patched = await t.as
      .patch(`${DASHBOARDS}/ren`)
      .set('Content-Type', 'application/merge-patch+json')
      .send({ spec: { title: 'After rename', tags: ['y'] } });
    expect(patched.status).toBe(200);
    expect(await uids('?query=before')).toEqual([]);
    expect(await uids('?query=after')).toEqual(['ren']);
    expect(await uids('?tag=x')).toEqual([]);
    expect(await uids('?tag=y')).toEqual(['ren']);
  });

  it('follows a move to another folder', async () => {
    await dashboard('mover', 'Mover', []);
    await t.as
      .patch(`${DASHBOARDS}/mover`)
      .set('Content-Type', 'application/merge-patch+json')
      .send({ metadata: { annotations: { 'svc.app/folder': 'zeta' } } })
      .expect(200);
    expect(await uids('?folderUIDs=zeta')).toEqual(['mover']);
    expect(await search('?query=mover')).toEqual([expect.objectContaining({ folderUid: 'zeta', folderTitle: 'Zeta folder' })]);
  });

  it('drops a deleted dashboard, and a deleted folder with everything in it', async () => {
    await dashboard('gone', 'Gone soon', []);
    await folder('tmp', 'Temporary');
    await dashboard('inside', 'Inside tmp', [], 'tmp');
    expect(await uids('?query=gone')).toEqual(['gone']);
    await t.as.delete(`${DASHBOARDS}/gone`).expect(200);
    expect(await uids('?query=gone')).toEqual([]);
    await t.as.delete(`${FOLDERS}/tmp`).expect(200);
    expect(await uids('?query=tmp')).toEqual([]);
    expect(await uids('?folderUIDs=tmp')).toEqual([]);
  });

  it('indexes objects stored before the index existed when the registry starts', async () => {
    const kind = anyKind(dashboardKind);
    // A row written without its search row, as storage held dashboards before migration 0003.
    await t.storage.transact(async (tx) => {
      const value = { apiVersion: 'dashboard.svc.app/v1beta1', kind: 'Dashboard', metadata: { name: 'legacy', namespace: 'default', uid: 'u-legacy' }, spec: { title: 'Legacy stored', tags: ['old'] } };
      await tx.create({ group: kind.group, resource: kind.plural, namespace: 'default', name: 'legacy' }, value, { folder: '' });
    });
    expect(await uids('?query=legacy')).toEqual([]);
    // A registry starting over the same storage, as after a restart: t.registry's own init() ran already, so it would not run again.
    await t.registry.companion(t.registry.kinds).init();
    expect(await search('?query=legacy')).toEqual([expect.objectContaining({ uid: 'legacy', title: 'Legacy stored', tags: ['old'] })]);
    await t.as.delete(`${DASHBOARDS}/legacy`).expect(200);
  });
});

describe('who sees what', () => {
  it('shows a Viewer only the folders and dashboards it may view, paging over what it sees', async () => {
    await createUser(t, 'search-viewer', { 1: 'Viewer' });
    await folder('secret', 'Secret stuff');
    await dashboard('hidden', 'Hidden latency', ['prod'], 'secret');
    await dashboard('shown', 'Shown latency', ['prod']);
    const viewer = as(t, 'search-viewer');
    const seen = async (query: string) => {
      const res = await viewer.get(`/api/search${query}`);
      expect(res.status).toBe(200);
      return (res.body as { uid: string }[]).map((h) => h.uid);
    };
    expect(await seen('?query=latency')).toEqual(['lat', 'hidden', 'shown']);
    // Only Admins keep access to the folder: its default Viewer and Editor items are taken away.
    await new StoredPermissions(t.users!.registry).replace(SYSTEM, 1, 'folders', 'secret', [
      { resource: 'folders', uid: 'secret', grantee: { kind: 'role', role: 'Admin' }, permission: 'Admin' },
    ]);
    expect(await seen('?query=latency')).toEqual(['lat', 'shown']);
    expect(await seen('?query=secret')).toEqual([]);
    expect(await seen('?folderUIDs=secret')).toEqual([]);
    expect(await uids('?query=latency')).toEqual(['lat', 'hidden', 'shown']);
    // Pages count only what the Viewer sees.
    const visible = await seen('?limit=100');
    expect(visible).not.toContain('secret');
    expect(visible).not.toContain('hidden');
    const paged: string[] = [];
    for (let page = 1; paged.length < visible.length + 2 && page < 40; page++) paged.push(...(await seen(`?limit=2&page=${page}`)));
    expect(paged).toEqual(visible);
    // Nor may it star what it cannot see.
    const starred = await viewer.post('/api/user/stars/dashboard/uid/hidden');
    expect(starred.status).toBe(404);
    expect(starred.body).toEqual({ message: 'Dashboard not found' });
    await viewer.post('/api/user/stars/dashboard/uid/shown').expect(200);
    expect((await viewer.get('/api/search?starred=true')).body.map((h: { uid: string }) => h.uid)).toEqual(['shown']);
  });

  it('shows a hit in a folder the caller may not read by the folder uid alone: no title, url or id of it', async () => {
    const viewer = await createUser(t, 'vault-viewer', { 1: 'Viewer' });
    await folder('vault', 'Vault of secrets');
    await folder('open-sub', 'Open subfolder', 'vault');
    await dashboard('peek', 'Peek inside', [], 'vault');
    const permissions = new StoredPermissions(t.users!.registry);
    await permissions.replace(SYSTEM, 1, 'folders', 'vault', [
      { resource: 'folders', uid: 'vault', grantee: { kind: 'role', role: 'Admin' }, permission: 'Admin' },
    ]);
    // The Viewer may read the dashboard and the subfolder, not the folder they are in.
    await permissions.replace(SYSTEM, 1, 'dashboards', 'peek', [
      { resource: 'dashboards', uid: 'peek', grantee: { kind: 'user', uid: viewer.uid }, permission: 'View' },
    ]);
    await permissions.replace(SYSTEM, 1, 'folders', 'open-sub', [
      { resource: 'folders', uid: 'open-sub', grantee: { kind: 'user', uid: viewer.uid }, permission: 'View' },
    ]);
    const reader = as(t, 'vault-viewer');
    expect((await reader.get('/api/folders/vault')).status).toBe(403);
    const hits = (await reader.get('/api/search?query=peek').expect(200)).body;
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ uid: 'peek', folderUid: 'vault' });
    expect(hits[0]).not.toHaveProperty('folderTitle');
    expect(hits[0]).not.toHaveProperty('folderUrl');
    expect(hits[0]).not.toHaveProperty('folderId');
    const sub = (await reader.get('/api/search?query=open%20sub').expect(200)).body;
    expect(sub.map((h: { uid: string }) => h.uid)).toEqual(['open-sub']);
    expect(JSON.stringify([hits, sub])).not.toMatch(/secrets/i);
    // The dashboard's own meta shows the folder the same way.
    const meta = (await reader.get('/api/dashboards/uid/peek').expect(200)).body.meta;
    expect(meta).toMatchObject({ folderUid: 'vault', folderTitle: '', folderId: 0 });
    expect(JSON.stringify(meta)).not.toMatch(/secrets/i);
    // Who may read the folder sees it.
    const admin = (await search('?query=peek'))[0] as unknown as Record<string, unknown>;
    expect(admin).toMatchObject({ folderUid: 'vault', folderTitle: 'Vault of secrets', folderUrl: '/dashboards/f/vault/vault-of-secrets' });
  });

  it('with permission=Edit keeps what the caller may edit', async () => {
    await createUser(t, 'search-editor', { 1: 'Editor' });
    const editor = as(t, 'search-editor');
    await new StoredPermissions(t.users!.registry).replace(SYSTEM, 1, 'dashboards', 'home', [
      { resource: 'dashboards', uid: 'home', grantee: { kind: 'role', role: 'Viewer' }, permission: 'View' },
    ]);
    const view = (await editor.get('/api/search?type=dash-db&folderUIDs=').expect(200)).body.map((h: { uid: string }) => h.uid);
    const edit = (await editor.get('/api/search?type=dash-db&folderUIDs=&permission=Edit').expect(200)).body.map((h: { uid: string }) => h.uid);
    expect(view).toContain('home');
    expect(edit).not.toContain('home');
    expect(edit).toEqual(view.filter((u: string) => u !== 'home'));
  });

  it('keeps each organization to its own objects', async () => {
    const org = await t.users!.createOrg(SYSTEM, 'Other');
    await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
    await dashboard('other-dash', 'API latency elsewhere', ['prod'], undefined, `/apis/dashboard.svc.app/v1beta1/namespaces/org-${org.id}/dashboards`);
    expect(await uids('?query=elsewhere')).toEqual([]);
    const there = await t.as.get('/api/search?query=api').set('X-Svc-Org-Id', String(org.id));
    expect(there.status).toBe(200);
    expect(there.body.map((h: { uid: string }) => h.uid)).toEqual(['other-dash']);
  });

  it('needs credentials', async () => {
    const res = await t.anonymous.get('/api/search');
    expect(res.status).toBe(401);
  });

  it('drops what the caller may not read before paging, and fills each page from further hits', async () => {
    const kinds = [anyKind(folderKind), anyKind(dashboardKind)];
    const names = (ctx: RequestContext, offset: number, limit: number) =>
      t.registry.search(ctx, { kinds, order: 'asc', groupByKind: true, offset, limit }).then((hits) => hits.map((h) => h.key.name));
    const server: RequestContext = { requester: { identity: 'user:test' }, namespace: 'default', fieldManager: 'test' };
    const everything = await names(server, 0, 100);
    const dashboards = (await t.registry.search(server, { kinds: [anyKind(dashboardKind)], order: 'asc', offset: 0, limit: 100 })).map((h) => h.key.name);
    // Every other dashboard is hidden from this caller.
    const hidden = new Set(dashboards.filter((_, i) => i % 2 === 0));
    const access: AccessCheck = {
      can: async () => true,
      filter: async (action, candidates, scopeOf) => candidates.filter((c) => action !== 'dashboards:read' || !hidden.has(scopeText(scopeOf(c)).replace('dashboards:uid:', ''))),
    };
    const caller = { ...server, access };
    const visible = everything.filter((n) => !hidden.has(n));
    expect(hidden.size).toBeGreaterThan(2);
    expect(await names(caller, 0, 100)).toEqual(visible);
    const pages: string[] = [];
    for (let offset = 0; offset < visible.length + 2; offset += 2) pages.push(...(await names(caller, offset, 2)));
    expect(pages).toEqual(visible);
  });

  it('fills a page across several index reads when most hits are hidden', async () => {
    await folder('bulk', 'Bulk');
    const system: RequestContext = { requester: { identity: 'user:test' }, namespace: 'default', fieldManager: 'test' };
    const names = Array.from({ length: 240 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
    for (const name of names) {
      await t.registry.create(system, anyKind(dashboardKind), { metadata: { name, annotations: { 'svc.app/folder': 'bulk' } }, spec: { title: `Bulk ${name}` } });
    }
    // Two of every three are hidden, so a page of 40 needs about 120 index rows: more than one read of 100.
    const visible = names.filter((_, i) => i % 3 === 0);
    const access: AccessCheck = {
      // No wildcard grant: a caller who may read every dashboard has its page read by the database alone.
      can: async (_action, target) => !scopeText(target ?? '').endsWith(':*'),
      filter: async (_action, candidates, scopeOf) => candidates.filter((c) => visible.includes(scopeText(scopeOf(c)).replace('dashboards:uid:', ''))),
    };
    const page = (offset: number) =>
      t.registry
        .search({ ...system, access }, { kinds: [anyKind(dashboardKind)], folders: ['bulk'], order: 'desc', offset, limit: 40 })
        .then((hits) => hits.map((h) => h.key.name));
    expect([...(await page(0)), ...(await page(40)), ...(await page(80))]).toEqual([...visible].reverse());
  });
});

describe('GET /api/search/sorting', () => {
  it('lists the sort orders search takes, and each sorts', async () => {
    const res = await t.as.get('/api/search/sorting');
    expect(res.status).toBe(200);
    expect(res.body.sortOptions.map((o: { name: string }) => o.name)).toEqual(['alpha-asc', 'alpha-desc']);
    expect(res.body.sortOptions[0]).toEqual({ name: 'alpha-asc', displayName: 'Alphabetically (A–Z)', description: 'Sort results in an alphabetically ascending order', meta: '' });
    for (const { name } of res.body.sortOptions) expect((await t.as.get(`/api/search?sort=${name}`)).status).toBe(200);
    expect((await t.anonymous.get('/api/search/sorting')).status).toBe(401);
  });
});
