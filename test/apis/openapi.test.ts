/**
 * OpenAPI through HTTP: `/openapi/v3` for /apis, as kubectl (1.27+) reads it to validate on the server, choose a
 * patch type and explain fields; the legacy /api's Swagger 2.0, its generated OpenAPI 3 and the offline explorer.
 * The routers are mounted as the lead wires them, in front of createApp's app.
 */
import { createHash } from 'node:crypto';
import SwaggerParser from '@apidevtools/swagger-parser';
import express from 'express';
import supertest from 'supertest';
import { allKinds } from '../../apis';
import { basicAuth } from '../../pkg/auth/authentication/basic-auth';
import { silentLogger } from '../../pkg/log';
import { apisOpenApiRouter, legacyOpenApiRouter, legacyRoutes, swagger2ToOpenapi3 } from '../../pkg/server/openapi';
import { errorHandler } from '../../pkg/server/render-error';
import { ADMIN, startTestApp, type TestApp } from '../support/app';

const dashboards = allKinds.find((k) => k.plural === 'dashboards')!;

let t: TestApp;
let api: ReturnType<typeof supertest>;
const get = (path: string) => api.get(path).auth(ADMIN.user, ADMIN.password);

beforeAll(async () => {
  t = await startTestApp();
  const outer = express();
  outer.use(legacyOpenApiRouter({ version: '0.1.0' }));
  // createApp authenticates /apis and /api itself; the lead adds /openapi to its list.
  outer.use('/openapi', basicAuth({ user: ADMIN.user, password: ADMIN.password }));
  outer.use(apisOpenApiRouter({ kinds: allKinds, subresources: [{ kind: dashboards, name: 'dto' }], build: { version: '0.1.0', commit: 'abc' } }));
  outer.use(t.app);
  outer.use(errorHandler(silentLogger));
  api = supertest(outer);
});
afterAll(() => t.close());

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any>; parameters?: Record<string, any> } };

async function index(): Promise<Record<string, { serverRelativeURL: string }>> {
  const res = await get('/openapi/v3');
  expect(res.status).toBe(200);
  return res.body.paths;
}

async function gvDoc(gv: string): Promise<Doc> {
  const res = await get((await index())[gv].serverRelativeURL);
  expect(res.status).toBe(200);
  return JSON.parse(res.text);
}

test('the index lists every group-version, each URL with the SHA-512 of the document it serves', async () => {
  const paths = await index();
  expect(Object.keys(paths).sort()).toEqual([...new Set(allKinds.map((k) => `apis/${k.group}/${k.version}`))].sort());
  for (const [gv, { serverRelativeURL }] of Object.entries(paths)) {
    const m = /^\/openapi\/v3\/(.+)\?hash=([0-9A-F]{128})$/.exec(serverRelativeURL);
    expect(m?.[1]).toBe(gv);
    const res = await get(serverRelativeURL);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(createHash('sha512').update(res.text).digest('hex').toUpperCase()).toBe(m![2]);
    expect(res.headers.etag).toBe(`"${m![2]}"`);
    expect(res.headers['cache-control']).toBe('public, immutable');
    expect(new Date(res.headers.expires).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    expect(res.headers.vary).toMatch(/Accept/);
  }
});

test('caching as kube-openapi: no hash, no immutability; a stale hash redirects; If-None-Match is 304', async () => {
  const url = (await index())['apis/playlist.svc.app/v1'].serverRelativeURL;
  const plain = await get('/openapi/v3/apis/playlist.svc.app/v1');
  expect(plain.status).toBe(200);
  expect(plain.headers['cache-control']).toBeUndefined();
  const stale = await get('/openapi/v3/apis/playlist.svc.app/v1?hash=0123');
  expect(stale.status).toBe(301);
  expect(stale.headers.location).toBe(url);
  expect((await get(url).set('If-None-Match', plain.headers.etag)).status).toBe(304);
  const idx = await get('/openapi/v3');
  expect(idx.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
  expect((await get('/openapi/v3').set('If-None-Match', idx.headers.etag)).status).toBe(304);
});

test('only JSON is served (protobuf alone is 406); unknown group-versions and /openapi/v2 are 404', async () => {
  const url = (await index())['apis/playlist.svc.app/v1'].serverRelativeURL;
  expect((await get(url).set('Accept', 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf')).status).toBe(406);
  expect((await get(url).set('Accept', 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf, application/json')).status).toBe(200);
  expect((await get('/openapi/v3/apis/nope.svc.app/v1')).status).toBe(404);
  expect((await get('/openapi/v3/apis/folder.svc.app/v9')).status).toBe(404);
  const v2 = await get('/openapi/v2');
  expect(v2.status).toBe(404);
  expect(v2.body).toMatchObject({ kind: 'Status', code: 404 });
});

test('the documents need credentials, as the API does', async () => {
  expect((await api.get('/openapi/v3')).status).toBe(401);
});

test('every group-version document is valid OpenAPI 3.0', async () => {
  for (const gv of Object.keys(await index())) await SwaggerParser.validate((await gvDoc(gv)) as never);
});

/** kubectl's `supportsQueryParamV3` (k8s.io/kubectl/pkg/cmd/util/openapi... query_param_verifier_v3.go). */
function supportsQueryParamV3(doc: Doc, gvk: { group: string; version: string; kind: string }, param: string): boolean | 'no path' {
  for (const item of Object.values(doc.paths)) {
    const op = item.patch;
    if (!op) continue;
    const ext = op['x-kubernetes-group-version-kind'];
    if (!ext || ext.group !== gvk.group || ext.version !== gvk.version || ext.kind !== gvk.kind) continue;
    return (op.parameters ?? []).some((p: { name: string; in: string }) => p.name === param && p.in === 'query');
  }
  return 'no path';
}

test('kubectl validates on the server (fieldValidation), applies with merge patches, and finds each kind\'s schema', async () => {
  for (const k of allKinds) {
    const doc = await gvDoc(`apis/${k.group}/${k.version}`);
    const gvk = { group: k.group, version: k.version, kind: k.kind };
    expect(supportsQueryParamV3(doc, gvk, 'fieldValidation')).toBe(true);
    expect(supportsQueryParamV3(doc, gvk, 'dryRun')).toBe(true);
    // kubectl apply picks strategic merge patch only when the PATCH operation offers it (patcher.go gvkSupportsPatchOpenAPIV3).
    for (const item of Object.values(doc.paths)) {
      if (item.patch) expect(Object.keys(item.patch.requestBody.content)).not.toContain('application/strategic-merge-patch+json');
    }
    // kubectl explain looks the kind up by the GVK extension of the schemas: exactly one.
    const schemas = Object.values(doc.components.schemas).filter((s) =>
      (s['x-kubernetes-group-version-kind'] ?? []).some((x: { group: string; version: string; kind: string }) => x.group === k.group && x.version === k.version && x.kind === k.kind),
    );
    expect(schemas).toHaveLength(1);
    expect(schemas[0].properties.spec.type).toBe('object');
    expect(schemas[0].properties.metadata['x-kubernetes-preserve-unknown-fields']).toBe(true);
  }
  const dash = (await gvDoc('apis/dashboard.svc.app/v1beta1')).components.schemas['app.svc.dashboard.v1beta1.Dashboard'];
  // explain dashboards.spec: fields with types; any other dashboard JSON is kept.
  expect(dash.properties.spec.properties.title).toEqual({ type: 'string', maxLength: 5000 });
  expect(dash.properties.spec['x-kubernetes-preserve-unknown-fields']).toBe(true);
});

test('every documented path is served: list and get answer on the real server', async () => {
  const created = await t.as.post('/apis/playlist.svc.app/v1/namespaces/default/playlists').send({ metadata: { name: 'docs' }, spec: { title: 'Docs', interval: '5m' } });
  expect(created.status).toBe(201);
  await t.as.post('/apis/folder.svc.app/v1beta1/namespaces/default/folders').send({ metadata: { name: 'docs' }, spec: { title: 'Docs' } });
  await t.as.post('/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards').send({ metadata: { name: 'docs' }, spec: { title: 'Docs' } });
  await t.as.post('/apis/datasource.svc.app/v1beta1/namespaces/default/datasources').send({ metadata: { name: 'docs' }, spec: { name: 'Docs', type: 'svc-testdata-datasource' } });
  await t.as.post('/apis/correlation.svc.app/v1beta1/namespaces/default/correlations').send({ metadata: { name: 'docs' }, spec: { sourceUID: 'docs', config: { field: 'id', type: 'external', target: { url: 'https://example.com/${id}' } } } });
  await t.as.post('/apis/dashboard.svc.app/v1beta1/namespaces/default/snapshots').send({ metadata: { name: 'docs' }, spec: { name: 'Docs' } });
  await t.as.post('/apis/dashboard.svc.app/v1beta1/namespaces/default/librarypanels').send({ metadata: { name: 'docs' }, spec: { name: 'Docs', kind: 1, model: {} } });
  await t.as.post('/apis/publicdashboard.svc.app/v1/namespaces/default/publicdashboards').send({ metadata: { name: 'docs' }, spec: { dashboardUid: 'docs' } }).expect(201);
  // Annotations are named by their numeric id: the one made here.
  const annotation = await t.as.post('/apis/annotation.svc.app/v1beta1/namespaces/default/annotations').send({ spec: { text: 'Docs', time: 1700000000000, timeEnd: 1700000000000, tags: [] } });
  expect(annotation.status).toBe(201);
  for (const gv of Object.keys(await index())) {
    for (const [path, item] of Object.entries((await gvDoc(gv)).paths)) {
      if (!item.get) continue;
      const name = path.includes('/annotations/') ? (annotation.body.metadata.name as string) : 'docs';
      const url = path.replace('{namespace}', 'default').replace('{name}', name);
      expect([url, (await t.as.get(url)).status]).toEqual([url, 200]);
    }
  }
});

describe('legacy /api specification and explorer', () => {
  test('/swagger.json is valid Swagger 2.0 and /openapi3.json the valid OpenAPI 3 generated from it; no credentials needed', async () => {
    const v2 = await api.get('/swagger.json');
    const v3 = await api.get('/openapi3.json');
    expect([v2.status, v3.status]).toEqual([200, 200]);
    expect(v2.body.swagger).toBe('2.0');
    expect(v3.body.openapi).toBe('3.0.3');
    expect(v3.body).toEqual(swagger2ToOpenapi3(structuredClone(v2.body)));
    await SwaggerParser.validate(structuredClone(v2.body));
    await SwaggerParser.validate(structuredClone(v3.body));
    expect(v2.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
    // Where the anchor serves them too.
    expect((await api.get('/public/openapi3.json')).text).toBe(v3.text);
    expect((await api.get('/public/api-merged.json')).text).toBe(v2.text);
  });

  test('every documented legacy route is served, answering one of its documented status codes', async () => {
    for (const r of legacyRoutes) {
      if (r.method !== 'get' || r.path.includes(':')) continue;
      const req = api.get(r.path);
      const res = r.authenticated === false ? await req : await req.auth(ADMIN.user, ADMIN.password);
      expect([r.path, Object.keys(r.responses)]).toEqual([r.path, expect.arrayContaining([String(res.status)])]);
    }
    const health = await api.get('/api/health');
    expect(health.body).toEqual({ database: 'ok', version: 'test', commit: 'test' });
  });

  test('/swagger/ is swagger-ui, served offline from the package, showing both documents', async () => {
    const redirect = await api.get('/swagger');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('swagger/');
    const page = await api.get('/swagger/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const assets = [...page.text.matchAll(/(?:href|src)="\.\/([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(expect.arrayContaining(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-initializer.js']));
    for (const a of assets) {
      const res = await api.get(`/swagger/${a}`);
      expect([a, res.status]).toEqual([a, 200]);
      expect(res.headers['content-type']).toMatch(a.endsWith('.css') ? /^text\/css/ : a.endsWith('.png') ? /^image\/png/ : /javascript/);
    }
    const init = (await api.get('/swagger/swagger-initializer.js')).text;
    expect(init).toContain('validatorUrl: null');
    expect(init).toContain("url: '../openapi3.json'");
    expect(init).toContain("url: '../swagger.json'");
    expect(init).not.toMatch(/https?:\/\//);
    expect((await api.get('/swagger/index.html')).text).toBe(page.text);
    expect((await api.get('/swagger/package.json')).status).toBe(404);
  });
});
