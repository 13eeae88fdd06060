/**
 * Table output through HTTP, as kubectl get asks for it (test/e2e/apimachinery/table_conversion.go): a test
 * router does what the lead's wiring of apis-router.ts does on GET (negotiate, then sendNegotiated), in front of
 * createApp's app, on real data.
 */
import express, { Router } from 'express';
import supertest from 'supertest';
import { basicAuth } from '../../pkg/auth/authentication/basic-auth';
import { StatusError } from '../../pkg/errors';
import { silentLogger } from '../../pkg/log';
import type { RequestContext } from '../../pkg/registry';
import { negotiate, TABLE_CONTENT_TYPE } from '../../pkg/server/negotiate';
import { errorHandler } from '../../pkg/server/render-error';
import { sendNegotiated } from '../../pkg/server/table';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { PLAYLISTS } from '../support/paths';

const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

let t: TestApp;
let api: ReturnType<typeof supertest>;
const get = (path: string, accept = KUBECTL_GET) => api.get(path).auth(ADMIN.user, ADMIN.password).set('Accept', accept);

beforeAll(async () => {
  t = await startTestApp();
  const router = Router();
  const base = '/apis/:group/:version/namespaces/:namespace/:resource';
  const resolve = (req: express.Request) => {
    const { group, version, namespace, resource } = req.params as Record<string, string>;
    const kind = t.registry.find(group, version, resource);
    if (!kind) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
    const ctx: RequestContext = { requester: { identity: req.user!.identity }, namespace, fieldManager: 'test' };
    return { kind, ctx };
  };
  router.get(base, async (req, res) => {
    const { kind, ctx } = resolve(req);
    const how = negotiate(req);
    const limit = typeof req.query.limit === 'string' ? Number(req.query.limit) : undefined;
    const cont = typeof req.query.continue === 'string' ? req.query.continue : undefined;
    sendNegotiated(res, how, kind, await t.registry.list(ctx, kind, { limit, continue: cont }));
  });
  router.get(`${base}/:name`, async (req, res) => {
    const { kind, ctx } = resolve(req);
    const how = negotiate(req);
    sendNegotiated(res, how, kind, await t.registry.get(ctx, kind, req.params.name as string));
  });
  const outer = express();
  outer.use('/apis', basicAuth({ user: ADMIN.user, password: ADMIN.password }));
  outer.use(router);
  outer.use(t.app);
  outer.use(errorHandler(silentLogger));
  api = supertest(outer);
  for (const [name, title, interval] of [
    ['morning', 'Morning', '5m'],
    ['evening', 'Evening', '10m'],
    ['night', 'Night', '1h'],
  ]) {
    const res = await t.as.post(PLAYLISTS).send({ metadata: { name, labels: { team: 'a' } }, spec: { title, interval } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

test('kubectl get: a meta.k8s.io/v1 Table with Name, the printer columns and Age, objects as PartialObjectMetadata', async () => {
  const res = await get(PLAYLISTS);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe(TABLE_CONTENT_TYPE);
  const table = JSON.parse(res.text);
  const list = (await t.as.get(PLAYLISTS)).body;
  expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: list.metadata.resourceVersion } });
  expect(table.columnDefinitions.map((c: { name: string; type: string; format: string }) => [c.name, c.type, c.format])).toEqual([
    ['Name', 'string', 'name'],
    ['Title', 'string', ''],
    ['Interval', 'string', ''],
    ['Age', 'date', ''],
  ]);
  expect(table.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 3))).toEqual([
    ['evening', 'Evening', '10m'],
    ['morning', 'Morning', '5m'],
    ['night', 'Night', '1h'],
  ]);
  for (const row of table.rows) expect(row.cells[3]).toMatch(/^\d+s$/);
  const evening = list.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'evening');
  expect(table.rows[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: evening.metadata });
});

test('includeObject=None leaves objects out, Object sends them whole', async () => {
  const none = JSON.parse((await get(`${PLAYLISTS}?includeObject=None`)).text);
  expect(none.rows.every((r: object) => !('object' in r))).toBe(true);
  const whole = JSON.parse((await get(`${PLAYLISTS}?includeObject=Object`)).text);
  expect(whole.rows[0].object).toMatchObject({ kind: 'Playlist', apiVersion: 'playlist.svc.app/v1', spec: { title: 'Evening' } });
  const bad = await get(`${PLAYLISTS}?includeObject=Everything`);
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
});

test('chunks: a limited Table carries the continue token, and the next page follows (table_conversion.go)', async () => {
  const first = JSON.parse((await get(`${PLAYLISTS}?limit=2`)).text);
  expect(first.rows).toHaveLength(2);
  expect(first.metadata.continue).toEqual(expect.any(String));
  const second = JSON.parse((await get(`${PLAYLISTS}?limit=2&continue=${encodeURIComponent(first.metadata.continue)}`)).text);
  expect(second.rows.map((r: { cells: unknown[] }) => r.cells[0])).toEqual(['night']);
  expect(second.metadata.continue).toBeUndefined();
  expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
});

test('a single GET is a one-row Table with the object\'s resourceVersion', async () => {
  const obj = (await t.as.get(`${PLAYLISTS}/night`)).body;
  const res = await get(`${PLAYLISTS}/night`);
  expect(res.status).toBe(200);
  const table = JSON.parse(res.text);
  expect(table.metadata).toEqual({ resourceVersion: obj.metadata.resourceVersion });
  expect(table.rows).toHaveLength(1);
  expect(table.rows[0].cells.slice(0, 3)).toEqual(['night', 'Night', '1h']);
});

test('plain JSON when JSON is asked for or preferred', async () => {
  for (const accept of ['application/json', '*/*', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'application/json, application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5']) {
    const res = await get(PLAYLISTS, accept);
    expect([accept, res.status, res.body.kind]).toEqual([accept, 200, 'PlaylistList']);
  }
});

test('406 NotAcceptable when only what this server cannot produce is acceptable', async () => {
  for (const accept of ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', 'application/vnd.kubernetes.protobuf', 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io']) {
    const res = await get(PLAYLISTS, accept);
    expect([accept, res.status]).toEqual([accept, 406]);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
  }
  expect((await get(`${PLAYLISTS}/night`, 'application/yaml')).status).toBe(406);
});

test('errors stay Status objects when a Table was asked for', async () => {
  const res = await get(`${PLAYLISTS}/nope`);
  expect(res.status).toBe(404);
  expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'playlists.playlist.svc.app "nope" not found' });
});
