/**
 * The legacy data source API (spec §4.5, §9.4) through HTTP, on a real database: every CRUD route and its answers
 * in the anchor's words (anchor-breadth §1), the rules the DataSource kind keeps (unique names, one default,
 * versions, read-only), and bad input that changes nothing.
 */
import { startTestApp, type TestApp } from '../support/app';
import { DATASOURCES } from '../support/paths';
import { as, createUser } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Saved {
  datasource: Record<string, unknown> & { id: number; uid: string; version: number; isDefault: boolean };
  id: number;
  message: string;
  name: string;
}

async function add(body: Record<string, unknown>): Promise<Saved> {
  const res = await t.as.post('/api/datasources').send({ type: 'prometheus', access: 'proxy', url: 'http://prometheus:9090', ...body });
  expect(res.status).toBe(200);
  return res.body as Saved;
}

/** Everything stored, as the admin lists it: to show a refused request changed nothing. */
const everything = async () => (await t.as.get('/api/datasources')).body as Record<string, unknown>[];

describe('POST /api/datasources', () => {
  it('creates a data source and answers {datasource, id, message, name}; the first of the org is its default', async () => {
    const res = await t.as.post('/api/datasources').send({ name: 'Prom', uid: 'prom', type: 'prometheus', access: 'proxy', url: 'http://prometheus:9090', basicAuth: true, basicAuthUser: 'u', jsonData: { httpMethod: 'POST' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      datasource: {
        id: res.body.id,
        uid: 'prom',
        orgId: 1,
        name: 'Prom',
        type: 'prometheus',
        typeLogoUrl: expect.stringContaining('prometheus'),
        access: 'proxy',
        url: 'http://prometheus:9090',
        password: '',
        user: '',
        database: '',
        basicAuth: true,
        basicAuthUser: 'u',
        basicAuthPassword: '',
        withCredentials: false,
        isDefault: true,
        jsonData: { httpMethod: 'POST' },
        secureJsonFields: {},
        version: 1,
        readOnly: false,
      },
      id: expect.any(Number),
      message: 'Datasource added',
      name: 'Prom',
    });
  });

  it('generates a uid, names a data source after its type when it has no name, and makes only the first the default', async () => {
    const a = await add({ type: 'svc-testdata-datasource', url: '' });
    const b = await add({ type: 'svc-testdata-datasource', url: '' });
    expect(a.name).toBe('svc-testdata-datasource');
    expect(b.name).toBe('svc-testdata-datasource-1');
    expect(a.datasource.uid).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(a.datasource.uid).not.toBe(b.datasource.uid);
    expect([a.datasource.isDefault, b.datasource.isDefault]).toEqual([false, false]);
  });

  it('refuses a taken name or uid with 409 and the anchor message', async () => {
    await add({ name: 'Taken', uid: 'taken' });
    const byName = await t.as.post('/api/datasources').send({ name: 'Taken', type: 'loki', access: 'proxy', url: 'http://loki' });
    expect([byName.status, byName.body]).toEqual([409, { message: 'data source with the same name already exists' }]);
    const byUid = await t.as.post('/api/datasources').send({ name: 'Other', uid: 'taken', type: 'loki', access: 'proxy', url: 'http://loki' });
    expect([byUid.status, byUid.body]).toEqual([409, { message: 'data source with the same uid already exists' }]);
  });

  it('keeps one default per organization: a new default takes it from the old one', async () => {
    const before = (await everything()).find((d) => d.isDefault);
    const next = await add({ name: 'New default', isDefault: true });
    expect(next.datasource.isDefault).toBe(true);
    const defaults = (await everything()).filter((d) => d.isDefault);
    expect(defaults.map((d) => d.uid)).toEqual([next.datasource.uid]);
    expect(before?.uid).not.toBe(next.datasource.uid);
    // Through /apis, the old default changed: a new generation without the flag.
    const old = (await t.as.get(`${DATASOURCES}/${before!.uid}`)).body;
    expect(old.spec.isDefault).toBe(false);
    expect(old.metadata.generation).toBe(2);
  });
});

describe('GET /api/datasources', () => {
  it('lists the list-item shape sorted by name, case folded', async () => {
    await add({ name: 'b-second' });
    await add({ name: 'A-first' });
    const list = await everything();
    const names = list.map((d) => d.name as string);
    expect(names).toEqual([...names].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
    const item = list.find((d) => d.name === 'A-first')!;
    expect(Object.keys(item).sort()).toEqual(['access', 'basicAuth', 'database', 'id', 'isDefault', 'jsonData', 'name', 'orgId', 'readOnly', 'type', 'typeLogoUrl', 'typeName', 'uid', 'url', 'user'].sort());
    expect(item).toMatchObject({ type: 'prometheus', typeName: 'Prometheus', jsonData: null });
  });

  it('answers at most datasources.datasource_limit data sources', async () => {
    const small = await startTestApp(['--datasources.datasource_limit=2']);
    try {
      for (const name of ['c', 'a', 'b']) expect((await small.as.post('/api/datasources').send({ name, type: 'loki', access: 'proxy', url: 'http://loki' })).status).toBe(200);
      expect((await small.as.get('/api/datasources')).body.map((d: { name: string }) => d.name)).toEqual(['a', 'b']);
    } finally {
      await small.close();
    }
  });

  it('is for Admins: Viewers and Editors get 403, and never see another organization', async () => {
    await createUser(t, 'ds-viewer', { 1: 'Viewer' });
    await createUser(t, 'ds-editor', { 1: 'Editor' });
    expect((await as(t, 'ds-viewer').get('/api/datasources')).status).toBe(403);
    expect((await as(t, 'ds-editor').get('/api/datasources')).status).toBe(403);
    const org = await t.as.post('/api/orgs').send({ name: 'DS Elsewhere' });
    const other = await t.as.get('/api/datasources').set('X-Svc-Org-Id', String(org.body.orgId));
    expect([other.status, other.body]).toEqual([200, []]);
  });
});

describe('GET, PUT, DELETE /api/datasources/uid/:uid', () => {
  it('reads the record, with accessControl on request', async () => {
    const { datasource } = await add({ name: 'Readable', uid: 'readable' });
    const res = await t.as.get('/api/datasources/uid/readable?accesscontrol=true');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ...datasource, accessControl: { 'datasources:read': true, 'datasources:write': true, 'datasources:delete': true } });
    expect([(await t.as.get('/api/datasources/uid/nope')).status, (await t.as.get('/api/datasources/uid/nope')).body]).toEqual([404, { message: 'Data source not found' }]);
  });

  it('replaces the record, adds 1 to version, and refuses a stale version with 409', async () => {
    const { datasource } = await add({ name: 'Versioned', uid: 'versioned' });
    const put = await t.as.put('/api/datasources/uid/versioned').send({ ...datasource, url: 'http://prometheus-2:9090', version: 1 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ message: 'Datasource updated', id: datasource.id, name: 'Versioned', datasource: { url: 'http://prometheus-2:9090', version: 2 } });
    const stale = await t.as.put('/api/datasources/uid/versioned').send({ ...datasource, url: 'http://prometheus-3:9090', version: 1 });
    expect([stale.status, stale.body]).toEqual([409, { message: 'Datasource has already been updated by someone else. Please reload and try again' }]);
    expect((await t.as.get('/api/datasources/uid/versioned')).body.url).toBe('http://prometheus-2:9090');
    // Without a version there is no check.
    expect((await t.as.put('/api/datasources/uid/versioned').send({ name: 'Versioned', type: 'prometheus', access: 'proxy', url: 'http://p4' })).status).toBe(200);
  });

  it('refuses a rename onto another name (409), a changed uid (400), and a body without name, type or access (400)', async () => {
    await add({ name: 'Rename A', uid: 'rename-a' });
    await add({ name: 'Rename B', uid: 'rename-b' });
    const taken = await t.as.put('/api/datasources/uid/rename-b').send({ name: 'Rename A', type: 'prometheus', access: 'proxy', url: 'http://p' });
    expect([taken.status, taken.body]).toEqual([409, { message: 'Failed to update datasource: data source with the same name already exists' }]);
    expect((await t.as.put('/api/datasources/uid/rename-b').send({ uid: 'other', name: 'Rename B', type: 'prometheus', access: 'proxy', url: 'http://p' })).status).toBe(400);
    const missing = await t.as.put('/api/datasources/uid/rename-b').send({ type: 'prometheus', access: 'proxy' });
    expect([missing.status, missing.body]).toEqual([400, { message: 'bad request data' }]);
    expect((await t.as.get('/api/datasources/uid/rename-b')).body).toMatchObject({ name: 'Rename B', version: 1 });
  });

  it('deletes and answers {message, id}; 404 afterwards', async () => {
    const { id } = await add({ name: 'Doomed', uid: 'doomed' });
    const res = await t.as.delete('/api/datasources/uid/doomed');
    expect([res.status, res.body]).toEqual([200, { message: 'Data source deleted', id }]);
    expect((await t.as.delete('/api/datasources/uid/doomed')).status).toBe(404);
  });

  it('refuses to change or delete a read-only (provisioned) data source, under both APIs', async () => {
    const created = await t.as.post(DATASOURCES).send({ metadata: { name: 'provisioned' }, spec: { name: 'Provisioned', type: 'loki', url: 'http://loki', readOnly: true } });
    expect(created.status).toBe(201);
    const put = await t.as.put('/api/datasources/uid/provisioned').send({ name: 'Provisioned', type: 'loki', access: 'proxy', url: 'http://other' });
    expect([put.status, put.body]).toEqual([403, { message: 'Cannot update read-only data source' }]);
    const del = await t.as.delete('/api/datasources/uid/provisioned');
    expect([del.status, del.body]).toEqual([403, { message: 'Cannot delete read-only data source' }]);
    const patch = await t.as.patch(`${DATASOURCES}/provisioned`).set('Content-Type', 'application/merge-patch+json').send({ spec: { url: 'http://x' } });
    expect(patch.status).toBe(403);
    expect((await t.as.delete(`${DATASOURCES}/provisioned`)).status).toBe(403);
    expect((await t.as.get('/api/datasources/uid/provisioned')).body).toMatchObject({ url: 'http://loki', readOnly: true, version: 1 });
  });
});

describe('the deprecated routes (by id and by name)', () => {
  it('read, replace and delete by id, as the anchor answers them', async () => {
    const { id, datasource } = await add({ name: 'By id', uid: 'by-id' });
    expect((await t.as.get(`/api/datasources/${id}`)).body).toMatchObject({ uid: 'by-id', id });
    expect([(await t.as.get('/api/datasources/abc')).status, (await t.as.get('/api/datasources/abc')).body]).toEqual([400, { message: 'id is invalid' }]);
    expect((await t.as.get('/api/datasources/999999')).body).toEqual({ message: 'Data source not found' });
    const put = await t.as.put(`/api/datasources/${id}`).send({ ...datasource, url: 'http://moved', version: 1 });
    expect(put.body).toMatchObject({ message: 'Datasource updated', datasource: { url: 'http://moved', version: 2 } });
    expect((await t.as.delete('/api/datasources/0')).body).toEqual({ message: 'Missing valid datasource id' });
    expect((await t.as.delete(`/api/datasources/${id}`)).body).toEqual({ message: 'Data source deleted' });
  });

  it('read the id of a name, read and delete by name', async () => {
    const { id } = await add({ name: 'Named one', uid: 'named-one' });
    expect((await t.as.get('/api/datasources/id/Named%20one')).body).toEqual({ id });
    const byName = await t.as.get('/api/datasources/name/Named%20one?accesscontrol=true');
    expect(byName.body).toMatchObject({ uid: 'named-one', id });
    expect(byName.body.accessControl).toBeUndefined();
    expect((await t.as.get('/api/datasources/name/nobody')).status).toBe(404);
    expect((await t.as.delete('/api/datasources/name/Named%20one')).body).toEqual({ message: 'Data source deleted', id });
    expect((await t.as.get('/api/datasources/id/Named%20one')).status).toBe(404);
  });
});

describe('secure fields', () => {
  it('answers which secure keys are set, never their values (the legacy basicAuthPassword is one of them)', async () => {
    const { datasource } = await add({ name: 'Secret keys', uid: 'secret-keys', basicAuthPassword: 'hunter2', secureJsonData: { httpHeaderValue1: 'Bearer abc' } });
    expect(datasource.secureJsonFields).toEqual({ basicAuthPassword: true, httpHeaderValue1: true });
    expect(datasource).toMatchObject({ basicAuthPassword: '', password: '' });
    expect(JSON.stringify(datasource)).not.toMatch(/hunter2|Bearer abc/);
    expect(JSON.stringify((await t.as.get('/api/datasources/uid/secret-keys')).body)).not.toMatch(/hunter2|Bearer abc/);
  });

  it('on update, omitted secure keys keep their value and "" removes one', async () => {
    await add({ name: 'Secret', uid: 'secret', basicAuthPassword: 'hunter2', secureJsonData: { httpHeaderValue1: 'Bearer abc' } });
    const put = await t.as.put('/api/datasources/uid/secret').send({ name: 'Secret', type: 'prometheus', access: 'proxy', url: 'http://p', secureJsonData: { httpHeaderValue1: '' } });
    expect(put.body.datasource.secureJsonFields).toEqual({ basicAuthPassword: true });
    const read = await t.as.get('/api/datasources/uid/secret');
    expect(read.body.secureJsonFields).toEqual({ basicAuthPassword: true });
    expect(JSON.stringify(read.body)).not.toMatch(/hunter2|Bearer abc/);
    expect(JSON.stringify((await t.as.get(`${DATASOURCES}/secret`)).body)).not.toMatch(/hunter2|Bearer abc/);
    // The clear value server code reads (a proxy would send it).
    const obj = (await t.as.get(`${DATASOURCES}/secret`)).body;
    expect(await t.registry.secureValues(t.registry.kinds.find((k) => k.kind === 'DataSource')!, 'default', obj.metadata.name)).toEqual({ basicAuthPassword: 'hunter2' });
  });
});

describe('bad input: a clear 4xx that changes nothing', () => {
  const cases: [string, () => Promise<{ status: number; body: unknown }>, number, unknown][] = [
    ['a missing type', () => t.as.post('/api/datasources').send({ name: 'x1', access: 'proxy' }), 400, { message: 'bad request data' }],
    ['a missing access', () => t.as.post('/api/datasources').send({ name: 'x2', type: 'loki' }), 400, { message: 'bad request data' }],
    ['a bad URL', () => t.as.post('/api/datasources').send({ name: 'x3', type: 'loki', access: 'proxy', url: 'http://exa mple.com' }), 400, { message: 'Validation error, invalid URL' }],
    ['no URL for a type that needs one', () => t.as.post('/api/datasources').send({ name: 'x4', type: 'loki', access: 'proxy' }), 400, { message: 'Validation error, invalid URL' }],
    ['a 41-character uid', () => t.as.post('/api/datasources').send({ name: 'x5', uid: 'u'.repeat(41), type: 'loki', access: 'proxy', url: 'http://l' }), 400, { statusCode: 400, messageId: 'datasource.uidInvalid', message: 'Invalid datasource UID.' }],
    ['a uid with a slash', () => t.as.post('/api/datasources').send({ name: 'x6', uid: 'a/b', type: 'loki', access: 'proxy', url: 'http://l' }), 400, { statusCode: 400, messageId: 'datasource.uidInvalid', message: 'Invalid datasource UID.' }],
    ['a 191-character name', () => t.as.post('/api/datasources').send({ name: 'n'.repeat(191), type: 'loki', access: 'proxy', url: 'http://l' }), 400, { statusCode: 400, messageId: 'datasource.nameInvalid', message: 'Invalid datasource name.' }],
    ['a 256-character URL', () => t.as.post('/api/datasources').send({ name: 'x7', type: 'loki', access: 'proxy', url: `http://${'h'.repeat(250)}` }), 400, { statusCode: 400, messageId: 'datasource.urlInvalid', message: 'Invalid datasource url.' }],
    ['an access of neither proxy nor direct', () => t.as.post('/api/datasources').send({ name: 'x8', type: 'loki', access: 'sideways', url: 'http://l' }), 400, expect.objectContaining({ message: expect.stringContaining('access') })],
    ['wrong types', () => t.as.post('/api/datasources').send({ name: 'x9', type: 'loki', access: 'proxy', url: 'http://l', isDefault: 'yes', jsonData: [1] }), 400, { message: 'bad request data' }],
    ['secrets that are no strings', () => t.as.post('/api/datasources').send({ name: 'x10', type: 'loki', access: 'proxy', url: 'http://l', secureJsonData: { password: 1 } }), 400, { message: 'bad request data' }],
    ['a body that is no object', () => t.as.post('/api/datasources').send([1, 2]), 400, { message: 'bad request data' }],
    ['1 MB of jsonData', () => t.as.post('/api/datasources').send({ name: 'x11', type: 'loki', access: 'proxy', url: 'http://l', jsonData: { blob: 'x'.repeat(1024 * 1024) } }), 400, { message: 'jsonData too large, max 262144 bytes' }],
    ['an unknown uid', () => t.as.put('/api/datasources/uid/unknown-uid').send({ name: 'x12', type: 'loki', access: 'proxy', url: 'http://l' }), 404, { message: 'Data source not found' }],
    ['an unknown uid (delete)', () => t.as.delete('/api/datasources/uid/unknown-uid'), 404, { message: 'Data source not found' }],
  ];
  it.each(cases)('%s', async (_what, call, status, body) => {
    const before = await everything();
    const res = await call();
    expect([res.status, res.body]).toEqual([status, body]);
    expect(await everything()).toEqual(before);
  });

  it("another organization's uid is not found, and stays as it was", async () => {
    const org = await t.as.post('/api/orgs').send({ name: 'DS Other Org' });
    const other = String(org.body.orgId);
    expect((await t.as.post('/api/datasources').set('X-Svc-Org-Id', other).send({ name: 'Theirs', uid: 'theirs', type: 'loki', access: 'proxy', url: 'http://l' })).status).toBe(200);
    expect((await t.as.get('/api/datasources/uid/theirs')).status).toBe(404);
    expect((await t.as.put('/api/datasources/uid/theirs').send({ name: 'Mine', type: 'loki', access: 'proxy', url: 'http://x' })).status).toBe(404);
    expect((await t.as.delete('/api/datasources/uid/theirs')).status).toBe(404);
    expect((await t.as.get('/api/datasources/uid/theirs').set('X-Svc-Org-Id', other)).body).toMatchObject({ name: 'Theirs', url: 'http://l', version: 1 });
  });
});
