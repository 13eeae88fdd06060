/**
 * pkg/plugins/instances.ts over a real registry: a stored data source becomes a plugin's instance with its secrets in
 * clear, cached per resourceVersion; a change or a deletion makes its plugin dispose of it; uid validation, another
 * organization's data source and the deprecated id resolve as the routes need.
 */
import { StatusError } from '../../pkg/errors';
import { DataSourceInstances } from '../../pkg/plugins/instances';
import type { DataSourcePlugin } from '../../pkg/plugins';
import type { RequestContext } from '../../pkg/registry';
import { startTestApp, type TestApp } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A plugin that answers nothing but records what it is told to release. */
function recordingPlugin(disposed: string[]): DataSourcePlugin {
  return {
    id: 'svc-recording-datasource',
    aliases: ['recording'],
    name: 'Recording',
    checkHealth: async () => ({ status: 'OK', message: 'ok' }),
    query: async () => ({}),
    dispose: async (ns, uid) => {
      disposed.push(`${ns}/${uid}`);
    },
  };
}

const ctx = (namespace = 'default'): RequestContext => ({ requester: { identity: 'user:test' }, namespace, fieldManager: 'test' });

async function statusOf(p: Promise<unknown>): Promise<[number, string]> {
  try {
    await p;
    return [200, ''];
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return [err.code, err.message];
  }
}

it('decrypts the secrets, caches per resourceVersion and disposes on change and deletion', async () => {
  const created = await t.as.post('/api/datasources').send({
    uid: 'inst-a', name: 'inst-a', type: 'recording', access: 'proxy', url: 'http://upstream.example', basicAuth: true, basicAuthUser: 'u',
    jsonData: { httpHeaderName1: 'X-Key' }, secureJsonData: { basicAuthPassword: 's3cret', httpHeaderValue1: 'k' },
  });
  expect(created.status).toBe(200);
  const disposed: string[] = [];
  const instances = new DataSourceInstances({ registry: t.registry, plugins: [recordingPlugin(disposed)] });

  const first = await instances.resolve(ctx(), { uid: 'inst-a' });
  expect(first.plugin?.id).toBe('svc-recording-datasource');
  expect(first.instance).toMatchObject({
    namespace: 'default', uid: 'inst-a', id: created.body.id, name: 'inst-a', type: 'recording', url: 'http://upstream.example', basicAuth: true,
    basicAuthUser: 'u', jsonData: { httpHeaderName1: 'X-Key' }, secure: { basicAuthPassword: 's3cret', httpHeaderValue1: 'k' },
  });
  expect((await instances.resolve(ctx(), { id: created.body.id })).instance).toBe(first.instance);
  expect(disposed).toEqual([]);

  const record = (await t.as.get('/api/datasources/uid/inst-a')).body;
  expect((await t.as.put('/api/datasources/uid/inst-a').send({ ...record, url: 'http://other.example' })).status).toBe(200);
  const second = await instances.resolve(ctx(), { uid: 'inst-a' });
  expect(second.instance.url).toBe('http://other.example');
  expect(second.instance.secure.basicAuthPassword).toBe('s3cret');
  expect(second.instance.resourceVersion).not.toBe(first.instance.resourceVersion);
  expect(disposed).toEqual(['default/inst-a']);

  expect((await t.as.delete('/api/datasources/uid/inst-a')).status).toBe(200);
  expect(await statusOf(instances.resolve(ctx(), { uid: 'inst-a' }))).toEqual([404, 'Data source not found']);
  expect(disposed).toEqual(['default/inst-a', 'default/inst-a']);
  // Nothing cached any more: a second miss disposes nothing.
  expect(await statusOf(instances.resolve(ctx(), { uid: 'inst-a' }))).toEqual([404, 'Data source not found']);
  expect(disposed).toHaveLength(2);
});

it('answers 400 for a malformed uid, 404 for another organization or an unknown id, 403 without the query permission', async () => {
  expect((await t.as.post('/api/datasources').send({ uid: 'inst-b', name: 'inst-b', type: 'loki', access: 'proxy', url: 'http://loki' })).status).toBe(200);
  const instances = new DataSourceInstances({ registry: t.registry, plugins: [] });
  for (const uid of ['', 'a/b', 'x'.repeat(41), 'a b', '..']) expect(await statusOf(instances.resolve(ctx(), { uid }))).toEqual([400, 'UID is invalid']);
  expect(await statusOf(instances.resolve(ctx('org-2'), { uid: 'inst-b' }))).toEqual([404, 'Data source not found']);
  for (const id of [0, -1, 999999, 1.5]) expect(await statusOf(instances.resolve(ctx(), { id }))).toEqual([404, 'Data source not found']);
  const denied: RequestContext = { ...ctx(), access: { can: async () => false, filter: async () => [] } };
  expect(await statusOf(instances.resolve(denied, { uid: 'inst-b' }))).toEqual([403, 'Access denied to datasource']);
  expect(await statusOf(instances.resolve(denied, { uid: 'inst-b' }, { deniedMessage: 'Access denied to data source' }))).toEqual([403, 'Access denied to data source']);
  // No plugin serves `loki` here: the instance is still built (the proxy needs none), the plugin is undefined.
  const found = await instances.resolve(ctx(), { uid: 'inst-b' });
  expect(found.plugin).toBeUndefined();
  expect(found.instance.secure).toEqual({});
});
