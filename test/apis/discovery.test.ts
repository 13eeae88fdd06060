/**
 * Discovery through HTTP, in the shapes kube's e2e suites check (test/e2e/apimachinery/discovery.go,
 * aggregated_discovery.go), on the whole app: the discovery routers mounted as the lead wires them (version
 * public, the rest behind basic auth, before the /apis resource routes), in front of createApp's app.
 */
import express from 'express';
import supertest from 'supertest';
import { z } from 'zod';
import { allKinds } from '../../apis';
import { basicAuth } from '../../pkg/auth/authentication/basic-auth';
import { silentLogger } from '../../pkg/log';
import type { KindRegistration } from '../../pkg/meta';
import { discoveryRouter, storageVersionHash, versionRouter } from '../../pkg/server/discovery';
import { errorHandler } from '../../pkg/server/render-error';
import { ADMIN, startTestApp, type TestApp } from '../support/app';

const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const AGGREGATED_V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
// What client-go's discovery client sends (discovery_client.go acceptDiscoveryFormats).
const CLIENT_GO_ACCEPT = `${AGGREGATED_V2},${AGGREGATED_V2BETA1};q=0.9,application/json;q=0.8`;

const dashboards = allKinds.find((k) => k.plural === 'dashboards')!;
const subresources = [{ kind: dashboards, name: 'dto' }];
const experimental: KindRegistration = {
  group: 'gadget.svc.app',
  version: 'v0alpha1',
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  specSchema: z.looseObject({}),
  deleteResponse: 'status',
};

let t: TestApp;
let api: ReturnType<typeof supertest>;

function assemble(enabledAlpha?: (g: string, v: string) => boolean) {
  const outer = express();
  outer.use(versionRouter({ version: '0.1.0', commit: 'abc' }));
  outer.use(['/apis', '/api'], basicAuth({ user: ADMIN.user, password: ADMIN.password }));
  outer.use(discoveryRouter({ kinds: [...allKinds, experimental], subresources, enabledAlpha }));
  outer.use(t.app);
  outer.use(errorHandler(silentLogger));
  return supertest(outer);
}

const get = (path: string, accept?: string) => {
  const r = api.get(path).auth(ADMIN.user, ADMIN.password);
  return accept ? r.set('Accept', accept) : r;
};

beforeAll(async () => {
  t = await startTestApp();
  api = assemble();
});
afterAll(() => t.close());

test('/version is public and a version.Info of Kubernetes 1.32', async () => {
  const res = await api.get('/version?timeout=5s');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ major: '1', minor: '32', gitVersion: 'v1.32.0-svc.0.1.0', gitCommit: 'abc' });
});

test('discovery needs credentials, as the API does', async () => {
  expect((await api.get('/apis')).status).toBe(401);
  expect((await api.get('/apis/folder.svc.app/v1beta1')).status).toBe(401);
});

test('/api is a 404 Status (no core group; kubectl tolerates it), whatever is accepted', async () => {
  for (const accept of [undefined, CLIENT_GO_ACCEPT]) {
    const res = await get('/api', accept);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
  }
});

test('every APIGroup of /apis/ answers at /apis/<group>/ with a PreferredVersion among its versions (discovery.go)', async () => {
  const list = await get('/apis/');
  expect(list.status).toBe(200);
  expect(list.headers['content-type']).toMatch(/^application\/json/);
  expect(list.body).toMatchObject({ kind: 'APIGroupList', apiVersion: 'v1' });
  expect(list.body.groups.map((g: { name: string }) => g.name)).toEqual([...new Set(allKinds.map((k) => k.group))]);
  for (const group of list.body.groups) {
    const res = await get(`/apis/${group.name}/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ kind: 'APIGroup', apiVersion: 'v1', ...group });
    expect(res.body.versions.length).toBeGreaterThan(0);
    expect(res.body.versions.map((v: { groupVersion: string }) => v.groupVersion)).toContain(res.body.preferredVersion.groupVersion);
  }
});

test('every kind is in the APIResourceList of its group-version, and the lists tell the truth', async () => {
  const created = await t.as
    .post('/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards')
    .send({ metadata: { name: 'disco' }, spec: { title: 'Disco' } });
  expect(created.status).toBe(201);
  for (const k of allKinds) {
    const res = await get(`/apis/${k.group}/${k.version}`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('APIResourceList');
    expect(res.body.apiVersion).toBe('v1');
    expect(res.body.groupVersion).toBe(`${k.group}/${k.version}`);
    const r = res.body.resources.find((x: { name: string }) => x.name === k.plural);
    expect(r).toEqual({
      name: k.plural,
      singularName: k.singular,
      namespaced: true,
      kind: k.kind,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      ...(k.shortNames ? { shortNames: k.shortNames } : {}),
      ...(k.categories ? { categories: k.categories } : {}),
      storageVersionHash: storageVersionHash(k.group, k.version, k.kind),
    });
    // The resource named there answers list.
    expect((await t.as.get(`/apis/${k.group}/${k.version}/namespaces/default/${k.plural}`)).status).toBe(200);
  }
  const dash = await get('/apis/dashboard.svc.app/v1beta1');
  expect(dash.body.resources.find((x: { name: string }) => x.name === 'dashboards/dto')).toEqual({ name: 'dashboards/dto', singularName: '', namespaced: true, kind: 'Dashboard', verbs: ['get'] });
  expect((await t.as.get('/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards/disco/dto')).status).toBe(200);
});

test('aggregated discovery v2 and v2beta1 on request, with their Content-Type, Vary and an ETag', async () => {
  for (const [accept, type, apiVersion] of [
    [AGGREGATED_V2, AGGREGATED_V2, 'apidiscovery.k8s.io/v2'],
    [CLIENT_GO_ACCEPT, AGGREGATED_V2, 'apidiscovery.k8s.io/v2'],
    [`${AGGREGATED_V2BETA1},application/json;q=0.5`, AGGREGATED_V2BETA1, 'apidiscovery.k8s.io/v2beta1'],
  ]) {
    const res = await get('/apis', accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion });
    // isGVRPresentAPIDiscovery of aggregated_discovery.go, for every kind.
    for (const k of allKinds) {
      const group = body.items.find((g: { metadata: { name: string } }) => g.metadata.name === k.group);
      const version = group.versions.find((v: { version: string }) => v.version === k.version);
      const resource = version.resources.find((r: { resource: string }) => r.resource === k.plural);
      expect(resource).toMatchObject({ responseKind: { group: k.group, version: k.version, kind: k.kind }, scope: 'Namespaced', singularResource: k.singular });
      expect(version.freshness).toBe('Current');
    }
    const dash = body.items.find((g: { metadata: { name: string } }) => g.metadata.name === 'dashboard.svc.app').versions[0].resources[0];
    expect(dash.subresources).toEqual([{ subresource: 'dto', responseKind: { group: 'dashboard.svc.app', version: 'v1beta1', kind: 'Dashboard' }, verbs: ['get'] }]);
  }
  const plain = await get('/apis', 'application/json');
  expect(plain.body.kind).toBe('APIGroupList');
  const again = await get('/apis', AGGREGATED_V2).set('If-None-Match', (await get('/apis', AGGREGATED_V2)).headers.etag);
  expect(again.status).toBe(304);
});

test('an Accept header this server cannot satisfy is 406 NotAcceptable', async () => {
  const res = await get('/apis', 'application/vnd.kubernetes.protobuf');
  expect(res.status).toBe(406);
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  expect((await get('/apis/folder.svc.app/v1beta1', 'application/vnd.kubernetes.protobuf')).status).toBe(406);
  // Kube's discovery clients always offer plain JSON as well.
  expect((await get('/apis/folder.svc.app/v1beta1', 'application/vnd.kubernetes.protobuf,application/json')).status).toBe(200);
});

test('unknown groups and versions are 404 Status', async () => {
  for (const path of ['/apis/nope.svc.app', '/apis/nope.svc.app/v1', '/apis/folder.svc.app/v9', '/apis/playlist.svc.app/v1beta1']) {
    const res = await get(path);
    expect([path, res.status]).toEqual([path, 404]);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
  }
});

test('an alpha version is listed only when enabled', async () => {
  const listed = async (a: ReturnType<typeof supertest>) => {
    const groups = (await a.get('/apis').auth(ADMIN.user, ADMIN.password)).body.groups.map((g: { name: string }) => g.name);
    const agg = JSON.parse((await a.get('/apis').auth(ADMIN.user, ADMIN.password).set('Accept', AGGREGATED_V2)).text);
    const version = (await a.get('/apis/gadget.svc.app/v0alpha1').auth(ADMIN.user, ADMIN.password)).status;
    return { groups: groups.includes('gadget.svc.app'), aggregated: agg.items.some((g: { metadata: { name: string } }) => g.metadata.name === 'gadget.svc.app'), version };
  };
  expect(await listed(api)).toEqual({ groups: false, aggregated: false, version: 404 });
  expect(await listed(assemble((g, v) => g === 'gadget.svc.app' && v === 'v0alpha1'))).toEqual({ groups: true, aggregated: true, version: 200 });
});

test('the resource routes behind discovery still answer', async () => {
  expect((await t.as.get('/apis/playlist.svc.app/v1/namespaces/default/playlists')).status).toBe(200);
  const res = await get('/apis/playlist.svc.app/v1/namespaces/default/playlists');
  expect(res.status).toBe(200);
  expect(res.body.kind).toBe('PlaylistList');
});
