/**
 * The authorization matrix: every route the server has, called by each kind of caller, with the status each must
 * get, all in one table. The routes are the legacy areas' declarations (legacy-adapters/index.ts) and what the
 * express app serves besides, so a new route without a row fails the first test. Calls act on organization 1 (`X-Svc-Org-Id: 1` under /api, namespace `default` under /apis); the
 * member of another organization must never get through there.
 * Adding a route? Add its row to ROWS (or to apisRows for a generic /apis route), with the status each caller gets.
 */
import type { Express } from 'express';
import type supertest from 'supertest';
import { legacyAreas, routeName, servedRoutes } from '../../legacy-adapters';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { loadConfig } from '../../pkg/config';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS, DATASOURCES, FOLDERS, LIBRARY_PANELS, PLAYLISTS, SNAPSHOTS } from '../support/paths';
import { type RecordingUpstream, startRecordingUpstream } from '../support/recording-upstream';

type Principal = 'anonymous' | 'viewer' | 'editor' | 'orgAdmin' | 'serverAdmin' | 'otherOrg';
const PRINCIPALS: readonly Principal[] = ['anonymous', 'viewer', 'editor', 'orgAdmin', 'serverAdmin', 'otherOrg'];
/**
 * `serviceAccount` is a bearer token of a service account with the Admin role of org 1: it gets what the org Admin
 * gets unless the row says otherwise, and a server-admin route is never its (spec §5.3).
 */
type Expect = Record<Principal, number> & { serviceAccount?: number };
type Caller = Principal | 'serviceAccount';
const CALLERS: readonly Caller[] = [...PRINCIPALS, 'serviceAccount'];
const expected = (e: Expect, who: Caller) => (who === 'serviceAccount' ? e.serviceAccount ?? e.orgAdmin : e[who]);


/** Shorthands for the usual shapes of a row, `ok` being the success status of the route. */
const publicRoute = (ok = 200): Expect => ({ anonymous: ok, viewer: ok, editor: ok, orgAdmin: ok, serverAdmin: ok, otherOrg: ok });
const signedIn = (ok = 200): Expect => ({ anonymous: 401, viewer: ok, editor: ok, orgAdmin: ok, serverAdmin: ok, otherOrg: ok });
const orgRead = (ok = 200): Expect => ({ anonymous: 401, viewer: ok, editor: ok, orgAdmin: ok, serverAdmin: ok, otherOrg: 403 });
const orgWrite = (ok = 200): Expect => ({ anonymous: 401, viewer: 403, editor: ok, orgAdmin: ok, serverAdmin: ok, otherOrg: 403 });
const orgAdmin = (ok = 200): Expect => ({ anonymous: 401, viewer: 403, editor: 403, orgAdmin: ok, serverAdmin: ok, otherOrg: 403 });
const serverAdmin = (ok = 200): Expect => ({ anonymous: 401, viewer: 403, editor: 403, orgAdmin: 403, serverAdmin: ok, otherOrg: 403 });
/** The signed-in user's own endpoints: a service account is no user (403). */
const userOnly = (ok = 200): Expect => ({ ...orgRead(ok), serviceAccount: 403 });

interface Call {
  path: string;
  /** For `_ALL` routes: the verb to try. */
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
  body?: unknown;
  contentType?: string;
}

interface Row {
  /** `METHOD path` exactly as the app declares the route. */
  route: string;
  /** What to call; runs once per principal, so a write gets a fresh target each time. */
  call: (ctx: { t: TestApp; n: string }) => Promise<Call> | Call;
  expect: Expect;
}

let t: TestApp;
let seq = 0;
const unique = () => `m${++seq}`;

/** Creates an object as the server admin and answers its item path. */
async function made(collection: string, name: string, spec: object): Promise<string> {
  const res = await t.as.post(collection).send({ metadata: { name }, spec });
  expect(res.status).toBe(201);
  return `${collection}/${name}`;
}

/** A root dashboard made by the server admin: its uid, or its legacy numeric id. */
const dashboardUid = async (n: string) => (await made(DASHBOARDS, n, { title: 'D' }), n);
async function dashboardId(n: string): Promise<string> {
  const path = await made(DASHBOARDS, n, { title: 'D' });
  return (await t.as.get(path)).body.metadata.labels['svc.app/deprecatedInternalID'] as string;
}

/** A query history entry of the server admin (starred when asked): its uid. */
async function adminQuery(starred = false): Promise<string> {
  const uid = (await t.as.post('/api/query-history').send({ datasourceUid: 'ds1', queries: [{ refId: 'A' }] }).expect(200)).body.result.uid as string;
  if (starred) await t.as.post(`/api/query-history/star/${uid}`).expect(200);
  return uid;
}
/** The server admin's own entry: found for it alone (404 to every other caller, 403 to a non-member of org 1). */
const adminsOwn: Expect = { anonymous: 401, viewer: 404, editor: 404, orgAdmin: 404, serverAdmin: 200, otherOrg: 403 };

const playlistSpec = { title: 'P', interval: '5m', items: [] };
/** A library element of org 1 at the root (names are unique per folder). */
const elementSpec = (n: string) => ({ name: `E ${n}`, kind: 1, model: { type: 'stat' } });
const kinds = [
  { plural: 'folders', collection: FOLDERS, spec: () => ({ title: 'F' }) },
  { plural: 'dashboards', collection: DASHBOARDS, spec: () => ({ title: 'D' }) },
  { plural: 'playlists', collection: PLAYLISTS, spec: () => playlistSpec },
  { plural: 'snapshots', collection: SNAPSHOTS, spec: () => ({ name: 'S' }) },
  { plural: 'librarypanels', collection: LIBRARY_PANELS, spec: elementSpec },
];
/**
 * Snapshots: every member takes them (snapshots:create); one made by the server admin is its own (creator Admin),
 * so only org Admins reach it besides.
 */
const snapshotExpect = (row: 'create' | 'read' | 'write', e: Expect): Expect =>
  row === 'create' ? { ...e, viewer: e.editor } : row === 'read' || row === 'write' ? { ...e, viewer: 403, editor: 403 } : e;
const APIS = '/apis/:group/:version/namespaces/:namespace/:resource';

/** The generic /apis routes, for every kind. Viewers read and editors write what the anchor's defaults give them. */
const apisRows: Row[] = kinds.flatMap(({ plural, collection, spec }): Row[] => {
  const x = (row: 'create' | 'read' | 'write', e: Expect) => (plural === 'snapshots' ? snapshotExpect(row, e) : e);
  return [
  { route: `GET ${APIS}`, call: () => ({ path: collection }), expect: orgRead() },
  // Across namespaces (kubectl get -A): each caller sees the orgs it belongs to, so another org's Admin gets 200 too.
  { route: 'GET /apis/:group/:version/:resource', call: () => ({ path: collection.replace(/\/namespaces\/[^/]+/, '') }), expect: signedIn() },
  { route: `POST ${APIS}`, call: ({ n }) => ({ path: collection, body: { metadata: { name: n }, spec: spec(n) } }), expect: x('create', orgWrite(201)) },
  // A member may delete its own snapshots: deleting the (no) matching ones is allowed to a Viewer too.
  { route: `DELETE ${APIS}`, call: () => ({ path: `${collection}?labelSelector=nothing-has-this` }), expect: x('create', orgWrite()) },
  { route: `GET ${APIS}/:name`, call: ({ n }) => made(collection, n, spec(n)).then((path) => ({ path })), expect: x('read', orgRead()) },
  {
    route: `PUT ${APIS}/:name`,
    call: async ({ n }) => {
      const path = await made(collection, n, spec(n));
      const current = (await t.as.get(path)).body;
      return { path, body: { ...current, metadata: { ...current.metadata, labels: { changed: 'yes' } } } };
    },
    expect: x('write', orgWrite()),
  },
  {
    route: `PATCH ${APIS}/:name`,
    call: async ({ n }) => ({ path: await made(collection, n, spec(n)), body: { metadata: { labels: { changed: 'yes' } } }, contentType: 'application/merge-patch+json' }),
    expect: x('write', orgWrite()),
  },
  { route: `DELETE ${APIS}/:name`, call: async ({ n }) => ({ path: await made(collection, n, spec(n)) }), expect: x('write', orgWrite()) },
  ...(plural === 'dashboards'
    ? [{ route: `GET ${APIS}/:name/:subresource`, call: async ({ n }: { n: string }) => ({ path: `${await made(collection, n, spec(n))}/dto` }), expect: orgRead() }]
    : []),
  ];
});

/**
 * The generic /apis routes on data sources: Admins only (Viewers query them, read nothing; anchor-breadth §1.10).
 * The server admin is an Admin of org 1; the rows of the other kinds checked the routes' other callers' shapes.
 */
const dataSourceSpec = (n: string) => ({ name: n, type: 'loki', url: 'http://loki' });
const madeDataSource = (n: string) => made(DATASOURCES, n, dataSourceSpec(n));
const dataSourceApisRows: Row[] = [
  { route: `GET ${APIS}`, call: () => ({ path: DATASOURCES }), expect: { ...orgAdmin(), viewer: 200, editor: 200 } },
  { route: `POST ${APIS}`, call: ({ n }) => ({ path: DATASOURCES, body: { metadata: { name: n }, spec: dataSourceSpec(n) } }), expect: orgAdmin(201) },
  { route: `GET ${APIS}/:name`, call: async ({ n }) => ({ path: await madeDataSource(n) }), expect: orgAdmin() },
  {
    route: `PATCH ${APIS}/:name`,
    call: async ({ n }) => ({ path: await madeDataSource(n), body: { spec: { url: 'http://loki-2' } }, contentType: 'application/merge-patch+json' }),
    expect: orgAdmin(),
  },
  { route: `DELETE ${APIS}/:name`, call: async ({ n }) => ({ path: await madeDataSource(n) }), expect: orgAdmin() },
  // Correlations: Admins only, as the anchor's data source reads and writes guard them.
  { route: `GET ${APIS}`, call: () => ({ path: CORRELATIONS }), expect: { ...orgAdmin(), viewer: 200, editor: 200 } },
  { route: `POST ${APIS}`, call: async ({ n }) => ({ path: CORRELATIONS, body: { metadata: { name: n }, spec: correlationSpec((await legacyDataSource(n)).uid) } }), expect: orgAdmin(201) },
  { route: `GET ${APIS}/:name`, call: async ({ n }) => ({ path: await madeCorrelation(n) }), expect: orgAdmin() },
  { route: `DELETE ${APIS}/:name`, call: async ({ n }) => ({ path: await madeCorrelation(n) }), expect: orgAdmin() },
];

const CORRELATIONS = DATASOURCES.replace('datasource.svc.app', 'correlation.svc.app').replace(/datasources$/, 'correlations');
const correlationSpec = (source: string) => ({ sourceUID: source, config: { field: 'id', type: 'external', target: { url: 'https://example.com' } } });
/** A fresh correlation from a fresh data source, made by the server admin through /apis: its item path. */
const madeCorrelation = async (n: string) => made(CORRELATIONS, n, correlationSpec((await legacyDataSource(n)).uid));
/** A fresh correlation of org 1 through /api: its source's uid and its uid. */
async function legacyCorrelation(n: string): Promise<{ source: string; uid: string }> {
  const { uid: source } = await legacyDataSource(n);
  const res = await t.as.post(`/api/datasources/uid/${source}/correlations`).send(correlationSpec(source));
  expect(res.status).toBe(200);
  return { source, uid: res.body.result.uid as string };
}
const CORRELATION_ROWS: Row[] = [
  { route: 'GET /api/datasources/correlations', call: async ({ n }) => (await legacyCorrelation(n), { path: '/api/datasources/correlations' }), expect: orgAdmin() },
  { route: 'GET /api/datasources/uid/:sourceUID/correlations', call: async ({ n }) => ({ path: `/api/datasources/uid/${(await legacyCorrelation(n)).source}/correlations` }), expect: orgAdmin() },
  { route: 'POST /api/datasources/uid/:sourceUID/correlations', call: async ({ n }) => { const { uid } = await legacyDataSource(n); return { path: `/api/datasources/uid/${uid}/correlations`, body: correlationSpec(uid) }; }, expect: orgAdmin() },
  { route: 'GET /api/datasources/uid/:sourceUID/correlations/:correlationUID', call: async ({ n }) => { const c = await legacyCorrelation(n); return { path: `/api/datasources/uid/${c.source}/correlations/${c.uid}` }; }, expect: orgAdmin() },
  { route: 'PATCH /api/datasources/uid/:sourceUID/correlations/:correlationUID', call: async ({ n }) => { const c = await legacyCorrelation(n); return { path: `/api/datasources/uid/${c.source}/correlations/${c.uid}`, body: { label: 'x' } }; }, expect: orgAdmin() },
  { route: 'DELETE /api/datasources/uid/:uid/correlations/:correlationUID', call: async ({ n }) => { const c = await legacyCorrelation(n); return { path: `/api/datasources/uid/${c.source}/correlations/${c.uid}` }; }, expect: orgAdmin() },
];

/** Legacy data source routes: Admins manage and read; whoever holds datasources.id:read (Viewers) gets an id. */
const dataSourceBody = (n: string) => ({ name: n, type: 'loki', access: 'proxy', url: 'http://loki' });
const DATASOURCE_ROWS: Row[] = [
  { route: 'GET /api/datasources', call: () => ({ path: '/api/datasources' }), expect: orgAdmin() },
  { route: 'POST /api/datasources', call: ({ n }) => ({ path: '/api/datasources', body: dataSourceBody(n) }), expect: orgAdmin() },
  { route: 'GET /api/datasources/uid/:uid', call: async ({ n }) => ({ path: `/api/datasources/uid/${(await legacyDataSource(n)).uid}` }), expect: orgAdmin() },
  { route: 'PUT /api/datasources/uid/:uid', call: async ({ n }) => ({ path: `/api/datasources/uid/${(await legacyDataSource(n)).uid}`, body: dataSourceBody(n) }), expect: orgAdmin() },
  { route: 'DELETE /api/datasources/uid/:uid', call: async ({ n }) => ({ path: `/api/datasources/uid/${(await legacyDataSource(n)).uid}` }), expect: orgAdmin() },
  { route: 'GET /api/datasources/name/:name', call: async ({ n }) => (await legacyDataSource(n), { path: `/api/datasources/name/${n}` }), expect: orgAdmin() },
  { route: 'DELETE /api/datasources/name/:name', call: async ({ n }) => (await legacyDataSource(n), { path: `/api/datasources/name/${n}` }), expect: orgAdmin() },
  { route: 'GET /api/datasources/id/:name', call: async ({ n }) => (await legacyDataSource(n), { path: `/api/datasources/id/${n}` }), expect: orgRead() },
  { route: 'GET /api/datasources/:id', call: async ({ n }) => ({ path: `/api/datasources/${(await legacyDataSource(n)).id}` }), expect: orgAdmin() },
  { route: 'PUT /api/datasources/:id', call: async ({ n }) => ({ path: `/api/datasources/${(await legacyDataSource(n)).id}`, body: dataSourceBody(n) }), expect: orgAdmin() },
  { route: 'DELETE /api/datasources/:id', call: async ({ n }) => ({ path: `/api/datasources/${(await legacyDataSource(n)).id}` }), expect: orgAdmin() },
];

/**
 * The data source proxy, any method: whoever may query the data source (the Query a new data source gives Viewers)
 * reaches its upstream, a real local server that answers 200.
 */
let upstream: RecordingUpstream;
async function proxiedDataSource(n: string): Promise<{ uid: string; id: number }> {
  const res = await t.as.post('/api/datasources').send({ name: n, type: 'test-upstream', access: 'proxy', url: `${upstream.url}/base` });
  expect(res.status).toBe(200);
  return { uid: res.body.datasource.uid as string, id: res.body.id as number };
}
const PROXY_ROWS: Row[] = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).flatMap((verb): Row[] => [
  { route: `${verb} /api/datasources/proxy/uid/:uid{/*datasource_proxy_route}`, call: async ({ n }) => ({ path: `/api/datasources/proxy/uid/${(await proxiedDataSource(n)).uid}/api/x` }), expect: orgRead() },
  { route: `${verb} /api/datasources/proxy/:id{/*datasource_proxy_route}`, call: async ({ n }) => ({ path: `/api/datasources/proxy/${(await proxiedDataSource(n)).id}/api/x` }), expect: orgRead() },
]);

/**
 * /api/ds/query, health and resources (any method): whoever may query the data source (the Query a new data source
 * gives Viewers), answered by the testdata plugin.
 */
async function testDataSource(n: string): Promise<{ uid: string; id: number }> {
  const res = await t.as.post('/api/datasources').send({ name: n, type: 'svc-testdata-datasource', access: 'proxy' });
  expect(res.status).toBe(200);
  return { uid: res.body.datasource.uid as string, id: res.body.id as number };
}
const QUERY_ROWS: Row[] = [
  { route: 'POST /api/ds/query', call: async ({ n }) => ({ path: '/api/ds/query', body: { from: 'now-1m', to: 'now', queries: [{ datasource: { uid: (await testDataSource(n)).uid } }] } }), expect: orgRead() },
  { route: 'GET /api/datasources/uid/:uid/health', call: async ({ n }) => ({ path: `/api/datasources/uid/${(await testDataSource(n)).uid}/health` }), expect: orgRead() },
  { route: 'GET /api/datasources/:id/health', call: async ({ n }) => ({ path: `/api/datasources/${(await testDataSource(n)).id}/health` }), expect: orgRead() },
  ...(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).flatMap((verb): Row[] => [
    { route: `${verb} /api/datasources/uid/:uid/resources{/*datasource_proxy_route}`, call: async ({ n }) => ({ path: `/api/datasources/uid/${(await testDataSource(n)).uid}/resources/test` }), expect: orgRead() },
    { route: `${verb} /api/datasources/:id/resources{/*datasource_proxy_route}`, call: async ({ n }) => ({ path: `/api/datasources/${(await testDataSource(n)).id}/resources/test` }), expect: orgRead() },
  ]),
];

/** A fresh data source of org 1, made by the server admin through /api: its uid and id. */
async function legacyDataSource(name: string): Promise<{ uid: string; id: number }> {
  const res = await t.as.post('/api/datasources').send(dataSourceBody(name));
  expect(res.status).toBe(200);
  return { uid: res.body.datasource.uid as string, id: res.body.id as number };
}

/** An organization annotation made by the server admin: its id. */
const orgAnnotation = async (): Promise<number> => (await t.as.post('/api/annotations').send({ text: 'A' }).expect(200)).body.id;

const ROWS: Row[] = [
  // Probes, version and the API documents are public.
  { route: 'GET /api/health', call: () => ({ path: '/api/health' }), expect: publicRoute() },
  { route: 'GET /livez', call: () => ({ path: '/livez' }), expect: publicRoute() },
  { route: 'GET /readyz', call: () => ({ path: '/readyz' }), expect: publicRoute() },
  { route: 'GET /version', call: () => ({ path: '/version' }), expect: publicRoute() },
  // Open unless metrics.basic_auth_username/password are set, as the anchor's (test/server/metrics.test.ts covers both).
  { route: 'GET /metrics', call: () => ({ path: '/metrics' }), expect: publicRoute() },
  { route: 'GET /swagger.json,/public/api-merged.json', call: () => ({ path: '/swagger.json' }), expect: publicRoute() },
  { route: 'GET /openapi3.json,/public/openapi3.json', call: () => ({ path: '/openapi3.json' }), expect: publicRoute() },
  { route: 'GET /swagger,/swagger/index.html', call: () => ({ path: '/swagger/index.html' }), expect: publicRoute() },
  { route: 'GET /swagger/swagger-initializer.js', call: () => ({ path: '/swagger/swagger-initializer.js' }), expect: publicRoute() },
  { route: 'GET /swagger/:file', call: () => ({ path: '/swagger/swagger-ui.css' }), expect: publicRoute() },
  // Discovery and the Kubernetes OpenAPI need a signed-in caller, of any org.
  { route: 'GET /api', call: () => ({ path: '/api' }), expect: signedIn(404) },
  { route: 'GET /apis', call: () => ({ path: '/apis' }), expect: signedIn() },
  { route: 'GET /apis/:group', call: () => ({ path: '/apis/folder.svc.app' }), expect: signedIn() },
  { route: 'GET /apis/:group/:version', call: () => ({ path: '/apis/folder.svc.app/v1beta1' }), expect: signedIn() },
  { route: 'GET /openapi/v3', call: () => ({ path: '/openapi/v3' }), expect: signedIn() },
  { route: 'GET /openapi/v3/apis/:group/:version', call: () => ({ path: '/openapi/v3/apis/folder.svc.app/v1beta1' }), expect: signedIn() },
  { route: 'GET /openapi/v2', call: () => ({ path: '/openapi/v2' }), expect: signedIn(404) },
  ...apisRows,
  ...dataSourceApisRows,
  ...DATASOURCE_ROWS,
  ...CORRELATION_ROWS,
  ...PROXY_ROWS,
  ...QUERY_ROWS,
  // A verb no route serves is 405 for whoever may write there; authorization comes first, as in kube-apiserver.
  { route: `_ALL ${APIS},${APIS}/:name`, call: () => ({ path: FOLDERS, method: 'put' }), expect: orgWrite(405) },
  { route: '_ALL /apis/*rest', call: () => ({ path: '/apis/nothing.svc.app/v1/namespaces/default/things', method: 'get' }), expect: orgRead(404) },
  // The signed-in user's own endpoints.
  { route: 'GET /api/user', call: () => ({ path: '/api/user' }), expect: userOnly() },
  { route: 'GET /api/user/orgs', call: () => ({ path: '/api/user/orgs' }), expect: userOnly() },
  { route: 'POST /api/user/using/:orgId', call: () => ({ path: '/api/user/using/1' }), expect: userOnly() },
  // Stars of dashboards the caller may read (a root dashboard: Viewers read those by default).
  { route: 'GET /api/user/stars', call: () => ({ path: '/api/user/stars' }), expect: orgRead() },
  ...(['POST', 'DELETE'] as const).flatMap((verb): Row[] => [
    { route: `${verb} /api/user/stars/dashboard/uid/:uid`, call: async ({ n }) => ({ path: `/api/user/stars/dashboard/uid/${await dashboardUid(n)}` }), expect: orgRead() },
    { route: `${verb} /api/user/stars/dashboard/:id`, call: async ({ n }) => ({ path: `/api/user/stars/dashboard/${await dashboardId(n)}` }), expect: orgRead() },
  ]),
  // Search answers what the caller may see, possibly nothing.
  { route: 'GET /api/search', call: () => ({ path: '/api/search?query=D' }), expect: orgRead() },
  { route: 'GET /api/search/sorting', call: () => ({ path: '/api/search/sorting' }), expect: orgRead() },
  // Whoever acts in org 1 (a service account too) may ask what it holds there.
  { route: 'GET /api/access-control/user/permissions', call: () => ({ path: '/api/access-control/user/permissions' }), expect: orgRead() },
  // Login sessions: the form needs no credentials (it is how one gets them); a user's own sessions.
  { route: 'POST /login', call: async ({ n }) => (await userId(n), { path: '/login', body: { user: n, password: 'password1' } }), expect: publicRoute() },
  { route: 'GET /logout', call: () => ({ path: '/logout' }), expect: publicRoute(302) },
  { route: 'GET /api/user/preferences', call: () => ({ path: '/api/user/preferences' }), expect: userOnly() },
  { route: 'PUT /api/user/preferences', call: () => ({ path: '/api/user/preferences', body: { theme: 'dark' } }), expect: userOnly() },
  { route: 'PATCH /api/user/preferences', call: () => ({ path: '/api/user/preferences', body: { theme: 'light' } }), expect: userOnly() },
  { route: 'GET /api/org/preferences', call: () => ({ path: '/api/org/preferences' }), expect: orgRead() },
  { route: 'PUT /api/org/preferences', call: () => ({ path: '/api/org/preferences', body: { theme: 'dark' } }), expect: orgAdmin() },
  { route: 'PATCH /api/org/preferences', call: () => ({ path: '/api/org/preferences', body: { theme: 'light' } }), expect: orgAdmin() },
  { route: 'GET /api/teams/:teamId/preferences', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/preferences` }), expect: orgAdmin() },
  { route: 'PUT /api/teams/:teamId/preferences', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/preferences`, body: { theme: 'dark' } }), expect: orgAdmin() },
  { route: 'PATCH /api/teams/:teamId/preferences', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/preferences`, body: { theme: 'light' } }), expect: orgAdmin() },
  { route: 'GET /api/user/auth-tokens', call: () => ({ path: '/api/user/auth-tokens' }), expect: userOnly() },
  // Nobody here holds session 999999: found only among the caller's own.
  { route: 'POST /api/user/revoke-auth-token', call: () => ({ path: '/api/user/revoke-auth-token', body: { authTokenId: 999999 } }), expect: userOnly(404) },
  // Server administration.
  { route: 'GET /api/users/lookup', call: () => ({ path: '/api/users/lookup?loginOrEmail=admin' }), expect: serverAdmin() },
  { route: 'GET /api/users/:id', call: async ({ n }) => ({ path: `/api/users/${await userId(n)}` }), expect: serverAdmin() },
  { route: 'PUT /api/users/:id', call: async ({ n }) => ({ path: `/api/users/${await userId(n)}`, body: { login: n, name: 'Renamed' } }), expect: serverAdmin() },
  { route: 'GET /api/users/:id/orgs', call: async ({ n }) => ({ path: `/api/users/${await member(n)}/orgs` }), expect: serverAdmin() },
  { route: 'GET /api/users/:id/teams', call: async ({ n }) => ({ path: `/api/users/${await member(n)}/teams` }), expect: serverAdmin() },
  // Each caller's own account: a body naming no login nor email is 400 once the caller passed (nothing changes).
  { route: 'PUT /api/user', call: () => ({ path: '/api/user', body: { name: 'x' } }), expect: userOnly(400) },
  // The callers of the matrix keep their password; the server admin's is another (401 "Invalid old password").
  { route: 'PUT /api/user/password', call: () => ({ path: '/api/user/password', body: { oldPassword: 'password1', newPassword: 'password1' } }), expect: { ...userOnly(), serverAdmin: 401 } },
  { route: 'GET /api/user/teams', call: () => ({ path: '/api/user/teams' }), expect: userOnly() },
  { route: 'PUT /api/user/helpflags/:id', call: () => ({ path: '/api/user/helpflags/1' }), expect: userOnly() },
  { route: 'GET /api/user/helpflags/clear', call: () => ({ path: '/api/user/helpflags/clear' }), expect: userOnly() },
  { route: 'GET /api/users', call: () => ({ path: '/api/users' }), expect: serverAdmin() },
  { route: 'GET /api/users/search', call: () => ({ path: '/api/users/search?query=mx' }), expect: serverAdmin() },
  { route: 'GET /api/admin/users/:id/auth-tokens', call: async ({ n }) => ({ path: `/api/admin/users/${await signedInUser(n)}/auth-tokens` }), expect: serverAdmin() },
  {
    route: 'POST /api/admin/users/:id/revoke-auth-token',
    call: async ({ n }) => {
      const id = await signedInUser(n);
      const [token] = (await t.as.get(`/api/admin/users/${id}/auth-tokens`)).body;
      return { path: `/api/admin/users/${id}/revoke-auth-token`, body: { authTokenId: token.id } };
    },
    expect: serverAdmin(),
  },
  { route: 'POST /api/admin/users/:id/logout', call: async ({ n }) => ({ path: `/api/admin/users/${await signedInUser(n)}/logout` }), expect: serverAdmin() },
  { route: 'POST /api/admin/users', call: ({ n }) => ({ path: '/api/admin/users', body: { login: n, password: 'password1' } }), expect: serverAdmin() },
  // No provisioning files in this server's paths.provisioning: each reload stores nothing and answers 200.
  ...['dashboards', 'datasources', 'plugins', 'alerting', 'notifications'].map((type) => ({ route: `POST /api/admin/provisioning/${type}/reload`, call: () => ({ path: `/api/admin/provisioning/${type}/reload` }), expect: serverAdmin() })),
  { route: 'POST /api/admin/encryption/rotate-data-keys', call: () => ({ path: '/api/admin/encryption/rotate-data-keys' }), expect: serverAdmin(204) },
  { route: 'POST /api/admin/encryption/reencrypt-data-keys', call: () => ({ path: '/api/admin/encryption/reencrypt-data-keys' }), expect: serverAdmin(204) },
  { route: 'POST /api/admin/encryption/reencrypt-secrets', call: () => ({ path: '/api/admin/encryption/reencrypt-secrets' }), expect: serverAdmin(204) },
  { route: 'POST /api/admin/encryption/rollback-secrets', call: () => ({ path: '/api/admin/encryption/rollback-secrets' }), expect: serverAdmin(204) },
  { route: 'GET /api/admin/settings', call: () => ({ path: '/api/admin/settings' }), expect: serverAdmin() },
  { route: 'GET /api/org/quotas', call: () => ({ path: '/api/org/quotas' }), expect: orgRead() },
  { route: 'GET /api/orgs/:orgId/quotas', call: () => ({ path: '/api/orgs/1/quotas' }), expect: serverAdmin() },
  { route: 'GET /api/user/quotas', call: () => ({ path: '/api/user/quotas' }), expect: userOnly() },
  { route: 'GET /api/admin/users/:id/quotas', call: async ({ n }) => ({ path: `/api/admin/users/${await userId(n)}/quotas` }), expect: serverAdmin() },
  // The matrix's server runs without quota.enabled: a server admin passes the guard and meets 404 "Quotas not enabled".
  { route: 'PUT /api/orgs/:orgId/quotas/:target', call: () => ({ path: '/api/orgs/1/quotas/dashboard', method: 'put', body: { limit: 5 } }), expect: serverAdmin(404) },
  { route: 'PUT /api/admin/users/:id/quotas/:target', call: async ({ n }) => ({ path: `/api/admin/users/${await userId(n)}/quotas/org`, method: 'put', body: { limit: 5 } }), expect: serverAdmin(404) },
  { route: 'POST /api/admin/users/:id/disable', call: async ({ n }) => ({ path: `/api/admin/users/${await userId(n)}/disable` }), expect: serverAdmin() },
  { route: 'POST /api/admin/users/:id/enable', call: async ({ n }) => ({ path: `/api/admin/users/${await userId(n)}/enable` }), expect: serverAdmin() },
  { route: 'GET /api/admin/stats', call: () => ({ path: '/api/admin/stats' }), expect: serverAdmin() },
  { route: 'GET /api/admin/usage-report-preview', call: () => ({ path: '/api/admin/usage-report-preview' }), expect: serverAdmin() },
  { route: 'POST /api/admin/ldap/reload', call: () => ({ path: '/api/admin/ldap/reload' }), expect: serverAdmin(410) },
  // No LDAP here: a server admin gets the anchor's 400 "LDAP is not enabled".
  { route: 'GET /api/admin/ldap/status', call: () => ({ path: '/api/admin/ldap/status' }), expect: serverAdmin(400) },
  { route: 'POST /api/admin/ldap/sync/:user_id', call: () => ({ path: '/api/admin/ldap/sync/1' }), expect: serverAdmin(400) },
  { route: 'GET /api/admin/ldap/:user_name', call: () => ({ path: '/api/admin/ldap/admin' }), expect: serverAdmin(400) },
  { route: 'PUT /api/admin/users/:id/password', call: async ({ n }) => ({ path: `/api/admin/users/${await userId(n)}/password`, body: { password: 'password2' } }), expect: serverAdmin() },
  { route: 'PUT /api/admin/users/:id/permissions', call: async ({ n }) => ({ path: `/api/admin/users/${await userId(n)}/permissions`, body: { isSvcAdmin: false } }), expect: serverAdmin() },
  { route: 'DELETE /api/admin/users/:id', call: async ({ n }) => ({ path: `/api/admin/users/${await userId(n)}` }), expect: serverAdmin() },
  { route: 'POST /api/orgs', call: ({ n }) => ({ path: '/api/orgs', body: { name: n } }), expect: serverAdmin() },
  { route: 'GET /api/orgs', call: () => ({ path: '/api/orgs' }), expect: serverAdmin() },
  // Organization administration.
  { route: 'GET /api/org', call: () => ({ path: '/api/org' }), expect: orgRead() },
  { route: 'PUT /api/org', call: () => ({ path: '/api/org', body: { name: 'Main Org.' } }), expect: orgAdmin() },
  { route: 'PUT /api/org/address', call: () => ({ path: '/api/org/address', body: { city: 'Oslo' } }), expect: orgAdmin() },
  // Also whoever administers a folder or dashboard (to name users in its permissions): the Editor, of the folder it creates.
  {
    route: 'GET /api/org/users/lookup',
    call: async ({ n }) => {
      await t.anonymous.post(FOLDERS).auth(CREDENTIALS.editor, 'password1').send({ metadata: { name: n }, spec: { title: 'F' } }).expect(201);
      return { path: '/api/org/users/lookup?query=mx' };
    },
    expect: { ...orgAdmin(), editor: 200 },
  },
  { route: 'GET /api/orgs/name/:name', call: () => ({ path: '/api/orgs/name/Main%20Org.' }), expect: serverAdmin() },
  { route: 'GET /api/orgs/:orgId', call: () => ({ path: '/api/orgs/1' }), expect: serverAdmin() },
  { route: 'PUT /api/orgs/:orgId', call: () => ({ path: '/api/orgs/1', body: { name: 'Main Org.' } }), expect: serverAdmin() },
  // A fresh organization each time (the request acts in org 1, which the anchor refuses to delete).
  { route: 'DELETE /api/orgs/:orgId', call: async ({ n }) => ({ path: `/api/orgs/${(await t.as.post('/api/orgs').send({ name: `del-${n}` })).body.orgId}` }), expect: serverAdmin() },
  { route: 'PUT /api/orgs/:orgId/address', call: () => ({ path: '/api/orgs/1/address', body: { city: 'Oslo' } }), expect: serverAdmin() },
  { route: 'GET /api/orgs/:orgId/users', call: () => ({ path: '/api/orgs/1/users' }), expect: serverAdmin() },
  { route: 'GET /api/orgs/:orgId/users/search', call: () => ({ path: '/api/orgs/1/users/search?query=mx' }), expect: serverAdmin() },
  { route: 'POST /api/orgs/:orgId/users', call: async ({ n }) => (await userId(n), { path: '/api/orgs/1/users', body: { loginOrEmail: n, role: 'Viewer' } }), expect: serverAdmin() },
  { route: 'PATCH /api/orgs/:orgId/users/:userId', call: async ({ n }) => ({ path: `/api/orgs/1/users/${await member(n)}`, body: { role: 'Editor' } }), expect: serverAdmin() },
  { route: 'DELETE /api/orgs/:orgId/users/:userId', call: async ({ n }) => ({ path: `/api/orgs/1/users/${await member(n)}` }), expect: serverAdmin() },
  { route: 'GET /api/org/users', call: () => ({ path: '/api/org/users' }), expect: orgAdmin() },
  { route: 'POST /api/org/users', call: async ({ n }) => (await userId(n), { path: '/api/org/users', body: { loginOrEmail: n, role: 'Viewer' } }), expect: orgAdmin() },
  { route: 'PATCH /api/org/users/:userId', call: async ({ n }) => ({ path: `/api/org/users/${await member(n)}`, body: { role: 'Editor' } }), expect: orgAdmin() },
  { route: 'DELETE /api/org/users/:userId', call: async ({ n }) => ({ path: `/api/org/users/${await member(n)}` }), expect: orgAdmin() },
  // Org invites (org.users:add): a fresh invitee per caller; the revoked invite is made by the server admin first.
  { route: 'GET /api/org/invites', call: () => ({ path: '/api/org/invites' }), expect: orgAdmin() },
  { route: 'POST /api/org/invites', call: ({ n }) => ({ path: '/api/org/invites', body: { loginOrEmail: `${n}@invited.example.org`, role: 'Viewer' } }), expect: orgAdmin() },
  { route: 'DELETE /api/org/invites/:code/revoke', call: async ({ n }) => ({ path: `/api/org/invites/${await inviteCode(n)}/revoke` }), expect: orgAdmin() },
  // Completing an invite is for whoever holds its code, signed in or not.
  { route: 'GET /api/user/invite/:code', call: async ({ n }) => ({ path: `/api/user/invite/${await inviteCode(n)}` }), expect: publicRoute() },
  {
    route: 'POST /api/user/invite/complete',
    call: async ({ n }) => ({ path: '/api/user/invite/complete', body: { inviteCode: await inviteCode(n), email: `${n}@invited.example.org`, username: `${n}-invited`, password: 'invited-pass' } }),
    expect: publicRoute(),
  },
  // Teams: org Admins manage them; a team's own members may read it (test/identity/teams.test.ts), these callers are none.
  { route: 'POST /api/teams', call: ({ n }) => ({ path: '/api/teams', body: { name: n } }), expect: orgAdmin() },
  { route: 'GET /api/teams/search', call: () => ({ path: '/api/teams/search' }), expect: orgAdmin() },
  { route: 'GET /api/teams/:teamId', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}` }), expect: orgAdmin() },
  { route: 'PUT /api/teams/:teamId', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}`, body: { name: `${n}-renamed` } }), expect: orgAdmin() },
  { route: 'DELETE /api/teams/:teamId', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}` }), expect: orgAdmin() },
  { route: 'GET /api/teams/:teamId/members', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/members` }), expect: orgAdmin() },
  { route: 'PUT /api/teams/:teamId/members', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/members`, body: { admins: ['admin@localhost'] } }), expect: orgAdmin() },
  { route: 'POST /api/teams/:teamId/members', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/members`, body: { userId: await member(n) } }), expect: orgAdmin() },
  {
    route: 'PUT /api/teams/:teamId/members/:userId',
    call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/members/${await teamMember(n)}`, body: { permission: 4 } }),
    expect: orgAdmin(),
  },
  { route: 'DELETE /api/teams/:teamId/members/:userId', call: async ({ n }) => ({ path: `/api/teams/${await team(n)}/members/${await teamMember(n)}` }), expect: orgAdmin() },
  // Query history (test/legacy/query-history.test.ts): every caller's own; an entry made by the server admin is 404 to anyone else.
  { route: 'POST /api/query-history', call: () => ({ path: '/api/query-history', body: { datasourceUid: 'ds1', queries: [{ refId: 'A' }] } }), expect: orgRead() },
  { route: 'GET /api/query-history', call: () => ({ path: '/api/query-history' }), expect: orgRead() },
  { route: 'POST /api/query-history/star/:uid', call: async () => ({ path: `/api/query-history/star/${await adminQuery()}` }), expect: adminsOwn },
  { route: 'DELETE /api/query-history/star/:uid', call: async () => ({ path: `/api/query-history/star/${await adminQuery(true)}` }), expect: adminsOwn },
  { route: 'DELETE /api/query-history/:uid', call: async () => ({ path: `/api/query-history/${await adminQuery()}` }), expect: adminsOwn },
  { route: 'PATCH /api/query-history/:uid', call: async () => ({ path: `/api/query-history/${await adminQuery()}`, body: { comment: 'c' } }), expect: adminsOwn },
  // The deprecated API keys (test/identity/api-keys.test.ts): org Admins hold apikeys:*; there are no keys.
  { route: 'GET /api/auth/keys', call: () => ({ path: '/api/auth/keys' }), expect: orgAdmin() },
  { route: 'POST /api/auth/keys', call: ({ n }) => ({ path: '/api/auth/keys', body: { name: n, role: 'Viewer' } }), expect: orgAdmin(410) },
  { route: 'DELETE /api/auth/keys/:id', call: () => ({ path: '/api/auth/keys/1' }), expect: orgAdmin(404) },
  // Service accounts: org Admins hold serviceaccounts:* (test/identity/service-accounts.test.ts).
  { route: 'POST /api/serviceaccounts', call: ({ n }) => ({ path: '/api/serviceaccounts', body: { name: n } }), expect: orgAdmin(201) },
  { route: 'GET /api/serviceaccounts/search', call: () => ({ path: '/api/serviceaccounts/search' }), expect: orgAdmin() },
  { route: 'GET /api/serviceaccounts/:id', call: async ({ n }) => ({ path: `/api/serviceaccounts/${await serviceAccount(n)}` }), expect: orgAdmin() },
  { route: 'PATCH /api/serviceaccounts/:id', call: async ({ n }) => ({ path: `/api/serviceaccounts/${await serviceAccount(n)}`, body: { role: 'Editor' } }), expect: orgAdmin() },
  { route: 'DELETE /api/serviceaccounts/:id', call: async ({ n }) => ({ path: `/api/serviceaccounts/${await serviceAccount(n)}` }), expect: orgAdmin() },
  { route: 'GET /api/serviceaccounts/:id/tokens', call: async ({ n }) => ({ path: `/api/serviceaccounts/${await serviceAccount(n)}/tokens` }), expect: orgAdmin() },
  { route: 'POST /api/serviceaccounts/:id/tokens', call: async ({ n }) => ({ path: `/api/serviceaccounts/${await serviceAccount(n)}/tokens`, body: { name: n } }), expect: orgAdmin() },
  {
    route: 'DELETE /api/serviceaccounts/:id/tokens/:tokenId',
    call: async ({ n }) => {
      const id = await serviceAccount(n);
      const token = await t.as.post(`/api/serviceaccounts/${id}/tokens`).send({ name: n });
      expect(token.status).toBe(200);
      return { path: `/api/serviceaccounts/${id}/tokens/${token.body.id}` };
    },
    expect: orgAdmin(),
  },
  // Dashboards (legacy): reads need dashboards:read, saves dashboards:create/write, deletes dashboards:delete; the
  // version history and restore need dashboards:write, as the anchor declares them. Editors get write and delete on
  // a dashboard from its managed permissions (the root defaults written on create give Editors Edit).
  { route: 'POST /api/dashboards/db', call: ({ n }) => ({ path: '/api/dashboards/db', body: { dashboard: { uid: n, title: n } } }), expect: orgWrite() },
  { route: 'GET /api/dashboards/home', call: () => ({ path: '/api/dashboards/home' }), expect: orgRead() },
  { route: 'GET /api/dashboards/tags', call: () => ({ path: '/api/dashboards/tags' }), expect: orgRead() },
  { route: 'GET /api/dashboards/uid/:uid', call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboard(n)}` }), expect: orgRead() },
  { route: 'DELETE /api/dashboards/uid/:uid', call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboard(n)}` }), expect: orgWrite() },
  { route: 'GET /api/dashboards/uid/:uid/versions', call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboard(n)}/versions` }), expect: orgWrite() },
  { route: 'GET /api/dashboards/uid/:uid/versions/:version', call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboard(n)}/versions/1` }), expect: orgWrite() },
  { route: 'POST /api/dashboards/uid/:uid/restore', call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboard(n)}/restore`, body: { version: 1 } }), expect: orgWrite() },
  // The deprecated id forms answer as the uid forms they resolve to.
  { route: 'GET /api/dashboards/id/:dashboardId/versions', call: async ({ n }) => ({ path: `/api/dashboards/id/${await dashboardId(n)}/versions` }), expect: orgWrite() },
  { route: 'GET /api/dashboards/id/:dashboardId/versions/:version', call: async ({ n }) => ({ path: `/api/dashboards/id/${await dashboardId(n)}/versions/1` }), expect: orgWrite() },
  { route: 'POST /api/dashboards/id/:dashboardId/restore', call: async ({ n }) => ({ path: `/api/dashboards/id/${await dashboardId(n)}/restore`, body: { version: 1 } }), expect: orgWrite() },
  { route: 'GET /api/dashboards/id/:dashboardId/permissions', call: async ({ n }) => ({ path: `/api/dashboards/id/${await dashboardId(n)}/permissions` }), expect: orgAdmin() },
  {
    route: 'POST /api/dashboards/id/:dashboardId/permissions',
    call: async ({ n }) => ({ path: `/api/dashboards/id/${await dashboardId(n)}/permissions`, body: { items: [{ role: 'Viewer', permission: 1 }] } }),
    expect: orgAdmin(),
  },
  {
    route: 'POST /api/dashboards/import',
    call: ({ n }) => ({
      path: '/api/dashboards/import',
      body: { dashboard: { uid: n, title: n, panels: [{ libraryPanel: { uid: `${n}-lib` } }], __elements: { [`${n}-lib`]: { name: `L ${n}`, kind: 1, model: {} } } } },
    }),
    expect: orgWrite(),
  },
  {
    route: 'POST /api/dashboards/calculate-diff',
    call: async ({ n }) => {
      const id = Number(await dashboardId(n));
      return { path: '/api/dashboards/calculate-diff', body: { base: { dashboardId: id, version: 1 }, new: { dashboardId: id, unsavedDashboard: { title: 'E' } }, diffType: 'json' } };
    },
    expect: orgWrite(),
  },
  // Folder and dashboard permissions: <resource>.permissions:read|write, which the Admin level of the object (its
  // creator, here the server admin) and org Admins hold; Viewers and Editors of a root object have View and Edit.
  { route: 'GET /api/folders/:uid/permissions', call: async ({ n }) => ({ path: `/api/folders/${await made(FOLDERS, n, { title: n }).then((p) => p.split('/').pop())}/permissions` }), expect: orgAdmin() },
  {
    route: 'POST /api/folders/:uid/permissions',
    call: async ({ n }) => ({ path: `/api/folders/${await made(FOLDERS, n, { title: n }).then((p) => p.split('/').pop())}/permissions`, body: { items: [{ role: 'Viewer', permission: 1 }] } }),
    expect: orgAdmin(),
  },
  { route: 'GET /api/dashboards/uid/:uid/permissions', call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboard(n)}/permissions` }), expect: orgAdmin() },
  {
    route: 'POST /api/dashboards/uid/:uid/permissions',
    call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboard(n)}/permissions`, body: { items: [{ role: 'Viewer', permission: 1 }] } }),
    expect: orgAdmin(),
  },
  // Legacy folders: the anchor's route permissions (create folders:create, update and move folders:write, delete
  // folders:delete on the folder), then the registry's. Editors get write and delete on a folder made by the admin
  // from its managed permissions (the root defaults written on create give Editors Edit, inherited below).
  { route: 'GET /api/folders', call: () => ({ path: '/api/folders' }), expect: orgRead() },
  { route: 'GET /api/folders/:uid', call: async ({ n }) => ({ path: `/api/folders/${await legacyFolder(n)}` }), expect: orgRead() },
  { route: 'GET /api/folders/:uid/counts', call: async ({ n }) => ({ path: `/api/folders/${await legacyFolder(n)}/counts` }), expect: orgRead() },
  { route: 'GET /api/folders/id/:id', call: async ({ n }) => ({ path: `/api/folders/id/${await legacyFolderId(n)}` }), expect: orgRead() },
  { route: 'POST /api/folders', call: ({ n }) => ({ path: '/api/folders', body: { uid: n, title: n } }), expect: orgWrite() },
  { route: 'PUT /api/folders/:uid', call: async ({ n }) => ({ path: `/api/folders/${await legacyFolder(n)}`, body: { title: `${n}-renamed`, overwrite: true } }), expect: orgWrite() },
  { route: 'DELETE /api/folders/:uid', call: async ({ n }) => ({ path: `/api/folders/${await legacyFolder(n)}` }), expect: orgWrite() },
  {
    route: 'POST /api/folders/:uid/move',
    call: async ({ n }) => ({ path: `/api/folders/${await legacyFolder(`${n}-child`, await legacyFolder(n))}/move`, body: { parentUid: '' } }),
    expect: orgWrite(),
  },
  // Legacy playlists: the org role decides (Viewers read, Editors write), as for /apis playlists.
  { route: 'GET /api/playlists', call: () => ({ path: '/api/playlists' }), expect: orgRead() },
  { route: 'POST /api/playlists', call: ({ n }) => ({ path: '/api/playlists', body: { uid: n, name: n, interval: '5m' } }), expect: orgWrite() },
  { route: 'GET /api/playlists/:uid', call: async ({ n }) => ({ path: `/api/playlists/${await playlist(n)}` }), expect: orgRead() },
  { route: 'PUT /api/playlists/:uid', call: async ({ n }) => ({ path: `/api/playlists/${await playlist(n)}`, body: { name: 'Q', interval: '1m' } }), expect: orgWrite() },
  { route: 'DELETE /api/playlists/:uid', call: async ({ n }) => ({ path: `/api/playlists/${await playlist(n)}` }), expect: orgWrite() },
  { route: 'GET /api/playlists/:uid/items', call: async ({ n }) => ({ path: `/api/playlists/${await playlist(n)}/items` }), expect: orgRead() },
  // Annotations of the organization (made by the server admin): Viewers read them, Editors write them; a dashboard's follow its permissions (test/legacy/annotations).
  { route: 'GET /api/annotations', call: () => ({ path: '/api/annotations' }), expect: orgRead() },
  { route: 'POST /api/annotations', call: () => ({ path: '/api/annotations', body: { text: 'A' } }), expect: orgWrite() },
  { route: 'POST /api/annotations/graphite', call: () => ({ path: '/api/annotations/graphite', body: { what: 'A', tags: 'a b' } }), expect: orgWrite() },
  { route: 'POST /api/annotations/mass-delete', call: async () => ({ path: '/api/annotations/mass-delete', body: { annotationId: await orgAnnotation() } }), expect: orgWrite() },
  { route: 'GET /api/annotations/tags', call: () => ({ path: '/api/annotations/tags' }), expect: orgRead() },
  { route: 'GET /api/annotations/:annotationId', call: async () => ({ path: `/api/annotations/${await orgAnnotation()}` }), expect: orgRead() },
  { route: 'PUT /api/annotations/:annotationId', call: async () => ({ path: `/api/annotations/${await orgAnnotation()}`, body: { text: 'B' } }), expect: orgWrite() },
  { route: 'PATCH /api/annotations/:annotationId', call: async () => ({ path: `/api/annotations/${await orgAnnotation()}`, body: { text: 'B' } }), expect: orgWrite() },
  { route: 'DELETE /api/annotations/:annotationId', call: async () => ({ path: `/api/annotations/${await orgAnnotation()}` }), expect: orgWrite() },
  // Snapshots: every member takes them; reads by key and deletes by delete key need no credentials (the key is the
  // secret); a delete by key needs the creator (here the server admin), an org Admin, or write on the source dashboard.
  { route: 'POST /api/snapshots', call: () => ({ path: '/api/snapshots', body: { dashboard: { title: 'S' } } }), expect: { ...orgWrite(), viewer: 200 } },
  { route: 'GET /api/dashboard/snapshots', call: () => ({ path: '/api/dashboard/snapshots' }), expect: orgRead() },
  { route: 'GET /api/snapshots/:key', call: async () => ({ path: `/api/snapshots/${(await snapshot()).key}` }), expect: publicRoute() },
  { route: 'DELETE /api/snapshots/:key', call: async () => ({ path: `/api/snapshots/${(await snapshot()).key}` }), expect: { ...orgAdmin(), otherOrg: 403 } },
  { route: 'GET /api/snapshots-delete/:deleteKey', call: async () => ({ path: `/api/snapshots-delete/${(await snapshot()).deleteKey}` }), expect: publicRoute() },
  // The public halves of the server's signing keys, for whoever verifies its tokens.
  { route: 'GET /api/signing-keys/keys', call: () => ({ path: '/api/signing-keys/keys' }), expect: publicRoute() },
  { route: 'GET /api/snapshot/shared-options', call: () => ({ path: '/api/snapshot/shared-options' }), expect: orgRead() },
  // Public dashboards of a root dashboard of the server admin: who may read the dashboard reads its public dashboard,
  // org Admins write them (dashboards.public:write); another organization's member is refused in org 1.
  { route: 'GET /api/dashboards/public-dashboards', call: () => ({ path: '/api/dashboards/public-dashboards' }), expect: orgRead() },
  { route: 'GET /api/dashboards/uid/:dashboardUid/public-dashboards', call: async ({ n }) => ({ path: `/api/dashboards/uid/${(await sharedDashboard(n)).dashboardUid}/public-dashboards` }), expect: orgRead() },
  { route: 'POST /api/dashboards/uid/:dashboardUid/public-dashboards', call: async ({ n }) => ({ path: `/api/dashboards/uid/${await dashboardUid(n)}/public-dashboards`, body: { isEnabled: true } }), expect: orgAdmin() },
  {
    route: 'PATCH /api/dashboards/uid/:dashboardUid/public-dashboards/:uid',
    call: async ({ n }) => ({ path: await sharedDashboardPath(n), body: { isEnabled: false } }),
    expect: orgAdmin(),
  },
  { route: 'DELETE /api/dashboards/uid/:dashboardUid/public-dashboards/:uid', call: async ({ n }) => ({ path: await sharedDashboardPath(n) }), expect: orgAdmin() },
  // A visitor holds the token, nothing else: every caller, whatever its organization, gets the enabled public dashboard.
  { route: 'GET /api/public/dashboards/:accessToken', call: async ({ n }) => ({ path: `/api/public/dashboards/${(await sharedDashboard(n)).accessToken}` }), expect: publicRoute() },
  { route: 'GET /api/public/dashboards/:accessToken/annotations', call: async ({ n }) => ({ path: `/api/public/dashboards/${(await sharedDashboard(n)).accessToken}/annotations` }), expect: publicRoute() },
  {
    route: 'POST /api/public/dashboards/:accessToken/panels/:panelId/query',
    // The dashboard has no panel 1: the anchor's 404 "Public dashboard panel not found", to every caller alike.
    call: async ({ n }) => ({ path: `/api/public/dashboards/${(await sharedDashboard(n)).accessToken}/panels/1/query`, body: {} }),
    expect: publicRoute(404),
  },
  // Library elements at the root: Viewers read them (library.panels:read on the root), Editors write them.
  { route: 'GET /api/library-elements', call: () => ({ path: '/api/library-elements?searchString=E' }), expect: orgRead() },
  { route: 'GET /api/library-elements/name/:name', call: async ({ n }) => ({ path: `/api/library-elements/name/${encodeURIComponent((await element(n)).name)}` }), expect: orgRead() },
  { route: 'GET /api/library-elements/:uid', call: async ({ n }) => ({ path: `/api/library-elements/${(await element(n)).uid}` }), expect: orgRead() },
  { route: 'GET /api/library-elements/:uid/connections/', call: async ({ n }) => ({ path: `/api/library-elements/${(await element(n)).uid}/connections` }), expect: orgRead() },
  { route: 'POST /api/library-elements', call: ({ n }) => ({ path: '/api/library-elements', body: { uid: n, ...elementSpec(n) } }), expect: orgWrite() },
  {
    route: 'PATCH /api/library-elements/:uid',
    call: async ({ n }) => ({ path: `/api/library-elements/${(await element(n)).uid}`, body: { kind: 1, version: 1, name: `${n} renamed` } }),
    expect: orgWrite(),
  },
  { route: 'DELETE /api/library-elements/:uid', call: async ({ n }) => ({ path: `/api/library-elements/${(await element(n)).uid}` }), expect: orgWrite() },
];

/** A fresh root dashboard of the server admin, shared publicly (enabled): its uid, and its public dashboard's uid and token. */
async function sharedDashboard(n: string): Promise<{ dashboardUid: string; uid: string; accessToken: string }> {
  const uid = await dashboardUid(n);
  const res = await t.as.post(`/api/dashboards/uid/${uid}/public-dashboards`).send({ isEnabled: true });
  expect(res.status).toBe(200);
  return { dashboardUid: uid, uid: res.body.uid, accessToken: res.body.accessToken };
}
const sharedDashboardPath = async (n: string) => {
  const shared = await sharedDashboard(n);
  return `/api/dashboards/uid/${shared.dashboardUid}/public-dashboards/${shared.uid}`;
};

/** A fresh snapshot of org 1, taken by the server admin: its keys. */
async function snapshot(): Promise<{ key: string; deleteKey: string }> {
  const res = await t.as.post('/api/snapshots').send({ dashboard: { title: 'S' } });
  expect(res.status).toBe(200);
  return res.body;
}

/** A fresh playlist of org 1, made by the server admin: its uid. */
/** The code of a pending invite to org 1 for `<n>@invited.example.org`, made by the server admin. */
async function inviteCode(n: string): Promise<string> {
  await t.as.post('/api/org/invites').send({ loginOrEmail: `${n}@invited.example.org`, role: 'Viewer' }).expect(200);
  const list = (await t.as.get('/api/org/invites')).body as { email: string; code: string }[];
  return list.find((i) => i.email === `${n}@invited.example.org`)!.code;
}
const playlist = async (uid: string) => (await made(PLAYLISTS, uid, playlistSpec)).split('/').pop()!;

/** A fresh library element of org 1 at the root, made by the server admin through /apis. */
async function element(n: string): Promise<{ uid: string; name: string }> {
  await made(LIBRARY_PANELS, n, elementSpec(n));
  return { uid: n, name: elementSpec(n).name };
}

/** A fresh dashboard of org 1, at the root, made by the server admin: its uid. */
async function dashboard(uid: string): Promise<string> {
  return (await made(DASHBOARDS, uid, { title: uid })).split('/').pop()!;
}

/** A fresh service account of org 1, made by the server admin: its id. */
async function serviceAccount(name: string): Promise<number> {
  const res = await t.as.post('/api/serviceaccounts').send({ name });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** A fresh folder of org 1 (under `parentUid`), made by the server admin through /api: its uid. */
async function legacyFolder(uid: string, parentUid = ''): Promise<string> {
  const res = await t.as.post('/api/folders').send({ uid, title: uid, parentUid });
  expect(res.status).toBe(200);
  return uid;
}

/** A fresh root folder of org 1: its deprecated numeric id. */
async function legacyFolderId(uid: string): Promise<number> {
  await legacyFolder(uid);
  return (await t.as.get(`/api/folders/${uid}`)).body.id as number;
}

/** A fresh team of org 1, made by the server admin: its id. */
async function team(name: string): Promise<number> {
  const res = await t.as.post('/api/teams').send({ name });
  expect(res.status).toBe(200);
  return res.body.teamId as number;
}

/** A fresh Viewer of org 1 who is a member of the team `name` (made first with {@link team}). */
async function teamMember(name: string): Promise<number> {
  const id = await member(`${name}-member`);
  const teamId = (await t.as.get(`/api/teams/search?name=${name}`)).body.teams[0].id as number;
  expect((await t.as.post(`/api/teams/${teamId}/members`).send({ userId: id })).status).toBe(200);
  return id;
}

/** A fresh user that belongs to no org but its own (for admin endpoints to act on). */
async function userId(login: string): Promise<number> {
  return (await t.users!.createUser(SYSTEM, { login, password: 'password1', orgId: 1 })).id;
}

/** A fresh user with one login session (made through POST /login). */
async function signedInUser(login: string): Promise<number> {
  const id = await userId(login);
  expect((await t.anonymous.post('/login').send({ user: login, password: 'password1' })).status).toBe(200);
  return id;
}

/** A fresh Viewer of org 1. */
async function member(login: string): Promise<number> {
  const id = await userId(login);
  await t.users!.setRole(SYSTEM, 1, id, 'Viewer');
  return id;
}

/** Every route the app declares, as `METHOD path` (the paths of one route joined by commas). */
function declaredRoutes(app: Express): string[] {
  interface Layer {
    route?: { path: string | string[]; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  }
  const out = new Set<string>();
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = ([] as string[]).concat(layer.route.path).join(',');
        for (const m of Object.keys(layer.route.methods)) out.add(`${m.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return [...out];
}

const CREDENTIALS: Record<Exclude<Principal, 'anonymous' | 'serverAdmin'>, string> = {
  viewer: 'mx-viewer',
  editor: 'mx-editor',
  orgAdmin: 'mx-orgadmin',
  otherOrg: 'mx-other',
};

/** The key of the `serviceAccount` caller (an Admin of org 1), made in beforeAll. */
let serviceAccountKey = '';

function send(who: Caller, method: string, call: Call): supertest.Test {
  const verb = call.method ?? (method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete');
  let req = t.anonymous[verb](call.path);
  if (who === 'serverAdmin') req = req.auth(ADMIN.user, ADMIN.password);
  else if (who === 'serviceAccount') req = req.set('Authorization', `Bearer ${serviceAccountKey}`);
  else if (who !== 'anonymous') req = req.auth(CREDENTIALS[who], 'password1');
  if (call.path.startsWith('/api/')) req = req.set('X-Svc-Org-Id', '1');
  if (call.body !== undefined) req = req.set('Content-Type', call.contentType ?? 'application/json').send(JSON.stringify(call.body));
  return req;
}

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  t = await startTestApp();
  const mk = async (login: string, orgId: number, role: 'Viewer' | 'Editor' | 'Admin') => {
    const user = await t.users!.createUser(SYSTEM, { login, password: 'password1', orgId });
    await t.users!.setRole(SYSTEM, orgId, user.id, role);
  };
  await mk(CREDENTIALS.viewer, 1, 'Viewer');
  await mk(CREDENTIALS.editor, 1, 'Editor');
  await mk(CREDENTIALS.orgAdmin, 1, 'Admin');
  const other = await t.users!.createOrg(SYSTEM, 'Elsewhere');
  await mk(CREDENTIALS.otherOrg, other.id, 'Admin');
  const sa = await t.as.post('/api/serviceaccounts').send({ name: 'mx-robot', role: 'Admin' });
  serviceAccountKey = (await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'mx-robot' })).body.key;
  expect(serviceAccountKey).toMatch(/^svcsa_/);
});
afterAll(async () => {
  await upstream.close();
  await t.close();
});

/** The legacy routes this server declares it serves, as `METHOD path`. */
const legacyRoutes = () => servedRoutes(legacyAreas, t.config).map(routeName);

test('every route the server declares has a row in the matrix', () => {
  const routes = new Set([...legacyRoutes(), ...declaredRoutes(t.app)]);
  const covered = new Set(ROWS.map((r) => r.route));
  expect([...routes].filter((r) => !covered.has(r))).toEqual([]);
  // And no row names a route that no longer exists.
  expect([...covered].filter((r) => !routes.has(r))).toEqual([]);
});

/** `GET /api/teams/:teamId` for each operation of a Swagger 2.0 document (its paths are under `basePath`). */
function documentedRoutes(doc: { basePath: string; paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${`${doc.basePath}${path === '/' ? '' : path}`.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')}`),
  );
}

test('the legacy routes served are those declared, and each served /api route is described in /swagger.json', async () => {
  // `GET /api` is the Kubernetes core group's discovery (always 404 here), not a route of the legacy API.
  const served = declaredRoutes(t.app).filter((r) => /^[A-Z]+ \/(api\/|login$|logout$)/.test(r));
  // A wildcard (`{/*route}`) is documented as one path parameter (`/{route}`).
  const asDocumented = (r: string) => r.replace(/\{\/\*([A-Za-z0-9_]+)\}/g, '/:$1').replace(/\*([A-Za-z0-9_]+)/g, ':$1');
  // The health probe is no legacy area's: it is served before authentication, with the other probes.
  expect(served.filter((r) => r !== 'GET /api/health').sort()).toEqual(legacyRoutes().sort());
  const documented = documentedRoutes((await t.anonymous.get('/swagger.json')).body);
  expect(served.filter((r) => !documented.includes(asDocumented(r)) && !/ \/(login|logout)$/.test(r))).toEqual([]);
  // What is described and not served here is served by the enterprise edition (its custom roles), which serves all.
  const enterprise = loadConfig({ argv: ['--server.edition=enterprise'], env: {}, cwd: process.cwd() });
  const everyRoute = ['GET /api/health', ...servedRoutes(legacyAreas, enterprise).map(routeName).filter((r) => / \/api\//.test(r)).map(asDocumented)];
  expect(documented.sort()).toEqual(everyRoute.sort());
});

describe.each(ROWS.map((row) => [row.route, row] as const))('%s', (_route, row) => {
  test.each(CALLERS.map((p) => [p, expected(row.expect, p)] as const))('%s gets %i', async (who, status) => {
    const call = await row.call({ t, n: unique() });
    const res = await send(who, row.route.split(' ')[0], call);
    expect({ who, path: call.path, status: res.status }).toEqual({ who, path: call.path, status });
    // A refusal says so in the shape of its API, and never how the refused object looks.
    if (status === 401 || status === 403) {
      if (call.path.startsWith('/apis/')) expect(res.body).toMatchObject({ kind: 'Status', code: status });
      else expect(typeof res.body.message).toBe('string');
      expect(JSON.stringify(res.body)).not.toContain('"spec"');
    }
  });
});
