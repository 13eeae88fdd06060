import supertest from 'supertest';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { ServiceAccounts } from '../../pkg/auth/identity/service-accounts';
import { generateServiceAccountToken } from '../../pkg/auth/identity/tokens';
import { ConfigError, loadConfig } from '../../pkg/config';
import { silentLogger } from '../../pkg/log';
import { createApp } from '../../pkg/server/app';
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

  it('is the server\'s own: an on-premise server in the same process keeps org 1 in default meanwhile', async () => {
    const oss = await startTestApp();
    try {
      // Both servers write org 1 through the legacy API at once; each stores under its own scheme.
      const [cloudFolder, ossFolder] = await Promise.all([
        bearer.post('/api/folders').send({ uid: 'two-configs', title: 'Cloud' }),
        oss.as.post('/api/folders').send({ uid: 'two-configs', title: 'On premise' }),
      ]);
      expect([cloudFolder.status, ossFolder.status]).toEqual([200, 200]);
      const [inStack, inDefault] = await Promise.all([bearer.get(`${folders(NS)}/two-configs`), oss.as.get(`${folders('default')}/two-configs`)]);
      expect([inStack.status, inStack.body.metadata?.namespace, inStack.body.spec?.title]).toEqual([200, NS, 'Cloud']);
      expect([inDefault.status, inDefault.body.metadata?.namespace, inDefault.body.spec?.title]).toEqual([200, 'default', 'On premise']);
      // And each names nothing by the other's name for org 1.
      expect((await bearer.get(folders('default'))).status).toBe(404);
      expect((await oss.as.get(folders(NS))).status).toBe(404);
      expect([t.registry.namespaces.of(1), oss.registry.namespaces.of(1)]).toEqual([NS, 'default']);
    } finally {
      await oss.close();
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

describe('bootstrap: auth.initial_service_account_token', () => {
  const initial = generateServiceAccountToken().key;
  const flags = ['--server.edition=cloud', `--server.stack_id=${STACK}`, `--auth.initial_service_account_token=${initial}`];
  let c: TestApp;
  beforeAll(async () => {
    c = await startTestApp(flags);
  });
  afterAll(() => c.close());

  const as = (app: Parameters<typeof supertest>[0], key: string) => ({
    get: (p: string) => supertest(app).get(p).set('Authorization', `Bearer ${key}`),
    post: (p: string) => supertest(app).post(p).set('Authorization', `Bearer ${key}`),
  });
  /** The service accounts of org 1 with their tokens, as the initial token sees them. */
  const accountsOf = async (app: Parameters<typeof supertest>[0]) => {
    const found = await as(app, initial).get('/api/serviceaccounts/search').expect(200);
    return found.body.serviceAccounts as { id: number; name: string; role: string; tokens: number }[];
  };

  it('is an Admin of organization 1 from the first request: it makes a service account and a token of its own', async () => {
    const me = as(c.app, initial);
    const created = await me.post('/api/serviceaccounts').send({ name: 'deployer', role: 'Editor' });
    expect(created.status).toBe(201);
    const token = await me.post(`/api/serviceaccounts/${created.body.id}/tokens`).send({ name: 'ci' });
    expect(token.status).toBe(200);
    const made = as(c.app, token.body.key as string);
    expect((await made.post(folders(NS)).send({ metadata: { name: 'by-deployer' }, spec: { title: 'Deployed' } })).status).toBe(201);
    expect((await me.get(folders(NS))).body.items.map((f: { metadata: { name: string } }) => f.metadata.name)).toContain('by-deployer');
    const holder = (await accountsOf(c.app)).filter((sa) => sa.name !== 'deployer');
    expect(holder).toEqual([expect.objectContaining({ name: 'initial-admin', role: 'Admin', tokens: 1 })]);
  });

  it('is stored as a digest only', async () => {
    const rows = await c.storage.list({ group: 'iam.svc.app', resource: 'serviceaccounttokens', namespace: 'svc-identity' });
    expect(rows.items.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows.items)).not.toContain(initial);
  });

  it('a restart, or replicas starting together, neither duplicate the account nor its token', async () => {
    const replicas = [0, 1, 2].map(() =>
      createApp({ config: c.config, storage: c.storage, registry: c.registry, log: silentLogger, build: { version: 'test', commit: 'test' } }),
    );
    await Promise.all(replicas.map((r) => r.identityReady()));
    for (const r of replicas) expect((await as(r.app, initial).get(folders(NS))).status).toBe(200);
    expect((await accountsOf(c.app)).filter((sa) => sa.name === 'initial-admin')).toEqual([expect.objectContaining({ role: 'Admin', tokens: 1 })]);
  });

  it('any other key is 401', async () => {
    const typo = `${initial.slice(0, -1)}${initial.endsWith('0') ? '1' : '0'}`;
    for (const key of [generateServiceAccountToken().key, typo, 'not-a-token']) {
      const res = await as(c.app, key).get(folders(NS));
      expect(res.status).toBe(401);
    }
  });

  it('must be a token as the server makes them: anything else stops the start (ConfigError, exit 2) without printing it', () => {
    const load = (value: string) => loadConfig({ argv: [`--auth.initial_service_account_token=${value}`], env: {}, cwd: process.cwd() });
    for (const bad of ['hunter2-secret', `${initial.slice(0, -1)}${initial.endsWith('0') ? '1' : '0'}`, `${initial}x`]) {
      expect(() => load(bad)).toThrow(ConfigError);
      try {
        load(bad);
      } catch (err) {
        expect((err as Error).message).toContain('auth.initial_service_account_token');
        expect((err as Error).message).not.toContain(bad);
      }
    }
    expect(load(initial).auth.initial_service_account_token).toBe(initial);
  });
});
