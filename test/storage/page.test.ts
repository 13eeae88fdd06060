/**
 * Storage.page and Storage.tagCounts on both backends: selection, case-insensitive matching, order, offset/limit and
 * the total count are the database's, so a page reads its own rows whatever the collection's size.
 */
import type { PageQuery, Storage } from '../../storage';
import { type Backend, createTestStorage } from '../support/backend';

const PEOPLE = { group: 'test.svc.app', resource: 'people' };
const MEMBERS = { group: 'test.svc.app', resource: 'members' };
const TAGGED = { group: 'test.svc.app', resource: 'tagged' };
const OTHER_TAGGED = { group: 'test.svc.app', resource: 'othertagged' };
const NS = 'default';

/** Person n: login, email, name, a numeric id as the object's name. */
const people: { id: number; login: string; email: string; name: string; off?: boolean }[] = [
  { id: 1, login: 'admin', email: 'admin@localhost', name: '' },
  { id: 2, login: 'Zed', email: 'z@x.org', name: 'Zed Zimmer' },
  { id: 3, login: 'ana', email: 'ana@x.org', name: 'Ana 100%', off: true },
  { id: 10, login: 'bob', email: 'bob@x.org', name: 'Robert_A' },
  { id: 11, login: 'Carla', email: 'c@ANAlytics.io', name: 'Carla' },
];

describe.each<Backend>(['postgres', 'embedded'])('Storage.page (%s)', (backend) => {
  let storage: Storage;
  let close: () => Promise<void>;
  const names = (p: { items: { key: { name: string } }[] }) => p.items.map((i) => i.key.name);
  const query = (q: Partial<PageQuery> = {}): PageQuery => ({ ...PEOPLE, namespace: NS, order: [{ path: ['spec', 'login'], as: 'text' }], offset: 0, ...q });

  beforeAll(async () => {
    ({ storage, close } = await createTestStorage(backend));
    await storage.registerTypes([PEOPLE, MEMBERS, TAGGED, OTHER_TAGGED]);
    await storage.transact(async (tx) => {
      for (const p of people) {
        const labels = { parity: p.id % 2 ? 'odd' : 'even' };
        await tx.create({ ...PEOPLE, namespace: NS, name: String(p.id) }, { metadata: { name: String(p.id), labels }, spec: { login: p.login, email: p.email, name: p.name, isDisabled: !!p.off } }, { folder: '' });
      }
      // Another namespace's person is never in a page of NS.
      await tx.create({ ...PEOPLE, namespace: 'org-2', name: '4' }, { metadata: { name: '4' }, spec: { login: 'ana-elsewhere', email: '', name: '' } }, { folder: '' });
      // Members 3 and 10 in org-2, as an organization's memberships are named by the user's id.
      for (const id of [3, 10, 99]) await tx.create({ ...MEMBERS, namespace: 'org-2', name: String(id) }, { metadata: { name: String(id) }, spec: {} }, { folder: '' });
    });
  }, 120_000);
  afterAll(() => close());

  test('orders by a case-folded text field, counts every match, and pages by offset and limit', async () => {
    const all = await storage.page(query());
    expect(names(all)).toEqual(['1', '3', '10', '11', '2']);
    expect(all.total).toBe(5);
    expect(all.items[0].value).toMatchObject({ spec: { login: 'admin' } });
    const second = await storage.page(query({ offset: 2, limit: 2 }));
    expect(names(second)).toEqual(['10', '11']);
    expect(second.total).toBe(5);
    // Past the last match: no items, the count still given.
    expect(await storage.page(query({ offset: 7, limit: 2 }))).toEqual({ items: [], total: 5 });
    expect(await storage.page(query({ limit: 0 }))).toEqual({ items: [], total: 5 });
  });

  test('orders numerically by a number field (the name), the name breaking ties', async () => {
    const byId = await storage.page(query({ order: [{ path: ['metadata', 'name'], as: 'number' }] }));
    expect(names(byId)).toEqual(['1', '2', '3', '10', '11']);
    // No order at all: by name, byte order.
    expect(names(await storage.page(query({ order: [] })))).toEqual(['1', '10', '11', '2', '3']);
  });

  test('orders exactly (case kept) or reversed, the name reversed with it; excludes names; selects by folder', async () => {
    const login = (as: 'text' | 'exact') => [{ path: ['spec', 'login'], as }] as const;
    expect(names(await storage.page(query({ order: login('exact') })))).toEqual(['11', '2', '1', '3', '10']);
    expect(names(await storage.page(query({ order: login('text'), descending: true })))).toEqual(['2', '11', '10', '3', '1']);
    const desc = await storage.page(query({ order: login('exact'), descending: true, offset: 1, limit: 2 }));
    expect([names(desc), desc.total]).toEqual([['3', '1'], 5]);
    // No order but the name's, reversed.
    expect(names(await storage.page(query({ order: [], descending: true })))).toEqual(['3', '2', '11', '10', '1']);
    const without = await storage.page(query({ excludeNames: ['1', '3'] }));
    expect([names(without), without.total]).toEqual([['10', '11', '2'], 3]);
    expect((await storage.page(query({ folders: [''] }))).total).toBe(5);
    expect(await storage.page(query({ folders: ['elsewhere'] }))).toEqual({ items: [], total: 0 });
    expect(await storage.page(query({ folders: [] }))).toEqual({ items: [], total: 0 });
  });

  test('matches a substring of any of several fields in any case; % and _ are plain characters', async () => {
    const paths = [['spec', 'login'], ['spec', 'email'], ['spec', 'name']];
    const ana = await storage.page(query({ contains: { paths, text: 'ANA' } }));
    expect(names(ana)).toEqual(['3', '11']);
    expect(ana.total).toBe(2);
    expect(names(await storage.page(query({ contains: { paths, text: '100%' } })))).toEqual(['3']);
    expect(names(await storage.page(query({ contains: { paths, text: '_a' } })))).toEqual(['10']);
    expect(names(await storage.page(query({ contains: { paths, text: '%' } })))).toEqual(['3']);
    expect((await storage.page(query({ contains: { paths, text: '' } }))).total).toBe(5);
    expect(await storage.page(query({ contains: { paths: [['spec', 'login']], text: 'analytics' } }))).toEqual({ items: [], total: 0 });
  });

  test('filters by equal fields, labels, names, and membership of another type', async () => {
    expect(names(await storage.page(query({ equal: [{ path: ['spec', 'isDisabled'], values: [true] }] })))).toEqual(['3']);
    expect(names(await storage.page(query({ equal: [{ path: ['spec', 'login'], values: ['bob', 'Zed', 'zed'] }] })))).toEqual(['10', '2']);
    expect(await storage.page(query({ equal: [{ path: ['spec', 'login'], values: [] }] }))).toEqual({ items: [], total: 0 });
    expect(names(await storage.page(query({ labels: [{ key: 'parity', operator: 'Equals', values: ['even'] }] })))).toEqual(['10', '2']);
    expect(names(await storage.page(query({ names: ['2', '11', 'nobody'] })))).toEqual(['11', '2']);
    expect(await storage.page(query({ names: [] }))).toEqual({ items: [], total: 0 });
    const members = await storage.page(query({ namedAs: { ...MEMBERS, namespace: 'org-2' }, order: [{ path: ['metadata', 'name'], as: 'number' }] }));
    expect(names(members)).toEqual(['3', '10']);
    expect(members.total).toBe(2);
  });

  test('list with contains: only the objects whose field contains the value (JSON containment), in one namespace or every one', async () => {
    const LISTS = { group: 'test.svc.app', resource: 'permlists' };
    await storage.registerTypes([LISTS]);
    const items = (...names: string[]) => names.map((name) => ({ kind: 'User', name, verb: 'view' }));
    await storage.transact(async (tx) => {
      const put = (namespace: string, name: string, permissions: object[]) => tx.create({ ...LISTS, namespace, name }, { metadata: { name }, spec: { permissions } }, { folder: '' });
      await put(NS, 'p1', items('u1', 'u2'));
      await put(NS, 'p2', items('u2'));
      await put(NS, 'p3', [{ kind: 'Team', name: 'u1', verb: 'edit' }]);
      await put('org-2', 'p4', items('u1'));
    });
    const naming = (uid: string) => ({ path: ['spec', 'permissions'], value: [{ kind: 'User', name: uid }] });
    const listed = (q: object) => storage.transact((tx) => tx.list({ ...LISTS, namespace: NS, ...q }));
    expect(names(await listed({ contains: naming('u1') }))).toEqual(['p1']);
    expect(names(await listed({ contains: naming('u2') }))).toEqual(['p1', 'p2']);
    expect(names(await listed({ contains: naming('u1'), everyNamespace: true }))).toEqual(['p1', 'p4']);
    expect(names(await storage.list({ ...LISTS, namespace: NS, contains: naming('nobody') }))).toEqual([]);
  });

  test('tagCounts: objects per tag of the search index in one namespace, each object once per tag, by tag', async () => {
    await storage.transact(async (tx) => {
      const put = (type: typeof TAGGED, namespace: string, name: string, tags: string[]) =>
        tx.create({ ...type, namespace, name }, { metadata: { name }, spec: {} }, { folder: '', search: { title: name, tags, internalId: 0 } });
      await put(TAGGED, NS, 't1', ['web', 'prod']);
      await put(TAGGED, NS, 't2', ['prod', 'prod', '']);
      await put(TAGGED, NS, 't3', ['Prod', 'Ärger']);
      await put(TAGGED, 'org-2', 't4', ['prod', 'secret']);
      await put(OTHER_TAGGED, NS, 'o1', ['web', 'other']);
    });
    expect(await storage.tagCounts({ namespace: NS, types: [TAGGED] })).toEqual([
      { tag: 'Prod', count: 1 },
      { tag: 'prod', count: 2 },
      { tag: 'web', count: 1 },
      { tag: 'Ärger', count: 1 },
    ]);
    expect(await storage.tagCounts({ namespace: NS, types: [TAGGED, OTHER_TAGGED] })).toContainEqual({ tag: 'web', count: 2 });
    expect(await storage.tagCounts({ namespace: 'org-2', types: [TAGGED] })).toEqual([
      { tag: 'prod', count: 1 },
      { tag: 'secret', count: 1 },
    ]);
    expect(await storage.tagCounts({ namespace: NS, types: [] })).toEqual([]);
  });

  test('search with an offset: the database skips the earlier hits, of one type or of several merged', async () => {
    const SEARCHED = { group: 'test.svc.app', resource: 'searched' };
    const OTHER = { group: 'test.svc.app', resource: 'othersearched' };
    await storage.registerTypes([SEARCHED, OTHER]);
    await storage.transact(async (tx) => {
      const put = (type: typeof SEARCHED, name: string, title: string) =>
        tx.create({ ...type, namespace: NS, name }, { metadata: { name }, spec: {} }, { folder: '', search: { title, tags: [], internalId: 0 } });
      for (const [name, title] of [['s1', 'delta'], ['s2', 'Alpha'], ['s3', 'charlie'], ['s4', 'alpha']]) await put(SEARCHED, name, title);
      for (const [name, title] of [['o1', 'Bravo'], ['s2', 'alpha'], ['o3', 'echo']]) await put(OTHER, name, title);
    });
    const hits = async (types: (typeof SEARCHED)[], offset: number | undefined, limit: number, order: 'asc' | 'desc' = 'asc') => {
      const found = await storage.search({ namespace: NS, types, order, offset, limit });
      return [found.hits.map((h) => `${h.key.resource}/${h.key.name}`), found.more];
    };
    expect(await hits([SEARCHED], undefined, 10)).toEqual([['searched/s2', 'searched/s4', 'searched/s3', 'searched/s1'], false]);
    expect(await hits([SEARCHED], 1, 2)).toEqual([['searched/s4', 'searched/s3'], true]);
    expect(await hits([SEARCHED], 3, 2)).toEqual([['searched/s1'], false]);
    expect(await hits([SEARCHED], 9, 2)).toEqual([[], false]);
    // Merged: a tie of title and name goes to the type first in byte order (othersearched before searched).
    const merged = ['othersearched/s2', 'searched/s2', 'searched/s4', 'othersearched/o1', 'searched/s3', 'searched/s1', 'othersearched/o3'];
    expect(await hits([SEARCHED, OTHER], undefined, 10)).toEqual([merged, false]);
    for (const offset of [0, 1, 2, 5, 6, 7]) expect(await hits([SEARCHED, OTHER], offset, 2)).toEqual([merged.slice(offset, offset + 2), offset + 2 < merged.length]);
    expect(await hits([SEARCHED, OTHER], 2, 3, 'desc')).toEqual([[...merged].reverse().slice(2, 5), true]);
  });
});
