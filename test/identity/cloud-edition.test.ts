import { SYSTEM } from '../../pkg/auth/identity-directory';
import { ServiceAccounts } from '../../pkg/auth/service-accounts';
import { ConfigError, loadConfig } from '../../pkg/config';
import { ADMIN, startTestApp, type TestApp } from '../support/app';

/**
 * The cloud edition: bearer tokens only (spec §5.2, basic credentials 401) and organization 1 named
 * `stacks-<stack_id>` (spec §9.3), where `default` names nothing.
 */
const STACK = '4242';
const NS = `stacks-${STACK}`;
const folders = (ns: string) => `/apis/folder.svc.app/v1beta1/namespaces/${ns}/folders`;

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp(['--server.edition=cloud', `--server.stack_id=${STACK}`]);
  // A service account of org 1 and its token, made as an operator's provisioning would.
  const accounts = new ServiceAccounts(t.users!.registry, t.storage);
  const sa = await accounts.create(SYSTEM, 1, { name: 'cloud-ci', role: 'Admin' });
  key = (await accounts.addToken(SYSTEM, sa, { name: 'deploy' })).key;
});
afterAll(async () => {
  await t.close();
});

const bearer = {
  get: (p: string) => t.anonymous.get(p).set('Authorization', `Bearer ${key}`),
  post: (p: string) => t.anonymous.post(p).set('Authorization', `Bearer ${key}`),
};

describe('authentication', () => {
  it('refuses basic credentials with 401, even the administrator\'s, in the shape of each API', async () => {
    const legacy = await t.anonymous.get('/api/access-control/user/permissions').auth(ADMIN.user, ADMIN.password);
    expect(legacy.status).toBe(401);
    expect(legacy.body).toEqual({ message: 'Unauthorized' });
    const apis = await t.anonymous.get(folders(NS)).auth(ADMIN.user, ADMIN.password);
    expect(apis.status).toBe(401);
    expect(apis.body).toMatchObject({ kind: 'Status', code: 401, reason: 'Unauthorized' });
    expect((await t.anonymous.get('/api/user').auth(ADMIN.user, ADMIN.password)).status).toBe(401);
  });

  it('accepts a service-account token', async () => {
    const res = await bearer.get('/api/access-control/user/permissions');
    expect(res.status).toBe(200);
    expect(res.body['teams:create']).toEqual(['']);
  });
});

describe('namespaces', () => {
  it('serves organization 1 as stacks-<stack_id>', async () => {
    const created = await bearer.post(folders(NS)).send({ metadata: { name: 'cloud-folder' }, spec: { title: 'In the stack' } });
    expect(created.status).toBe(201);
    expect(created.body.metadata).toMatchObject({ name: 'cloud-folder', namespace: NS });
    const list = await bearer.get(folders(NS));
    expect(list.status).toBe(200);
    expect(list.body.items.map((f: { metadata: { name: string; namespace: string } }) => [f.metadata.name, f.metadata.namespace])).toEqual([['cloud-folder', NS]]);
  });

  it('does not serve default, nor another stack', async () => {
    for (const ns of ['default', 'stacks-1', 'stacks-42420']) {
      const res = await bearer.get(folders(ns));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ kind: 'Status', code: 404, message: `namespaces "${ns}" not found` });
    }
  });

  it('stores what the legacy API writes in the stack namespace too', async () => {
    const res = await bearer.post('/api/teams').send({ name: 'Cloud Team' });
    expect(res.status).toBe(200);
    const ctx = { requester: SYSTEM, namespace: NS, fieldManager: 'test' };
    const teamKind = t.users!.registry.kinds.find((k) => k.kind === 'Team')!;
    expect((await t.users!.registry.get(ctx, teamKind, res.body.uid)).metadata.namespace).toBe(NS);
    expect((await bearer.get(`/api/teams/${res.body.teamId}`)).body).toMatchObject({ name: 'Cloud Team', orgId: 1 });
  });
});

describe('edition', () => {
  it('has no custom roles (enterprise only)', async () => {
    const res = await bearer.get('/api/access-control/roles');
    expect(res.status).toBe(404);
  });

  it('needs a stack id', () => {
    expect(() => loadConfig({ argv: ['--server.edition=cloud'], env: {}, cwd: process.cwd() })).toThrow(ConfigError);
    expect(() => loadConfig({ argv: ['--server.edition=cloud', '--server.stack_id=abc'], env: {}, cwd: process.cwd() })).toThrow(/stack/);
    expect(loadConfig({ argv: ['--server.edition=cloud', '--server.stack_id=7'], env: {}, cwd: process.cwd() }).server.stack_id).toBe('7');
  });
});
