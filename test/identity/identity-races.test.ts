import { bootstrapIdentity } from '../../pkg/auth/identity/identity-bootstrap';
import { IdentityDirectory, SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { ServiceAccounts } from '../../pkg/auth/identity/service-accounts';
import { TeamDirectory } from '../../pkg/auth/identity/team-directory';
import { Namespaces } from '../../pkg/registry';
import { createTestStorage } from '../support/backend';
import { startTestApp, type TestApp } from '../support/app';
import { PASSWORD } from '../support/users';

/** Replicas start together and admins create users at once: ids stay unique, the bootstrap stays idempotent. */
it('two replicas bootstrapping one fresh database make one org 1 and one admin', async () => {
  const { storage, close } = await createTestStorage();
  try {
    const admin = { user: 'admin', password: 'admin', email: 'admin@localhost' };
    const a = new IdentityDirectory(storage, new Namespaces());
    const b = new IdentityDirectory(storage, new Namespaces());
    await Promise.all([bootstrapIdentity(a, admin), bootstrapIdentity(b, admin), bootstrapIdentity(a, admin)]);
    await bootstrapIdentity(b, admin); // and again later, as a restart does
    expect((await a.listOrgs()).map(({ id, name }) => ({ id, name }))).toEqual([{ id: 1, name: 'Main Org.' }]);
    const users = await a.listUsers();
    expect(users.map((u) => [u.id, u.login, u.isSvcAdmin])).toEqual([[1, 'admin', true]]);
    expect(await a.membersOf(1)).toEqual([{ userId: 1, role: 'Admin' }]);
  } finally {
    await close();
  }
});

it('concurrent creates get distinct numeric ids', async () => {
  const t = await startTestApp();
  try {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.as.post('/api/admin/users').send({ login: `racer${i}`, password: PASSWORD })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    const ids = results.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(6);
    const orgs = await Promise.all(['A', 'B', 'C'].map((name) => t.as.post('/api/orgs').send({ name })));
    expect(new Set(orgs.map((r) => r.body.orgId)).size).toBe(3);
  } finally {
    await t.close();
  }
});

/**
 * 50 creates of one name at once, through the legacy API: exactly one wins, the others get the anchor's refusal
 * (never an internal kind name), and exactly one object is stored.
 */
describe('of simultaneous creates of one name exactly one wins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const RACERS = 50;

  async function race(path: string, body: (i: number) => object, refusal: { status: number; message: string | RegExp }) {
    // The admin's credentials verified once before: the creates then start together.
    await t.as.get('/api/user').expect(200);
    const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => t.as.post(path).send(body(i))));
    const won = results.filter((r) => r.status >= 200 && r.status < 300);
    const lost = results.filter((r) => !(r.status >= 200 && r.status < 300));
    expect(won).toHaveLength(1);
    const message = typeof refusal.message === 'string' ? refusal.message : expect.stringMatching(refusal.message);
    expect(lost.map((r) => [r.status, r.body.message])).toEqual(Array(RACERS - 1).fill([refusal.status, message]));
    for (const r of results) expect(JSON.stringify(r.body)).not.toContain('.iam.svc.app');
    return won[0];
  }

  it('teams', async () => {
    await race('/api/teams', () => ({ name: 't' }), { status: 409, message: 'Team name taken' });
    const found = await t.as.get('/api/teams/search?query=t');
    expect(found.body.teams.filter((x: { name: string }) => x.name.toLowerCase() === 't')).toHaveLength(1);
  });

  it('service accounts', async () => {
    await race('/api/serviceaccounts', () => ({ name: 's' }), { status: 400, message: 'service account already exists' });
    const found = await t.as.get('/api/serviceaccounts/search?query=s');
    expect(found.body.serviceAccounts.filter((x: { name: string }) => x.name === 's')).toHaveLength(1);
  });

  it('organizations', async () => {
    await race('/api/orgs', () => ({ name: 'o' }), { status: 409, message: 'Organization name taken' });
    expect((await t.as.get('/api/orgs')).body.filter((o: { name: string }) => o.name === 'o')).toHaveLength(1);
  });

  it('users, by login and by email, in any case', async () => {
    // The anchor's message names the refused form's email and login.
    await race('/api/admin/users', (i) => ({ login: i % 2 ? 'twin' : 'TWIN', password: PASSWORD }), { status: 412, message: /^User with email '' or username '(twin|TWIN)' already exists$/ });
    // One email under different logins.
    await race('/api/admin/users', (i) => ({ login: `racer-${i}`, email: i % 2 ? 'same@example.com' : 'SAME@example.com', password: PASSWORD }), {
      status: 412,
      message: /^User with email '(same|SAME)@example.com' or username 'racer-\d+' already exists$/,
    });
    // Another user's login is taken as an email, and an email as a login.
    for (const body of [{ login: 'other', email: 'Twin' }, { login: 'same@example.com' }]) {
      const refused = await t.as.post('/api/admin/users').send({ ...body, password: PASSWORD });
      expect([refused.status, refused.body.message]).toEqual([412, `User with email '${body.email ?? ''}' or username '${body.login}' already exists`]);
    }
    const users = (await t.as.get('/api/users?perpage=1000')).body as { login: string; email: string }[];
    expect(users.filter((u) => u.login.toLowerCase() === 'twin')).toHaveLength(1);
    expect(users.filter((u) => u.email.toLowerCase() === 'same@example.com')).toHaveLength(1);
  }, 180_000); // each create hashes its password (scrypt, about 90 ms of a core)

  it('teams and service accounts, created in process at once (no HTTP stack to stagger them)', async () => {
    const teams = new TeamDirectory(t.users!);
    const accounts = new ServiceAccounts(t.users!.registry, t.storage);
    for (const create of [(i: number) => teams.createTeam(SYSTEM, 1, { name: `In process ${i % 2 ? 'X' : 'x'}` }), () => accounts.create(SYSTEM, 1, { name: 'in process' })]) {
      const results = await Promise.allSettled(Array.from({ length: RACERS }, (_, i) => create(i)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    }
    expect((await teams.searchTeams(1, { query: 'in process x', offset: 0, limit: 100 })).teams.filter((x) => x.name.toLowerCase() === 'in process x')).toHaveLength(1);
    expect((await accounts.list(1)).filter((x) => x.name === 'in process')).toHaveLength(1);
  });

  it('a rename into a name another holds is refused, a rename of one\'s own case is not', async () => {
    const a = await t.as.post('/api/teams').send({ name: 'Alpha' });
    const b = await t.as.post('/api/teams').send({ name: 'Beta' });
    const renamed = await t.as.put(`/api/teams/${b.body.teamId}`).send({ name: 'ALPHA' });
    expect([renamed.status, renamed.body.message]).toEqual([400, 'Team name taken']);
    expect((await t.as.put(`/api/teams/${a.body.teamId}`).send({ name: 'ALPHA' })).status).toBe(200);
    // The old name is free once renamed away.
    expect((await t.as.put(`/api/teams/${a.body.teamId}`).send({ name: 'Gamma' })).status).toBe(200);
    expect((await t.as.put(`/api/teams/${b.body.teamId}`).send({ name: 'alpha' })).status).toBe(200);
    // And once deleted.
    expect((await t.as.delete(`/api/teams/${b.body.teamId}`)).status).toBe(200);
    expect((await t.as.post('/api/teams').send({ name: 'Alpha' })).status).toBe(200);
    const sa1 = await t.as.post('/api/serviceaccounts').send({ name: 'one' });
    await t.as.post('/api/serviceaccounts').send({ name: 'two' });
    const clash = await t.as.patch(`/api/serviceaccounts/${sa1.body.id}`).send({ name: 'Two' });
    expect([clash.status, clash.body.message]).toEqual([400, 'service account already exists']);
  });
});
