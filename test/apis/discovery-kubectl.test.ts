/**
 * kubectl itself against the server: discovery, OpenAPI v3 and Table output as kubectl 1.27+ uses them, with no
 * --validate=false. kubectl sends credentials only over TLS, so the app is served over HTTPS with a throw-away
 * self-signed certificate. The routers are mounted as the lead wires them; GETs of the resource routes go
 * through a router that negotiates Tables as the wired apis-router will.
 * Skipped (with the reason in its name) where kubectl >= 1.27 or openssl is not installed.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import express, { Router } from 'express';
import { allKinds } from '../../apis';
import { basicAuth } from '../../pkg/auth/authentication/basic-auth';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { StatusError } from '../../pkg/errors';
import { silentLogger } from '../../pkg/log';
import type { RequestContext } from '../../pkg/registry';
import { discoveryRouter, versionRouter } from '../../pkg/server/discovery';
import { negotiate } from '../../pkg/server/negotiate';
import { apisOpenApiRouter } from '../../pkg/server/openapi';
import { errorHandler } from '../../pkg/server/render-error';
import { sendNegotiated } from '../../pkg/server/table';
import { ADMIN, startTestApp, type TestApp } from '../support/app';

const run = promisify(execFile);

function kubectlMinor(): number | undefined {
  try {
    const out = JSON.parse(execFileSync('kubectl', ['version', '--client', '-o', 'json'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
    return Number(String(out.clientVersion.minor).replace(/\D.*$/, ''));
  } catch {
    return undefined;
  }
}
function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const minor = kubectlMinor();
const usable = minor !== undefined && minor >= 27 && hasOpenssl();
const describeKubectl = usable ? describe : describe.skip;
const title = usable ? `kubectl 1.${minor}` : 'kubectl (skipped: needs kubectl >= 1.27 and openssl on PATH)';

describeKubectl(title, () => {
  let t: TestApp;
  let server: https.Server;
  let dir: string;
  let cacheDir: string;
  const seen: { method: string; url: string; accept: string }[] = [];

  const kubectl = async (...args: string[]) => {
    const { stdout } = await run('kubectl', ['--kubeconfig', path.join(dir, 'kubeconfig'), '--cache-dir', cacheDir, '-n', 'default', ...args], { timeout: 20000 });
    return stdout;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubectl-'));
    cacheDir = path.join(dir, 'cache');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    t = await startTestApp();

    const dashboards = allKinds.find((k) => k.plural === 'dashboards')!;
    const subresources = [{ kind: dashboards, name: 'dto' }];
    const tables = Router();
    const base = '/apis/:group/:version/namespaces/:namespace/:resource';
    const resolve = (req: express.Request) => {
      const { group, version, namespace, resource } = req.params as Record<string, string>;
      const kind = t.registry.find(group, version, resource);
      if (!kind) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
      const ctx: RequestContext = { requester: { identity: req.user!.identity }, namespace, fieldManager: 'kubectl' };
      return { kind, ctx };
    };
    tables.get(base, async (req, res, next) => {
      if (req.query.watch) return next();
      const { kind, ctx } = resolve(req);
      const how = negotiate(req);
      const limit = typeof req.query.limit === 'string' ? Number(req.query.limit) : undefined;
      sendNegotiated(res, how, kind, await t.registry.list(ctx, kind, { limit, labelSelector: req.query.labelSelector as string | undefined, fieldSelector: req.query.fieldSelector as string | undefined }));
    });
    tables.get(`${base}/:name`, async (req, res) => {
      const { kind, ctx } = resolve(req);
      sendNegotiated(res, negotiate(req), kind, await t.registry.get(ctx, kind, req.params.name as string));
    });

    const app = express();
    app.use((req, _res, next) => {
      seen.push({ method: req.method, url: req.originalUrl, accept: req.get('accept') ?? '' });
      next();
    });
    app.use(versionRouter({ version: '0.1.0', commit: 'abc' }));
    app.use(['/apis', '/api', '/openapi'], basicAuth({ user: ADMIN.user, password: ADMIN.password }));
    app.use(discoveryRouter({ kinds: allKinds, subresources }));
    app.use(apisOpenApiRouter({ kinds: allKinds, subresources }));
    app.use(tables);
    app.use(t.app);
    app.use(errorHandler(silentLogger));
    server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    fs.writeFileSync(
      path.join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'svc', cluster: { server: `https://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'admin', user: { username: ADMIN.user, password: ADMIN.password } }],
        contexts: [{ name: 'svc', context: { cluster: 'svc', user: 'admin', namespace: 'default' } }],
        'current-context': 'svc',
      }),
    );
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('version, api-versions and api-resources come from discovery', async () => {
    const version = JSON.parse(await kubectl('version', '-o', 'json'));
    expect(version.serverVersion).toMatchObject({ major: '1', minor: '32', gitVersion: 'v1.32.0-svc.0.1.0' });
    expect((await kubectl('api-versions')).split('\n').filter(Boolean).sort()).toEqual([...new Set(allKinds.map((k) => `${k.group}/${k.version}`))].sort());
    const resources = await kubectl('api-resources', '--no-headers');
    for (const k of allKinds) expect(resources).toMatch(new RegExp(`^${k.plural}\\s+${k.group}/${k.version}\\s+true\\s+${k.kind}\\s*$`, 'm'));
    expect(await kubectl('api-resources', '--categories=svc', '-o', 'name')).toMatch(/dashboards\.dashboard\.svc\.app/);
  });

  test('create -f validates on the server (no --validate=false), get prints the server\'s Table', async () => {
    const file = path.join(dir, 'playlist.json');
    fs.writeFileSync(file, JSON.stringify({ apiVersion: 'playlist.svc.app/v1', kind: 'Playlist', metadata: { name: 'morning' }, spec: { title: 'Morning', interval: '5m', items: [] } }));
    seen.length = 0;
    expect(await kubectl('create', '-f', file)).toMatch(/playlist\.playlist\.svc\.app\/morning created/);
    // kubectl found fieldValidation on the PATCH operation of /openapi/v3, so it left validation to the server.
    expect(seen.find((r) => r.method === 'POST')?.url).toMatch(/[?&]fieldValidation=Strict/);
    expect(seen.some((r) => r.url.startsWith('/openapi/v2'))).toBe(false);
    seen.length = 0;
    const out = await kubectl('get', 'playlists');
    const [header, row] = out.trim().split('\n');
    expect(header.split(/\s+/)).toEqual(['NAME', 'TITLE', 'INTERVAL', 'AGE']);
    expect(row).toMatch(/^morning\s+Morning\s+5m\s+\d+s$/);
    expect(seen.find((r) => r.method === 'GET' && r.url.includes('/playlists'))?.accept).toMatch(/^application\/json;as=Table;v=v1;g=meta\.k8s\.io/);
    expect((await kubectl('get', 'playlist', 'morning', '--no-headers')).trim()).toMatch(/^morning\s+Morning\s+5m\s+\d+s$/);
    expect(await kubectl('get', 'playlists', '-o', 'name')).toBe('playlist.playlist.svc.app/morning\n');
    expect(await kubectl('get', 'playlists', '--show-labels')).toMatch(/LABELS/);
  });

  test('get -A lists across the namespaces of every organization the caller belongs to', async () => {
    const org = await t.users!.createOrg(SYSTEM, 'Across');
    await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
    const namespace = `org-${org.id}`;
    const res = await t.as.post(`/apis/dashboard.svc.app/v1beta1/namespaces/${namespace}/dashboards`).send({ metadata: { name: 'far' }, spec: { title: 'Far' } });
    expect(res.status).toBe(201);
    expect((await t.as.post('/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards').send({ metadata: { name: 'near' }, spec: { title: 'Near' } })).status).toBe(201);
    const [header, ...rows] = (await kubectl('get', 'dashboards', '-A')).trim().split('\n');
    expect(header.split(/\s+/)).toEqual(['NAMESPACE', 'NAME', 'TITLE', 'AGE']);
    expect(rows.map((r) => r.split(/\s+/).slice(0, 2))).toEqual(expect.arrayContaining([['default', 'near'], [namespace, 'far']]));
    expect(await kubectl('get', 'dashboards', '-A', '-o', 'name', '--chunk-size=1')).toMatch(/dashboard\.dashboard\.svc\.app\/far/);
  });

  test('get -A --watch streams the changes of every organization the caller belongs to', async () => {
    const org = await t.users!.createOrg(SYSTEM, 'Watched');
    await t.users!.setRole(SYSTEM, org.id, 1, 'Admin');
    const namespace = `org-${org.id}`;
    const dashboards = (n: string) => `/apis/dashboard.svc.app/v1beta1/namespaces/${n}/dashboards`;
    expect((await t.as.post(dashboards('default')).send({ metadata: { name: 'w-before' }, spec: { title: 'Before' } })).status).toBe(201);
    const child = spawn('kubectl', ['--kubeconfig', path.join(dir, 'kubeconfig'), '--cache-dir', cacheDir, 'get', 'dashboards', '-A', '--watch', '--output-watch-events']);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const rows = () => out.split('\n').map((l) => l.split(/\s+/).slice(0, 3).join(' '));
    const shows = async (row: string) => {
      for (let waited = 0; !rows().includes(row); waited += 50) {
        if (waited > 20_000) throw new Error(`kubectl never printed ${row}:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      // The list first (each object an ADDED row), then the watch from its resourceVersion.
      await shows('ADDED default w-before');
      expect(out.split('\n')[0].split(/\s+/)).toEqual(['EVENT', 'NAMESPACE', 'NAME', 'TITLE', 'AGE']);
      expect((await t.as.post(dashboards(namespace)).send({ metadata: { name: 'w-far' }, spec: { title: 'Far' } })).status).toBe(201);
      expect((await t.as.post(dashboards('default')).send({ metadata: { name: 'w-near' }, spec: { title: 'Near' } })).status).toBe(201);
      const patched = await t.as.patch(`${dashboards(namespace)}/w-far`).set('Content-Type', 'application/merge-patch+json').send({ spec: { title: 'Farther' } });
      expect(patched.status).toBe(200);
      expect((await t.as.delete(`${dashboards('default')}/w-near`)).status).toBe(200);
      await shows('DELETED default w-near');
      const watched = rows().filter((r) => /^(ADDED|MODIFIED|DELETED) \S+ w-(far|near)$/.test(r));
      expect(watched).toEqual([`ADDED ${namespace} w-far`, 'ADDED default w-near', `MODIFIED ${namespace} w-far`, 'DELETED default w-near']);
      expect(out).toMatch(new RegExp(`MODIFIED\\s+${namespace}\\s+w-far\\s+Farther`));
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((r) => child.once('close', r));
        child.kill();
        await closed;
      }
    }
  });

  test('a dashboard of any JSON is accepted by kubectl\'s validation', async () => {
    const file = path.join(dir, 'dashboard.json');
    const spec = { title: 'Any', panels: [{ type: 'timeseries', gridPos: { h: 8, w: 12, x: 0, y: 0 }, whatever: { deep: [1, 'two'] } }], madeUp: true };
    fs.writeFileSync(file, JSON.stringify({ apiVersion: 'dashboard.svc.app/v1beta1', kind: 'Dashboard', metadata: { name: 'any' }, spec }));
    expect(await kubectl('create', '-f', file)).toMatch(/dashboard\.dashboard\.svc\.app\/any created/);
    expect(JSON.parse(await kubectl('get', 'dashboard', 'any', '-o', 'json')).spec).toMatchObject(spec);
  });

  test('apply (client-side, merge patches), label and delete work as on kube-apiserver', async () => {
    const file = path.join(dir, 'folder.json');
    const folder = (t: string) => JSON.stringify({ apiVersion: 'folder.svc.app/v1beta1', kind: 'Folder', metadata: { name: 'ops' }, spec: { title: t } });
    fs.writeFileSync(file, folder('Ops'));
    expect(await kubectl('apply', '-f', file)).toMatch(/folder\.folder\.svc\.app\/ops created/);
    fs.writeFileSync(file, folder('Operations'));
    seen.length = 0;
    expect(await kubectl('apply', '-f', file)).toMatch(/folder\.folder\.svc\.app\/ops configured/);
    expect(seen.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect((await kubectl('get', 'folder', 'ops', '--no-headers')).trim()).toMatch(/^ops\s+Operations\s+\d+s$/);
    expect(await kubectl('label', 'folder', 'ops', 'team=a')).toMatch(/labeled/);
    expect(await kubectl('get', 'folders', '-l', 'team=a', '-o', 'name')).toBe('folder.folder.svc.app/ops\n');
    expect(await kubectl('delete', '-f', file)).toMatch(/folder\.folder\.svc\.app "ops" deleted/);
    expect(await kubectl('get', 'folders', '-o', 'name')).toBe('');
  });

  test('explain reads the OpenAPI v3 documents', async () => {
    const out = await kubectl('explain', 'dashboards.spec');
    expect(out).toMatch(/KIND:\s+Dashboard/);
    expect(out).toMatch(/GROUP:\s+dashboard\.svc\.app/);
    expect(out).toMatch(/VERSION:\s+v1beta1/);
    expect(out).toMatch(/title\s+<string> -required-/);
    expect(await kubectl('explain', 'playlists.spec.items')).toMatch(/type\s+<string> -required-/);
  });
});
