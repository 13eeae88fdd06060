/**
 * No input produces a 5xx. Hostile requests through both APIs (malformed paths, lying Content-Encoding, NUL and lone
 * surrogates, oversized titles and tag lists, deep nesting, YAML alias bombs, junk parameters) are answered with a
 * 4xx in the documented shape (a `Status` under /apis, `{message}` under /api) that says what is wrong, shows no
 * internal text, and stores nothing.
 */
import type supertest from 'supertest';
import { MAX_DEPTH, MAX_TAG_LENGTH, MAX_TAGS, MAX_TITLE_LENGTH } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';

let t: TestApp;
const F = '/apis/folder.svc.app/v1beta1/namespaces/default/folders';
const D = '/apis/dashboard.svc.app/v1beta1/namespaces/default/dashboards';
/** `{"n":{"n":...1...}}`, `depth` objects deep. */
const nested = (depth: number): unknown => (depth === 0 ? 1 : { n: nested(depth - 1) });
const deepText = (depth: number) => `${'{"n":'.repeat(depth)}1${'}'.repeat(depth)}`;
const manyTags = Array.from({ length: 100_000 }, (_, i) => `t${i}`);
const huge = 'x'.repeat(1_000_000);
const json = (req: supertest.Test, text: string, type = 'application/json') => req.set('Content-Type', type).send(text);
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const apply = (name: string, text: string) => t.as.patch(`${D}/${name}?fieldManager=m&force=true`).set('Content-Type', 'application/apply-patch+yaml').send(text);

/** A YAML "billion laughs": 12 levels of 10 aliases each. */
const aliasBomb = () => {
  let s = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < 12; i++) s += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]\n`;
  return s;
};

beforeAll(async () => {
  t = await startTestApp();
  expect((await t.as.post('/api/folders').send({ uid: 'f1', title: 'F1' })).status).toBe(200);
  expect((await t.as.post('/api/dashboards/db').send({ dashboard: { uid: 'd1', title: 'D1', tags: ['a'] }, folderUid: 'f1' })).status).toBe(200);
  expect((await t.as.post(D).send({ metadata: { name: 'deep' }, spec: { title: 'Deep', n: nested(60) } })).status).toBe(201);
  expect((await t.as.post('/api/teams').send({ name: 'team1' })).status).toBe(200);
});
afterAll(() => t.close());

/** Everything a hostile request could have changed: each list's names and versions. */
const snapshot = async () => {
  const items = async (path: string) => ((await t.as.get(path)).body.items as { metadata: { name: string; resourceVersion: string } }[]).map((i) => `${i.metadata.name}@${i.metadata.resourceVersion}`);
  return {
    folders: await items(F),
    dashboards: await items(D),
    search: (await t.as.get('/api/search')).body,
    teams: (await t.as.get('/api/teams/search')).body,
    users: (await t.as.get('/api/users')).body,
    orgs: (await t.as.get('/api/orgs')).body,
    serviceAccounts: (await t.as.get('/api/serviceaccounts/search')).body,
  };
};

/** label, request, what the message must say. */
type Case = [string, () => supertest.Test, RegExp];

const cases: Case[] = [
  // Malformed percent-encoding in the path: the router's 400.
  ['api: GET a folder uid of bad percent-encoding', () => t.as.get('/api/folders/%E0%A4%A/permissions'), /percent-encoding/],
  ['api: DELETE /api/folders/%', () => t.as.delete('/api/folders/%'), /percent-encoding/],
  ['apis: GET a folder name of bad percent-encoding', () => t.as.get(`${F}/%E0%A4%A`), /percent-encoding/],
  ['apis: DELETE a folder named %', () => t.as.delete(`${F}/%`), /percent-encoding/],
  ['apis: a namespace of bad percent-encoding', () => t.as.get('/apis/folder.svc.app/v1beta1/namespaces/%/folders'), /percent-encoding/],
  // A Content-Encoding the body does not have, or one the server does not know.
  ['api: gzip on a plain body', () => json(t.as.post('/api/folders').set('Content-Encoding', 'gzip'), '{"title":"gz"}'), /gzip/],
  ['apis: deflate on a plain body', () => json(t.as.post(F).set('Content-Encoding', 'deflate'), '{"metadata":{"name":"z"},"spec":{"title":"z"}}'), /deflate/],
  ['apis: br on a plain body', () => json(t.as.post(D).set('Content-Encoding', 'br'), '{"metadata":{"name":"z"},"spec":{"title":"z"}}'), /br/],
  ['api: an unknown encoding', () => json(t.as.post('/api/dashboards/db').set('Content-Encoding', 'zstd'), '{}'), /encoding/],
  // NUL and lone surrogates, wherever they are.
  ['api: a folder title with NUL', () => t.as.post('/api/folders').send({ title: 'a\u0000b' }), /title.*NUL/],
  ['api: a folder title with a lone surrogate', () => json(t.as.post('/api/folders'), '{"title":"\\ud800"}'), /title.*surrogate/],
  ['api: renaming a folder to a lone surrogate', () => json(t.as.put('/api/folders/f1'), '{"title":"\\udc00x","overwrite":true}'), /title.*surrogate/],
  ['api: a NUL deep in a dashboard', () => t.as.post('/api/dashboards/db').send({ dashboard: { title: 'x', panels: [{ title: 'p\u0000' }] } }), /dashboard\.panels\[0\]\.title.*NUL/],
  ['api: a dashboard folderUid with NUL', () => t.as.post('/api/dashboards/db').send({ dashboard: { title: 'x' }, folderUid: 'f\u0000' }), /folderUid.*NUL/],
  ['api: a version message with NUL', () => t.as.post('/api/dashboards/db').send({ dashboard: { title: 'x' }, message: 'm\u0000' }), /message.*NUL/],
  ['api: a folder uid with %00', () => t.as.get('/api/folders/a%00b'), /path.*NUL/],
  ['api: a dashboard uid with %00', () => t.as.get('/api/dashboards/uid/a%00b'), /path.*NUL/],
  ['api: moving under a parent with NUL', () => t.as.post('/api/folders/f1/move').send({ parentUid: 'a\u0000' }), /parentUid.*NUL/],
  ['api: a search query with %00', () => t.as.get('/api/search?query=a%00b'), /query.*NUL/],
  ['api: a search tag with %00', () => t.as.get('/api/search?tag=%00'), /tag.*NUL/],
  ['api: a team name with NUL', () => t.as.post('/api/teams').send({ name: 'a\u0000' }), /name.*NUL/],
  ['api: a team search with %00', () => t.as.get('/api/teams/search?query=%00'), /query.*NUL/],
  ['api: a login with NUL', () => t.as.post('/api/admin/users').send({ login: 'a\u0000', password: 'long-enough-1' }), /login.*NUL/],
  ['api: an org name with a lone surrogate', () => json(t.as.post('/api/orgs'), '{"name":"\\ud800"}'), /name.*surrogate/],
  ['api: a service account name with NUL', () => t.as.post('/api/serviceaccounts').send({ name: 'a\u0000' }), /name.*NUL/],
  ['login form: a user with NUL', () => t.anonymous.post('/login').send({ user: 'a\u0000', password: 'x' }), /user.*NUL/],
  ['apis: a folder title with NUL', () => t.as.post(F).send({ metadata: { name: 'n' }, spec: { title: 'a\u0000b' } }), /spec\.title.*NUL/],
  ['apis: a dashboard title with a lone surrogate', () => json(t.as.post(D), '{"metadata":{"name":"n"},"spec":{"title":"\\ud800"}}'), /spec\.title.*surrogate/],
  ['apis: an annotation with NUL', () => t.as.post(F).send({ metadata: { name: 'n', annotations: { a: 'x\u0000' } }, spec: { title: 't' } }), /metadata\.annotations\.a.*NUL/],
  ['apis: a label with NUL', () => t.as.post(F).send({ metadata: { name: 'n', labels: { a: 'x\u0000' } }, spec: { title: 't' } }), /NUL|label/],
  ['apis: a key with NUL', () => t.as.post(D).send({ metadata: { name: 'n' }, spec: { title: 't', ['k\u0000']: 1 } }), /key.*NUL/],
  ['apis: a name with %00', () => t.as.get(`${F}/a%00b`), /path.*NUL/],
  ['apis: a label selector with %00', () => t.as.get(`${F}?labelSelector=a%3Db%00`), /labelSelector.*NUL/],
  ['apis: a field selector with %00', () => t.as.get(`${F}?fieldSelector=metadata.name%3D%00`), /fieldSelector.*NUL/],
  ['apis: a merge patch with NUL', () => t.as.patch(`${D}/d1`).set('Content-Type', MERGE).send({ spec: { title: '\u0000' } }), /spec\.title.*NUL/],
  ['apis: a JSON patch with a lone surrogate', () => json(t.as.patch(`${D}/d1`), '[{"op":"replace","path":"/spec/title","value":"\\udfff"}]', JSON_PATCH), /value.*surrogate/],
  ['apis: an apply patch with NUL', () => apply('d1', 'apiVersion: dashboard.svc.app/v1beta1\nkind: Dashboard\nmetadata:\n  name: d1\nspec:\n  title: "a\\0b"\n'), /spec\.title.*NUL/],
  ['apis: a fieldManager with %00', () => t.as.post(`${F}?fieldManager=a%00`).send({ metadata: { name: 'n' }, spec: { title: 't' } }), /fieldManager.*NUL/],
  // Titles and names beyond their limits (the search index holds titles).
  ['api: a 1,000,000-character folder title', () => t.as.post('/api/folders').send({ title: huge }), /title.*5000/],
  ['api: a 1,000,000-character dashboard title', () => t.as.post('/api/dashboards/db').send({ dashboard: { title: huge } }), /title.*5000/],
  ['apis: a 1,000,000-character folder title', () => t.as.post(F).send({ metadata: { name: 'n' }, spec: { title: huge } }), /spec\.title.*5000/],
  ['apis: a 1,000,000-character dashboard title', () => t.as.post(D).send({ metadata: { name: 'n' }, spec: { title: huge } }), /spec\.title.*5000/],
  ['api: a 1,000,000-character team name', () => t.as.post('/api/teams').send({ name: huge }), /name.*190/],
  ['api: a 1,000,000-character login', () => t.as.post('/api/admin/users').send({ login: huge, password: 'long-enough-1' }), /login.*190/],
  ['api: a 1,000,000-character org name', () => t.as.post('/api/orgs').send({ name: huge }), /name.*190/],
  // Tags.
  ['api: 100,000 tags', () => t.as.post('/api/dashboards/db').send({ dashboard: { title: 'tags', tags: manyTags } }), /tags.*1000/],
  ['apis: 100,000 tags', () => t.as.post(D).send({ metadata: { name: 'n' }, spec: { title: 'tags', tags: manyTags } }), /spec\.tags.*1000/],
  ['apis: a tag too long', () => t.as.post(D).send({ metadata: { name: 'n' }, spec: { title: 'tags', tags: ['y'.repeat(MAX_TAG_LENGTH + 1)] } }), /spec\.tags\[0\].*200/],
  // Depth.
  ['api: a dashboard nested 10,000 deep', () => json(t.as.post('/api/dashboards/db'), `{"dashboard":{"title":"deep","x":${deepText(10_000)}}}`), /nested more than 100/],
  ['apis: a dashboard nested 10,000 deep', () => json(t.as.post(D), `{"metadata":{"name":"n"},"spec":{"title":"d","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`), /nested more than 100/],
  ['apis: a merge patch nested 10,000 deep', () => t.as.patch(`${D}/d1`).set('Content-Type', MERGE).send(`{"spec":{"x":${deepText(10_000)}}}`), /nested more than 100/],
  ['apis: an apply patch nested 10,000 deep', () => apply('d1', `{"apiVersion":"dashboard.svc.app/v1beta1","kind":"Dashboard","metadata":{"name":"d1"},"spec":{"title":"D1","x":${deepText(10_000)}}}`), /nested more than 100/],
  ['apis: an apply patch nested 200 deep', () => apply('d1', `{"apiVersion":"dashboard.svc.app/v1beta1","kind":"Dashboard","metadata":{"name":"d1"},"spec":{"title":"D1","x":${deepText(200)}}}`), /nested more than 100/],
  ['apis: a JSON patch that nests an object past the limit', () => t.as.patch(`${D}/deep`).set('Content-Type', JSON_PATCH).send([{ op: 'add', path: `/spec${'/n'.repeat(60)}`, value: nested(60) }]), /spec\.n.*nested more than 100/],
  // YAML.
  ['apis: a YAML alias bomb', () => apply('d1', aliasBomb()), /alias/],
  // Bodies of the wrong shape, keys and numbers JSON objects should not have.
  ['apis: a JSON array where an object is expected', () => t.as.post(F).send([1]), /JSON object/],
  ['apis: a JSON number where an object is expected', () => json(t.as.post(F), '12'), /JSON object/],
  ['api: a JSON string where an object is expected', () => json(t.as.post('/api/dashboards/db'), '"x"'), /bad request/],
  ['apis: a __proto__ key', () => json(t.as.post(F), '{"__proto__":{"x":1},"metadata":{"name":"n"},"spec":{"title":"p"}}'), /__proto__/],
  ['api: a __proto__ key', () => json(t.as.post('/api/folders'), '{"title":"p","__proto__":{"title":"x"}}'), /__proto__/],
  ['apis: a merge patch with a __proto__ key', () => json(t.as.patch(`${D}/d1`), '{"spec":{"__proto__":{"polluted":1}}}', MERGE), /__proto__/],
  ['apis: a JSON patch into __proto__', () => t.as.patch(`${D}/d1`).set('Content-Type', JSON_PATCH).send([{ op: 'add', path: '/spec/__proto__/polluted', value: 1 }]), /__proto__/],
  ['apis: a number too large for JSON', () => json(t.as.post(D), '{"metadata":{"name":"n"},"spec":{"title":"t","x":1e400}}'), /spec\.x.*number/],
  ['apis: a text body', () => t.as.post(F).set('Content-Type', 'text/plain').send('x'), /media types/],
  ['apis: a Latin-1 body', () => t.as.post(F).set('Content-Type', 'application/json; charset=latin1').send('{}'), /charset/],
  // Junk parameters.
  ['apis: an invalid continue token', () => t.as.get(`${F}?limit=1&continue=abc`), /continue/],
  ['apis: a continue token whose key holds NUL', () => t.as.get(`${F}?limit=1&continue=${Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: 'a\u0000b\u0000' })).toString('base64url')}`), /continue/],
  ['apis: a JSON patch removing the spec', () => t.as.patch(`${D}/d1`).set('Content-Type', JSON_PATCH).send([{ op: 'remove', path: '/spec' }]), /spec: Required value/],
  ['apis: an invalid label selector', () => t.as.get(`${F}?labelSelector=a%20in%20(`), /requirement/],
  ['apis: an invalid field selector', () => t.as.get(`${F}?fieldSelector=spec.x%3D1`), /field label/],
  ['apis: limit=-1', () => t.as.get(`${F}?limit=-1`), /limit/],
  ['apis: limit=abc', () => t.as.get(`${F}?limit=abc`), /limit/],
  ['apis: limit=1e309', () => t.as.get(`${F}?limit=1e309`), /limit/],
  ['apis: a watch with timeoutSeconds=abc', () => t.as.get(`${F}?watch=true&timeoutSeconds=abc`), /timeoutSeconds/],
  ['apis: a watch from resourceVersion=abc', () => t.as.get(`${F}?watch=true&resourceVersion=abc`), /resourceVersion/],
  ['apis: a query parameter given twice', () => t.as.get(`${F}?limit=1&limit=2`), /limit/],
  ['api: an org header of junk', () => t.as.get('/api/folders').set('X-Svc-Org-Id', '99999999999999999999999'), /./],
];

it('every hostile request is a 4xx in the documented shape, without internal text, and changes nothing', async () => {
  const before = await snapshot();
  const wrong: string[] = [];
  for (const [label, send, says] of cases) {
    const res = await send();
    const body = res.body as { message?: unknown; kind?: unknown; code?: unknown; details?: { causes?: unknown } };
    const text = JSON.stringify(body);
    const apis = label.startsWith('apis');
    const shaped = apis ? body.kind === 'Status' && body.code === res.status && typeof body.message === 'string' : typeof body.message === 'string' && body.kind === undefined;
    const internal = /node_modules|\.ts:\d|\.js:\d|Maximum call stack|bind message|byte sequence|Unicode escape|index row|syntax for type|Error:|an internal error/.test(text);
    if (res.status < 400 || res.status >= 500 || !shaped || internal || !says.test(`${String(body.message)} ${JSON.stringify(body.details?.causes ?? '')}`)) wrong.push(`${label}: ${res.status} ${text.slice(0, 300)}`);
  }
  expect(wrong).toEqual([]);
  expect(await snapshot()).toEqual(before);
}, 120_000);

it('what the limits allow is stored and found: the longest title, the most and longest tags, the deepest spec', async () => {
  // Random CJK text does not compress: every byte of it reaches the search index.
  const cjk = (n: number, seed: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919 + seed) % 20000))).join('');
  const title = cjk(MAX_TITLE_LENGTH, 1);
  const tags = Array.from({ length: MAX_TAGS }, (_, i) => cjk(MAX_TAG_LENGTH, i));
  const created = await t.as.post(D).send({ metadata: { name: 'at-limits' }, spec: { title, tags, n: nested(MAX_DEPTH - 3) } });
  expect([created.status, created.body.message]).toEqual([201, undefined]);
  const folder = await t.as.post('/api/folders').send({ uid: 'long', title: cjk(MAX_TITLE_LENGTH, 2) });
  expect([folder.status, folder.body.message]).toEqual([200, undefined]);
  const hits = (await t.as.get(`/api/search?tag=${encodeURIComponent(tags[MAX_TAGS - 1])}`)).body as { uid: string; title: string; tags: string[] }[];
  expect(hits.map((h) => [h.uid, h.title === title, h.tags.length])).toEqual([['at-limits', true, MAX_TAGS]]);
  const found = (await t.as.get(`/api/search?type=dash-db&query=${encodeURIComponent(title.slice(-20))}`)).body as { uid: string }[];
  expect(found.map((h) => h.uid)).toEqual(['at-limits']);
}, 60_000);
