/**
 * Kubernetes clients against the server over HTTPS, with the self-signed certificate as the cluster's authority:
 * @kubernetes/client-node always, kubectl when it is installed, each with basic auth (admin/admin) and with a
 * service-account token as `Authorization: Bearer` (the kubeconfig's `token:`, kubectl's `--token`). The service
 * account and its token are made through the HTTP API, as the README shows.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { loadConfig } from '../../pkg/config';
import { silentLogger } from '../../pkg/log';
import { type RunningServer, startServer } from '../../pkg/server/server';
import { openStorage } from '../../storage';
import { createTestDatabase, type TestDatabase } from '../support/backend';

/**
 * @kubernetes/client-node 1.x is ESM only, and ts-jest turns `import()` into `require()`: an indirect eval keeps
 * a real dynamic import, which jest runs with --experimental-vm-modules (npm test sets it).
 */
const importEsm = (0, eval)('(specifier) => import(specifier)') as (specifier: string) => Promise<unknown>;

const FOLDERS = { group: 'folder.svc.app', version: 'v1beta1', plural: 'folders' };
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

let data: string;
let db: TestDatabase;
let server: RunningServer;
let kubeconfig: string;
/** The service account (an Editor of org 1) the kubeconfig's `robot` user is, and its token. */
let robot: { uid: string; key: string };

beforeAll(async () => {
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-https-clients-'));
  db = await createTestDatabase();
  const storage = await openStorage({ url: db.url, dataDir: '', inMemory: true, maxConnections: 5 });
  const config = loadConfig({ argv: ['--server.protocol=https', '--server.http_addr=127.0.0.1', '--server.http_port=0', `--paths.data=${data}`], env: {} });
  server = await startServer(config, silentLogger, { storage });
  // What the README tells a user to write: the self-signed certificate as certificate-authority-data.
  const ca = fs.readFileSync(path.join(data, 'tls', 'server.crt')).toString('base64');
  kubeconfig = path.join(data, 'kubeconfig');
  robot = await serviceAccountToken('robot', 'Editor');
  fs.writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: dashboards',
      '  cluster:',
      `    server: ${server.url}`,
      `    certificate-authority-data: ${ca}`,
      'users:',
      '- name: admin',
      '  user:',
      '    username: admin',
      '    password: admin',
      '- name: robot',
      '  user:',
      `    token: ${robot.key}`,
      '- name: nobody',
      '  user: {}',
      'contexts:',
      '- name: dashboards',
      '  context: {cluster: dashboards, user: admin, namespace: default}',
      '- name: robot',
      '  context: {cluster: dashboards, user: robot, namespace: default}',
      '- name: nobody',
      '  context: {cluster: dashboards, user: nobody, namespace: default}',
      'current-context: dashboards',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server?.close();
  await db?.drop();
  fs.rmSync(data, { recursive: true, force: true });
});

test('@kubernetes/client-node lists and creates folders through CustomObjectsApi over https with basic auth', async () => {
  const { KubeConfig, CustomObjectsApi } = (await importEsm('@kubernetes/client-node')) as typeof k8s;
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  expect(kc.getCurrentCluster()!.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const api = kc.makeApiClient(CustomObjectsApi);

  const created = await api.createNamespacedCustomObject({
    ...FOLDERS,
    namespace: 'default',
    body: { apiVersion: 'folder.svc.app/v1beta1', kind: 'Folder', metadata: { name: 'from-client-node' }, spec: { title: 'From client-node' } },
  });
  expect(created).toMatchObject({ kind: 'Folder', metadata: { name: 'from-client-node', namespace: 'default', annotations: { 'svc.app/createdBy': 'user:admin' } } });

  const list = (await api.listNamespacedCustomObject({ ...FOLDERS, namespace: 'default' })) as { kind: string; items: Array<{ metadata: { name: string } }> };
  expect(list.kind).toBe('FolderList');
  expect(list.items.map((f) => f.metadata.name)).toContain('from-client-node');

  // Wrong credentials are refused: the client did send the kubeconfig's user, and the server checks it.
  const wrong = new KubeConfig();
  wrong.loadFromString(fs.readFileSync(kubeconfig, 'utf8').replace('password: admin', 'password: wrong'));
  await expect(wrong.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ ...FOLDERS, namespace: 'default' })).rejects.toMatchObject({ code: 401 });
});

test('@kubernetes/client-node authenticates with a service-account token from the kubeconfig over https', async () => {
  const { KubeConfig, CustomObjectsApi } = (await importEsm('@kubernetes/client-node')) as typeof k8s;
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  kc.setCurrentContext('robot');
  expect(kc.getCurrentUser()!.token).toMatch(/^svcsa_/);
  const api = kc.makeApiClient(CustomObjectsApi);

  const created = await api.createNamespacedCustomObject({
    ...FOLDERS,
    namespace: 'default',
    body: { apiVersion: 'folder.svc.app/v1beta1', kind: 'Folder', metadata: { name: 'from-robot' }, spec: { title: 'From a service account' } },
  });
  expect(created).toMatchObject({ metadata: { name: 'from-robot', annotations: { 'svc.app/createdBy': `service-account:${robot.uid}` } } });
  const list = (await api.listNamespacedCustomObject({ ...FOLDERS, namespace: 'default' })) as { items: Array<{ metadata: { name: string } }> };
  expect(list.items.map((f) => f.metadata.name)).toContain('from-robot');

  // A token the server never issued, and one it revoked, are refused.
  const forged = new KubeConfig();
  forged.loadFromString(fs.readFileSync(kubeconfig, 'utf8').replace(robot.key, `svcsa_${'x'.repeat(32)}_00000000`));
  forged.setCurrentContext('robot');
  await expect(forged.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ ...FOLDERS, namespace: 'default' })).rejects.toMatchObject({ code: 401 });
  const revocable = await serviceAccountToken('revocable', 'Viewer');
  const withRevocable = new KubeConfig();
  withRevocable.loadFromString(fs.readFileSync(kubeconfig, 'utf8').replace(robot.key, revocable.key));
  withRevocable.setCurrentContext('robot');
  const client = withRevocable.makeApiClient(CustomObjectsApi);
  await expect(client.listNamespacedCustomObject({ ...FOLDERS, namespace: 'default' })).resolves.toMatchObject({ kind: 'FolderList' });
  const search = await requestJson('GET', '/api/serviceaccounts/search?query=revocable');
  const id = (search.body.serviceAccounts as Array<{ id: number }>)[0].id;
  const [token] = (await requestJson('GET', `/api/serviceaccounts/${id}/tokens`)).body as unknown as Array<{ id: number }>;
  expect((await requestJson('DELETE', `/api/serviceaccounts/${id}/tokens/${token.id}`)).status).toBe(200);
  await expect(client.listNamespacedCustomObject({ ...FOLDERS, namespace: 'default' })).rejects.toMatchObject({ code: 401 });
});

/** A request as admin over https, trusting only the self-signed certificate: the status code and the JSON body. */
function requestJson(method: string, p: string, body?: unknown): Promise<{ status: number | undefined; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(p, server.url), {
      method,
      ca: fs.readFileSync(path.join(data, 'tls', 'server.crt')),
      auth: 'admin:admin',
      headers: { 'Content-Type': 'application/json' },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const postJson = async (p: string, body: unknown) => (await requestJson('POST', p, body)).status;

/** What the README tells a user to do: a service account of org 1 and a token of it, through the HTTP API. */
async function serviceAccountToken(name: string, role: string): Promise<{ uid: string; key: string }> {
  const sa = await requestJson('POST', '/api/serviceaccounts', { name, role });
  expect(sa.status).toBe(201);
  const token = await requestJson('POST', `/api/serviceaccounts/${sa.body.id}/tokens`, { name: `${name}-kubeconfig` });
  expect(token.status).toBe(200);
  return { uid: sa.body.uid as string, key: token.body.key as string };
}

/** kubectl with the test's kubeconfig, asynchronously: the server answers from this same process. */
function kubectl(args: string[], input?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, ...args], { env: { PATH: process.env.PATH ?? '', HOME: data } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

const maybe = hasKubectl ? test : test.skip;
maybe(
  hasKubectl ? 'kubectl get --raw lists folders over https with basic auth' : 'kubectl get --raw lists folders over https with basic auth (skipped: kubectl is not on PATH)',
  async () => {
    // Created over https by a plain Node client: `kubectl create --raw` sends no Content-Type, which /apis refuses so far.
    expect(await postJson('/apis/folder.svc.app/v1beta1/namespaces/default/folders', { metadata: { name: 'for-kubectl' }, spec: { title: 'For kubectl' } })).toBe(201);

    const listed = await kubectl(['get', '--raw', '/apis/folder.svc.app/v1beta1/namespaces/default/folders']);
    expect(listed).toMatchObject({ status: 0, stderr: '' });
    const list = JSON.parse(listed.stdout) as { kind: string; items: Array<{ metadata: { name: string } }> };
    expect(list.kind).toBe('FolderList');
    expect(list.items.map((f) => f.metadata.name)).toContain('for-kubectl');
  },
);

maybe(
  hasKubectl ? 'kubectl authenticates with a service-account token: the kubeconfig token and --token' : 'kubectl with a service-account token (skipped: kubectl is not on PATH)',
  async () => {
    expect(await postJson('/apis/folder.svc.app/v1beta1/namespaces/default/folders', { metadata: { name: 'for-robot' }, spec: { title: 'For the robot' } })).toBe(201);

    // The kubeconfig's `token:`, through discovery and the OpenAPI document as `kubectl get` uses them.
    const got = await kubectl(['--context', 'robot', 'get', 'folders', '-o', 'name']);
    expect(got).toMatchObject({ status: 0, stderr: '' });
    expect(got.stdout.split('\n')).toContain('folder.folder.svc.app/for-robot');

    // --token with a user that has no credentials of its own.
    const raw = await kubectl(['--context', 'nobody', '--token', robot.key, 'get', '--raw', '/apis/folder.svc.app/v1beta1/namespaces/default/folders']);
    expect(raw).toMatchObject({ status: 0, stderr: '' });
    expect((JSON.parse(raw.stdout) as { items: Array<{ metadata: { name: string } }> }).items.map((f) => f.metadata.name)).toContain('for-robot');

    // Without credentials, or with a wrong token, the server says 401 and kubectl says so.
    const refused = await kubectl(['--context', 'nobody', '--token', `svcsa_${'y'.repeat(32)}_00000000`, 'get', '--raw', '/apis/folder.svc.app/v1beta1/namespaces/default/folders']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/Unauthorized/);
  },
);

maybe(
  hasKubectl ? "kubectl wait --for=delete with an Editor's token sees the deletion (a restricted watch from the list's resourceVersion)" : 'kubectl wait --for=delete (skipped: kubectl is not on PATH)',
  async () => {
    // Created by the admin at the root: Editors may edit it through its own permissions, which go with it.
    expect(await postJson('/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards', { metadata: { name: 'wait-me' }, spec: { title: 'Wait for me' } })).toBe(201);
    const child = spawn('kubectl', ['--kubeconfig', kubeconfig, '--context', 'robot', '-v=6', 'wait', '--for=delete', 'dashboards/wait-me', '--timeout=20s'], { env: { PATH: process.env.PATH ?? '', HOME: data } });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    // kubectl logs each request at -v=6: once its watch is answered, the deletion can only reach it through the watch.
    const watching = new Promise<void>((resolve) =>
      child.stderr.on('data', (d) => {
        stderr += d;
        if (/GET https:\S+dashboards\?\S*watch=true\S* 200 OK/.test(stderr)) resolve();
      }),
    );
    await Promise.race([watching, exited]);
    expect(stderr).toMatch(/resourceVersion=\d+/);
    expect((await requestJson('DELETE', '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards/wait-me')).status).toBe(200);
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/wait-me condition met/);
  },
);
