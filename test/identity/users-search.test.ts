import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { RFC3339 } from '../support/paths';
import { startTestApp, type TestApp } from '../support/app';
import { recordReads } from '../support/storage-reads';
import { PASSWORD } from '../support/users';

/** `GET /api/users/search` and `GET /api/users` (server admins): the anchor's SearchUserQueryResult and hits. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  for (const [login, name] of [['zed', 'Zed Last'], ['amy', 'Amy Adams'], ['ben', 'Ben Amyson'], ['cat', 'Cat']]) {
    await t.users!.createUser(SYSTEM, { login, name, email: `${login}@example.com`, password: PASSWORD });
  }
});
afterAll(async () => {
  await t.close();
});

const logins = (users: { login: string }[]) => users.map((u) => u.login);

describe('GET /api/users/search', () => {
  it('pages every user ordered by login, with the total', async () => {
    const res = await t.as.get('/api/users/search?perpage=2&page=2');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalCount: 5, page: 2, perPage: 2 });
    expect(logins(res.body.users)).toEqual(['ben', 'cat']);
    const last = await t.as.get('/api/users/search?perpage=2&page=3');
    expect(logins(last.body.users)).toEqual(['zed']);
    const beyond = await t.as.get('/api/users/search?perpage=2&page=9');
    expect(beyond.body).toEqual({ totalCount: 5, users: [], page: 9, perPage: 2 });
  });

  // Besides the page, the caller's own sign-in may read users (its login's lookup, one user): no read answers more.
  const pages = (reads: { op: string; items: number }[]) => reads.filter((r) => r.op === 'page');
  const largest = (reads: { items: number }[]) => Math.max(0, ...reads.map((r) => r.items));

  it('reads the requested page in the database, not every user; the org members\' search too', async () => {
    const reads = recordReads(t.storage);
    try {
      expect(logins((await t.as.get('/api/users/search?perpage=2&page=2').expect(200)).body.users)).toEqual(['ben', 'cat']);
      expect(pages(reads.of('users'))).toEqual([{ op: 'page', items: 2 }]);
      expect(largest(reads.of('users'))).toBe(2);
      reads.reads.length = 0;
      await t.users!.setRole(SYSTEM, 1, (await t.users!.userByLoginOrEmail('amy'))!.id, 'Viewer');
      await t.users!.setRole(SYSTEM, 1, (await t.users!.userByLoginOrEmail('ben'))!.id, 'Viewer');
      reads.reads.length = 0;
      const members = await t.as.get('/api/orgs/1/users/search?query=amy&perpage=1&page=2').expect(200);
      expect(members.body).toMatchObject({ totalCount: 2, page: 2, perPage: 1, orgUsers: [{ login: 'ben', role: 'Viewer' }] });
      expect(pages(reads.of('users'))).toEqual([{ op: 'page', items: 1 }]);
      expect(largest(reads.of('users'))).toBe(1);
      expect(reads.of('orgmembers')).toEqual([{ op: 'page', items: 1 }]);
    } finally {
      reads.stop();
    }
  });

  it('defaults to page 1 of 1000', async () => {
    const res = await t.as.get('/api/users/search');
    expect(res.body).toMatchObject({ totalCount: 5, page: 1, perPage: 1000 });
    expect(logins(res.body.users)).toEqual(['admin', 'amy', 'ben', 'cat', 'zed']);
    const odd = await t.as.get('/api/users/search?perpage=abc&page=-1');
    expect(odd.body).toMatchObject({ page: 1, perPage: 1000 });
  });

  it('filters by login, email or name, in any case', async () => {
    const res = await t.as.get('/api/users/search?query=AMY');
    expect(res.body.totalCount).toBe(2);
    expect(logins(res.body.users)).toEqual(['amy', 'ben']);
    expect((await t.as.get('/api/users/search?query=zed@example')).body.totalCount).toBe(1);
    expect((await t.as.get('/api/users/search?query=nobody')).body).toEqual({ totalCount: 0, users: [], page: 1, perPage: 1000 });
  });

  it('answers the anchor\'s hit shape, no secrets, last seen from sign-ins', async () => {
    const never = (await t.as.get('/api/users/search?query=cat')).body.users[0];
    expect(never).toEqual({
      id: expect.any(Number), uid: expect.any(String), name: 'Cat', login: 'cat', email: 'cat@example.com',
      avatarUrl: expect.stringMatching(/^\/avatar\/[0-9a-f]{32}$/), isAdmin: false, isDisabled: false,
      lastSeenAt: expect.stringMatching(RFC3339), lastSeenAtAge: '10 years', authLabels: [],
    });
    expect((await t.anonymous.post('/login').send({ user: 'cat', password: PASSWORD })).status).toBe(200);
    const seen = (await t.as.get('/api/users/search?query=cat')).body.users[0];
    expect(seen.lastSeenAtAge).toBe('< 1 minute');
    expect(Date.now() - Date.parse(seen.lastSeenAt)).toBeLessThan(60_000);
    const admin = (await t.as.get('/api/users/search?query=admin')).body.users[0];
    expect(admin).toMatchObject({ login: 'admin', isAdmin: true });
    expect(JSON.stringify((await t.as.get('/api/users/search')).body)).not.toMatch(/password|scrypt/i);
  });

  it('is for server admins only', async () => {
    await t.users!.setRole(SYSTEM, 1, (await t.users!.userByLoginOrEmail('amy'))!.id, 'Admin');
    const res = await t.anonymous.get('/api/users/search').auth('amy', PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Permission denied' });
    expect((await t.anonymous.get('/api/users').auth('amy', PASSWORD)).status).toBe(403);
    expect((await t.anonymous.get('/api/users/search')).status).toBe(401);
  });
});

describe('GET /api/users', () => {
  it('answers the hits alone, paged', async () => {
    const res = await t.as.get('/api/users?perpage=3&page=1');
    expect(res.status).toBe(200);
    expect(logins(res.body)).toEqual(['admin', 'amy', 'ben']);
    expect(res.body[0]).toMatchObject({ login: 'admin', isAdmin: true, authLabels: [] });
  });
});
