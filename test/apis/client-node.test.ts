/**
 * The flows of a Kubernetes client library, with @kubernetes/client-node against the real server over HTTPS
 * (basic auth, the self-signed certificate as the cluster's authority): KubernetesObjectApi create, read, replace,
 * patch of each type, server-side apply with a conflict and force, delete; an informer's list and watch; and the
 * 410 ERROR event a watch from a forgotten resourceVersion gets, which is what makes informers re-list.
 */
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { loadConfig } from '../../pkg/config';
import { silentLogger } from '../../pkg/log';
import { type RunningServer, startServer } from '../../pkg/server/server';
import { openStorage, type Storage } from '../../storage';
import { createTestDatabase, type TestDatabase } from '../support/backend';
import { clientLabels } from '../support/labels';

/** client-node 1.x is ESM only: an indirect eval keeps a real dynamic import (jest runs with vm modules). */
const importEsm = (0, eval)('(specifier) => import(specifier)') as (specifier: string) => Promise<unknown>;

const PLAYLIST = { apiVersion: 'playlist.svc.app/v1', kind: 'Playlist' };
const PLAYLISTS_PATH = '/apis/playlist.svc.app/v1/namespaces/default/playlists';

let data: string;
let db: TestDatabase;
let storage: Storage;
let server: RunningServer;
let lib: typeof k8s;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-client-node-'));
  db = await createTestDatabase();
  storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 8 });
  const config = loadConfig({ argv: ['--server.protocol=https', '--server.http_addr=127.0.0.1', '--server.http_port=0', `--paths.data=${data}`], env: {} });
  server = await startServer(config, silentLogger, { storage });
  lib = (await importEsm('@kubernetes/client-node')) as typeof k8s;
  kc = new lib.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'svc', server: server.url, caData: fs.readFileSync(path.join(data, 'tls', 'server.crt')).toString('base64') }],
    users: [{ name: 'admin', username: 'admin', password: 'admin' }],
    contexts: [{ name: 'svc', cluster: 'svc', user: 'admin', namespace: 'default' }],
    currentContext: 'svc',
  });
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
  fs.rmSync(data, { recursive: true, force: true });
});

const playlist = (name: string, spec: Record<string, unknown> = {}) => ({
  ...PLAYLIST,
  metadata: { name, namespace: 'default' },
  spec: { title: name, interval: '5m', items: [], ...spec },
});

/** A legacy API call as the server administrator, over the test's HTTPS with its certificate as the authority. */
function adminPost(p: string, body: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${server.url}${p}`,
      { method: 'POST', auth: 'admin:admin', ca: fs.readFileSync(path.join(data, 'tls', 'server.crt')), headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${p}: ${res.statusCode} ${text}`))));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

type Playlist = k8s.KubernetesObject & { spec: { title: string; interval: string; items: unknown[] } };

test('KubernetesObjectApi: create, read, replace, merge patch, strategic merge patch 415, delete (discovery finds the kind)', async () => {
  const api = lib.KubernetesObjectApi.makeApiClient(kc);
  const created = (await api.create(playlist('cn-crud'))) as Playlist;
  expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);

  const read = (await api.read({ ...PLAYLIST, metadata: { name: 'cn-crud', namespace: 'default' } })) as Playlist;
  expect(read.spec.title).toBe('cn-crud');

  const replaced = (await api.replace({ ...read, spec: { ...read.spec, title: 'replaced' } })) as Playlist;
  expect(replaced.spec.title).toBe('replaced');
  expect(replaced.metadata?.generation).toBe(2);

  const merged = (await api.patch<k8s.KubernetesObject>(
    { ...PLAYLIST, metadata: { name: 'cn-crud', namespace: 'default', labels: { team: 'a' } } },
    undefined, undefined, undefined, undefined, lib.PatchStrategy.MergePatch,
  )) as unknown as Playlist;
  expect(clientLabels(merged.metadata?.labels)).toEqual({ team: 'a' });

  await expect(
    api.patch({ ...PLAYLIST, metadata: { name: 'cn-crud', namespace: 'default', labels: { x: 'y' } } }, undefined, undefined, undefined, undefined, lib.PatchStrategy.StrategicMergePatch),
  ).rejects.toMatchObject({ code: 415 });

  const status = await api.delete({ ...PLAYLIST, metadata: { name: 'cn-crud', namespace: 'default' } });
  expect(status).toMatchObject({ kind: 'Status', status: 'Success' });
  await expect(api.read({ ...PLAYLIST, metadata: { name: 'cn-crud', namespace: 'default' } })).rejects.toMatchObject({ code: 404 });
});

test('CustomObjectsApi JSON patch with a failing test op is refused and changes nothing', async () => {
  const api = kc.makeApiClient(lib.CustomObjectsApi);
  const target = { group: 'playlist.svc.app', version: 'v1', namespace: 'default', plural: 'playlists', name: 'cn-json' };
  await api.createNamespacedCustomObject({ group: target.group, version: target.version, namespace: 'default', plural: target.plural, body: playlist('cn-json') });
  const patched = (await api.patchNamespacedCustomObject(
    { ...target, body: [{ op: 'replace', path: '/spec/interval', value: '10m' }] },
    lib.setHeaderOptions('Content-Type', lib.PatchStrategy.JsonPatch),
  )) as Playlist;
  expect(patched.spec.interval).toBe('10m');
  await expect(
    api.patchNamespacedCustomObject(
      { ...target, body: [{ op: 'test', path: '/spec/interval', value: '1h' }, { op: 'replace', path: '/spec/title', value: 'never' }] },
      lib.setHeaderOptions('Content-Type', lib.PatchStrategy.JsonPatch),
    ),
  ).rejects.toMatchObject({ code: 422 });
  expect(((await api.getNamespacedCustomObject(target)) as Playlist).spec.title).toBe('cn-json');
});

test('server-side apply: create on apply, a conflict naming the other manager, and force', async () => {
  const api = lib.KubernetesObjectApi.makeApiClient(kc);
  const applied = (await api.patch(playlist('cn-apply', { title: 'mine' }), undefined, undefined, 'alice', undefined, lib.PatchStrategy.ServerSideApply)) as Playlist;
  expect(applied.spec.title).toBe('mine');
  expect(applied.metadata?.managedFields?.map((m) => [m.manager, m.operation])).toEqual([['alice', 'Apply']]);

  const conflict = await api
    .patch(playlist('cn-apply', { title: 'theirs' }), undefined, undefined, 'bob', false, lib.PatchStrategy.ServerSideApply)
    .then(() => undefined, (err: { code?: number; body?: string }) => err);
  expect(conflict?.code).toBe(409);
  expect(String(conflict?.body)).toContain('conflict with \\"alice\\"');
  expect(String(conflict?.body)).toContain('.spec.title');

  const forced = (await api.patch(playlist('cn-apply', { title: 'theirs' }), undefined, undefined, 'bob', true, lib.PatchStrategy.ServerSideApply)) as Playlist;
  expect(forced.spec.title).toBe('theirs');
  expect(forced.metadata?.managedFields?.find((m) => m.manager === 'bob')?.operation).toBe('Apply');
});

test('an informer lists, then sees adds, updates and deletes through its watch', async () => {
  const api = kc.makeApiClient(lib.CustomObjectsApi);
  const gvr = { group: 'playlist.svc.app', version: 'v1', namespace: 'default', plural: 'playlists' };
  await api.createNamespacedCustomObject({ ...gvr, body: playlist('inf-before') });
  const informer = lib.makeInformer<k8s.KubernetesObject>(
    kc,
    PLAYLISTS_PATH,
    () => api.listNamespacedCustomObject(gvr) as Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>,
  );
  const seen: string[] = [];
  const waitFor = async (entry: string) => {
    for (let i = 0; i < 100 && !seen.includes(entry); i++) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toContain(entry);
  };
  informer.on(lib.ADD, (o) => seen.push(`add ${o.metadata?.name}`));
  informer.on(lib.UPDATE, (o) => seen.push(`update ${o.metadata?.name}`));
  informer.on(lib.DELETE, (o) => seen.push(`delete ${o.metadata?.name}`));
  await informer.start();
  try {
    await waitFor('add inf-before');
    await api.createNamespacedCustomObject({ ...gvr, body: playlist('inf-live') });
    await waitFor('add inf-live');
    await api.patchNamespacedCustomObject(
      { ...gvr, name: 'inf-live', body: { spec: { title: 'changed' } } },
      lib.setHeaderOptions('Content-Type', lib.PatchStrategy.MergePatch),
    );
    await waitFor('update inf-live');
    await api.deleteNamespacedCustomObject({ ...gvr, name: 'inf-live' });
    await waitFor('delete inf-live');
    expect(informer.list().map((o) => o.metadata?.name)).toContain('inf-before');
    expect(informer.get('inf-live', 'default')).toBeUndefined();
  } finally {
    await informer.stop();
  }
});

test('an informer of all namespaces sees adds, updates and deletes in every organization of the caller', async () => {
  const org = await adminPost('/api/orgs', { name: 'Informed' });
  const other = `org-${(org as { orgId: number }).orgId}`;
  const api = kc.makeApiClient(lib.CustomObjectsApi);
  const gvr = { group: 'playlist.svc.app', version: 'v1', plural: 'playlists' };
  const informer = lib.makeInformer<k8s.KubernetesObject>(
    kc,
    '/apis/playlist.svc.app/v1/playlists',
    () => api.listClusterCustomObject(gvr) as Promise<k8s.KubernetesListObject<k8s.KubernetesObject>>,
  );
  const seen: string[] = [];
  const waitFor = async (entry: string) => {
    for (let i = 0; i < 200 && !seen.includes(entry); i++) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toContain(entry);
  };
  const key = (o: k8s.KubernetesObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
  informer.on(lib.ADD, (o) => seen.push(`add ${key(o)}`));
  informer.on(lib.UPDATE, (o) => seen.push(`update ${key(o)}`));
  informer.on(lib.DELETE, (o) => seen.push(`delete ${key(o)}`));
  await informer.start();
  try {
    await api.createNamespacedCustomObject({ ...gvr, namespace: 'default', body: playlist('all-near') });
    await api.createNamespacedCustomObject({ ...gvr, namespace: other, body: { ...playlist('all-far'), metadata: { name: 'all-far', namespace: other } } });
    await waitFor(`add ${other}/all-far`);
    await waitFor('add default/all-near');
    await api.patchNamespacedCustomObject(
      { ...gvr, namespace: other, name: 'all-far', body: { spec: { title: 'changed' } } },
      lib.setHeaderOptions('Content-Type', lib.PatchStrategy.MergePatch),
    );
    await waitFor(`update ${other}/all-far`);
    await api.deleteNamespacedCustomObject({ ...gvr, namespace: other, name: 'all-far' });
    await api.deleteNamespacedCustomObject({ ...gvr, namespace: 'default', name: 'all-near' });
    await waitFor(`delete ${other}/all-far`);
    await waitFor('delete default/all-near');
    expect(informer.get('all-far', other)).toBeUndefined();
  } finally {
    await informer.stop();
  }
});

test('a watch from a resourceVersion history no longer holds gets the 410 ERROR event informers re-list on', async () => {
  const api = kc.makeApiClient(lib.CustomObjectsApi);
  const gvr = { group: 'playlist.svc.app', version: 'v1', namespace: 'default', plural: 'playlists' };
  const list = (await api.listNamespacedCustomObject(gvr)) as { metadata: { resourceVersion: string } };
  const old = list.metadata.resourceVersion;
  await api.createNamespacedCustomObject({ ...gvr, body: playlist('after-old') });
  const type = { group: 'playlist.svc.app', resource: 'playlists' };
  await storage.compact(type, (await storage.versions(type)).current + 1, { keepSuperseded: false });

  const events: { phase: string; obj: { code?: number; reason?: string } }[] = [];
  const ended = new Promise<void>((resolve) => {
    void new lib.Watch(kc).watch(PLAYLISTS_PATH, { resourceVersion: old }, (phase, obj) => events.push({ phase, obj }), () => resolve());
  });
  await ended;
  expect(events).toEqual([{ phase: 'ERROR', obj: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) }]);
});
