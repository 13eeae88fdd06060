/**
 * Watches across namespaces (`/apis/<group>/<version>/<resource>?watch=true`, `kubectl get -A --watch`, informers on
 * the all-namespaces path) through HTTP: the events of every organization the caller belongs to, each as a watch of
 * that namespace alone would show it to the caller with its role there, and nothing of the others; from the list
 * across namespaces' resourceVersion, exactly the later events; and the end (410 Expired, so clients list again)
 * when the caller's memberships change.
 */
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { openWatch, type OpenWatch, type WatchLine } from '../access/access-support';
import { as, createUser } from '../support/users';
import { startTestApp, type TestApp } from '../support/app';

const ALL = '/apis/dashboard.svc.app/v1beta1/dashboards';
const PLAYLISTS_ALL = '/apis/playlist.svc.app/v1/playlists';
const ns = (n: string) => `/apis/dashboard.svc.app/v1beta1/namespaces/${n}/dashboards`;
const FOLDER = 'svc.app/folder';

let t: TestApp;
let org2: string;
let org3: string;
let org2Id: number;
let org3Id: number;
let wesId: number;

beforeAll(async () => {
  t = await startTestApp(['--registry.watch_poll_interval_ms=50']);
  const second = await t.users!.createOrg(SYSTEM, 'Second');
  const third = await t.users!.createOrg(SYSTEM, 'Third');
  [org2Id, org3Id] = [second.id, third.id];
  [org2, org3] = [`org-${second.id}`, `org-${third.id}`];
  for (const id of [second.id, third.id]) await t.users!.setRole(SYSTEM, id, 1, 'Admin');
  // wes: a Viewer of org 1 (the 'editors' folder is out of its sight there, 'open' in it), an Editor of org 2 (where
  // it sees the same 'editors' folder), not a member of org 3.
  wesId = (await createUser(t, 'wes', { 1: 'Viewer', [second.id]: 'Editor' })).id;
  await t.as.post('/apis/folder.svc.app/v1beta1/namespaces/default/folders').send({ metadata: { name: 'open' }, spec: { title: 'Open' } }).expect(201);
  for (const namespace of ['default', org2]) {
    await t.as.post(`/apis/folder.svc.app/v1beta1/namespaces/${namespace}/folders`).send({ metadata: { name: 'editors' }, spec: { title: 'Editors' } }).expect(201);
    const orgHeader = namespace === 'default' ? '1' : String(second.id);
    await t.as.post('/api/folders/editors/permissions').set('X-Svc-Org-Id', orgHeader).send({ items: [{ role: 'Editor', permission: 2 }] }).expect(200);
  }
});
afterAll(async () => {
  await t?.close();
});

const body = (name: string, folder?: string, labels?: Record<string, string>) => ({
  metadata: { name, ...(labels ? { labels } : {}), ...(folder ? { annotations: { [FOLDER]: folder } } : {}) },
  spec: { title: name },
});
const create = async (namespace: string, name: string, folder?: string, labels?: Record<string, string>) => {
  await t.as.post(ns(namespace)).send(body(name, folder, labels)).expect(201);
};
const patch = async (namespace: string, name: string, change: object) => {
  await t.as.patch(`${ns(namespace)}/${name}`).set('Content-Type', 'application/merge-patch+json').send(change).expect(200);
};
const move = (namespace: string, name: string, folder: string) => patch(namespace, name, { metadata: { annotations: { [FOLDER]: folder } } });
const remove = async (namespace: string, name: string) => {
  await t.as.delete(`${ns(namespace)}/${name}`).expect(200);
};

/** `TYPE namespace/name` of each object event. */
const events = (lines: WatchLine[]) =>
  lines.filter((l) => l.type !== 'BOOKMARK').map((l) => {
    const meta = l.object.metadata as { name?: string; namespace?: string };
    return l.type === 'ERROR' ? `ERROR ${(l.object as unknown as { code: number }).code}` : `${l.type} ${meta.namespace}/${meta.name}`;
  });

/** Waits (up to 20 s) until the watch has shown `line`. */
async function showed(w: OpenWatch, line: string): Promise<void> {
  for (let waited = 0; !events(w.lines).includes(line); waited += 50) {
    if (waited > 20_000) throw new Error(`the watch never showed ${line}: ${JSON.stringify(events(w.lines))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits (up to 20 s) for the server to end the watch. */
async function ended(w: OpenWatch): Promise<void> {
  for (let waited = 0; !w.isEnded(); waited += 50) {
    if (waited > 20_000) throw new Error(`the watch is still open: ${JSON.stringify(events(w.lines))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function watching(login: string, query: string): Promise<OpenWatch> {
  const w = await openWatch(t, `${ALL}?watch=true${query}`, { login });
  expect(w.status).toBe(200);
  return w;
}

test("from the list's resourceVersion: exactly the later events of the caller's organizations, each with its role there", async () => {
  await create('default', 'a-before');
  await create(org2, 'a-before');
  const list = await as(t, 'wes').get(ALL).expect(200);
  // Written after the list, before the watch: the watch must carry it (no gap).
  await create(org2, 'a-gap');
  const w = await watching('wes', `&resourceVersion=${list.body.metadata.resourceVersion}&allowWatchBookmarks=true`);
  try {
    await create('default', 'a-pub', 'open');
    await create('default', 'a-secret', 'editors'); // out of a Viewer's sight in org 1
    await create(org2, 'a-ed', 'editors'); // in an Editor's sight in org 2
    await create(org3, 'a-far'); // not the caller's organization
    await patch(org2, 'a-gap', { spec: { title: 'changed' } });
    await move('default', 'a-pub', 'editors'); // leaves its sight
    await move('default', 'a-secret', 'open'); // comes into its sight
    await patch(org3, 'a-far', { spec: { title: 'changed' } });
    await remove(org3, 'a-far');
    await remove('default', 'a-secret');
    await remove('default', 'a-pub'); // it could not read it when it was deleted
    await remove(org2, 'a-gap');
    await remove(org2, 'a-ed');
    await create(org2, 'a-end');
    await showed(w, `ADDED ${org2}/a-end`);
    expect(events(w.lines)).toEqual([
      `ADDED ${org2}/a-gap`,
      'ADDED default/a-pub',
      `ADDED ${org2}/a-ed`,
      `MODIFIED ${org2}/a-gap`,
      'DELETED default/a-pub',
      'ADDED default/a-secret',
      'DELETED default/a-secret',
      `DELETED ${org2}/a-gap`,
      `DELETED ${org2}/a-ed`,
      `ADDED ${org2}/a-end`,
    ]);
    expect(w.isEnded()).toBe(false);
  } finally {
    w.close();
  }
});

test('without a resourceVersion: the list across namespaces as ADDED events, then the changes; each namespace keeps its own sight', async () => {
  await create('default', 'b-twin', 'editors'); // hidden from wes in org 1
  await create(org2, 'b-twin'); // shown in org 2: the same name must not leak between namespaces
  const list = await as(t, 'wes').get(ALL).expect(200);
  const listed = (list.body.items as { metadata: { namespace: string; name: string } }[]).map((i) => `ADDED ${i.metadata.namespace}/${i.metadata.name}`);
  expect(listed).toContain(`ADDED ${org2}/b-twin`);
  expect(listed).not.toContain('ADDED default/b-twin');
  const w = await watching('wes', '&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true');
  try {
    for (let waited = 0; !w.lines.some((l) => l.type === 'BOOKMARK'); waited += 50) {
      if (waited > 20_000) throw new Error('no initial-events-end bookmark');
      await new Promise((r) => setTimeout(r, 50));
    }
    const end = w.lines.find((l) => l.type === 'BOOKMARK')!;
    expect((end.object.metadata as { annotations?: Record<string, string> }).annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(events(w.lines)).toEqual(listed);
    await remove('default', 'b-twin'); // never seen by wes: no event, though org 2 holds a b-twin
    await create(org3, 'b-far');
    await remove(org2, 'b-twin');
    await create('default', 'b-end');
    await showed(w, 'ADDED default/b-end');
    expect(events(w.lines).slice(listed.length)).toEqual([`DELETED ${org2}/b-twin`, 'ADDED default/b-end']);
  } finally {
    w.close();
  }
});

test('selectors apply in every namespace, the namespace field selector included; timeoutSeconds ends the stream', async () => {
  const w = await watching('wes', `&resourceVersion=0&labelSelector=team%3Da&fieldSelector=metadata.namespace%3D${org2}`);
  try {
    await create('default', 'c-a', undefined, { team: 'a' });
    await create(org3, 'c-a', undefined, { team: 'a' });
    await create(org2, 'c-b', undefined, { team: 'b' });
    await create(org2, 'c-a', undefined, { team: 'a' });
    await patch(org2, 'c-a', { metadata: { labels: { team: 'b' } } }); // leaves the selection
    await patch(org2, 'c-b', { metadata: { labels: { team: 'a' } } }); // enters it
    await showed(w, `ADDED ${org2}/c-b`);
    expect(events(w.lines)).toEqual([`ADDED ${org2}/c-a`, `DELETED ${org2}/c-a`, `ADDED ${org2}/c-b`]);
  } finally {
    w.close();
  }
  const timed = await watching('wes', '&timeoutSeconds=1');
  await ended(timed);
  const bad = await as(t, 'wes').get(`${ALL}?watch=true&resourceVersion=abc`);
  expect([bad.status, bad.body.kind]).toEqual([400, 'Status']);
  expect((await t.anonymous.get(`${ALL}?watch=true`)).status).toBe(401);
});

test('kinds without per-object permissions follow the org role in each namespace: None sees nothing there', async () => {
  await createUser(t, 'nell', { 1: 'None', [org2Id]: 'Viewer' });
  const playlists = (namespace: string) => `/apis/playlist.svc.app/v1/namespaces/${namespace}/playlists`;
  const w = await openWatch(t, `${PLAYLISTS_ALL}?watch=true&resourceVersion=0`, { login: 'nell' });
  expect(w.status).toBe(200);
  try {
    for (const namespace of ['default', org3, org2]) {
      await t.as.post(playlists(namespace)).send({ metadata: { name: 'p-1' }, spec: { title: 'p', interval: '5m', items: [] } }).expect(201);
    }
    await showed(w, `ADDED ${org2}/p-1`);
    expect(events(w.lines)).toEqual([`ADDED ${org2}/p-1`]);
  } finally {
    w.close();
  }
});

describe('memberships changing while the watch is open', () => {
  it('joining an organization ends the watch with 410 Expired; listing again shows it', async () => {
    const w = await watching('wes', '&resourceVersion=0');
    try {
      // Another user's membership changes: wes's watch stays open.
      await createUser(t, 'bystander', { [org3Id]: 'Viewer' });
      await create(org2, 'm-still');
      await showed(w, `ADDED ${org2}/m-still`);
      await t.users!.setRole(SYSTEM, org3Id, wesId, 'Viewer');
      await ended(w);
      expect(w.lines[w.lines.length - 1]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
      const list = await as(t, 'wes').get(ALL).expect(200);
      expect((list.body.items as { metadata: { namespace: string } }[]).some((i) => i.metadata.namespace === org3)).toBe(true);
    } finally {
      w.close();
    }
  });

  it('leaving an organization ends the watch with 410 Expired', async () => {
    const w = await watching('wes', '&resourceVersion=0');
    try {
      await t.users!.removeMember(SYSTEM, org3Id, wesId);
      await ended(w);
      expect(w.lines[w.lines.length - 1]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
      const list = await as(t, 'wes').get(ALL).expect(200);
      expect((list.body.items as { metadata: { namespace: string } }[]).some((i) => i.metadata.namespace === org3)).toBe(false);
    } finally {
      w.close();
    }
  });
});
