import { lastSeenKind } from '../../apis';
import { IDENTITY_NAMESPACE, SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { LastSeenTracker } from '../../pkg/auth/authentication/last-seen';
import { as, createUser, PASSWORD } from '../support/users';
import { startTestApp, type TestApp } from '../support/app';

/**
 * `lastSeenAt` of `/api/users`, `/api/users/search` and `/api/org/users` follows every way a user signs in (basic
 * credentials, the login form, its session), written at most once a minute per user and never on the request's path.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Seen {
  login: string;
  lastSeenAt: string;
  lastSeenAtAge: string;
}

const inUsers = async (login: string) => ((await t.as.get('/api/users').expect(200)).body as Seen[]).find((u) => u.login === login)!;
const inOrg = async (login: string) => ((await t.as.get('/api/org/users').expect(200)).body as Seen[]).find((u) => u.login === login)!;

/** Polls until `check` holds (the activity is written in the background), for at most 10 s. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in 10 s');
}

it('a user of basic credentials is seen: /api/users and /api/org/users stop saying "10 years"', async () => {
  await createUser(t, 'basic-ben', { 1: 'Viewer' });
  expect(await inUsers('basic-ben')).toMatchObject({ lastSeenAtAge: '10 years' });
  expect(await inOrg('basic-ben')).toMatchObject({ lastSeenAtAge: '10 years' });
  const before = Date.now();
  await as(t, 'basic-ben').get('/api/user').expect(200);
  await eventually(async () => (await inUsers('basic-ben')).lastSeenAtAge === '< 1 minute');
  const seen = await inUsers('basic-ben');
  // Whole seconds, as the anchor shows it.
  expect(seen.lastSeenAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(Date.parse(seen.lastSeenAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
  expect(await inOrg('basic-ben')).toMatchObject({ lastSeenAt: seen.lastSeenAt, lastSeenAtAge: '< 1 minute' });
});

it('a sign-in is activity at once; further requests within the minute write nothing', async () => {
  await createUser(t, 'cookie-cy', { 1: 'Viewer' });
  const login = await t.anonymous.post('/login').send({ user: 'cookie-cy', password: PASSWORD }).expect(200);
  expect((await inUsers('cookie-cy')).lastSeenAtAge).toBe('< 1 minute');
  // With its activity forgotten, the next requests (cookie or basic) do not write it again: the process wrote it
  // less than a minute ago.
  const uid = (await t.users!.userByLoginOrEmail('cookie-cy'))!.uid;
  await t.users!.registry.delete({ requester: SYSTEM, namespace: IDENTITY_NAMESPACE, fieldManager: 'test' }, lastSeenKind, uid);
  const cookie = String(login.headers['set-cookie']).split(';')[0];
  for (let i = 0; i < 3; i++) await t.anonymous.get('/api/user').set('Cookie', cookie).expect(200);
  await as(t, 'cookie-cy').get('/api/user').expect(200);
  // A later user's activity shows, so the requests above had their chance to write.
  await createUser(t, 'sentinel-sue', { 1: 'Viewer' });
  await as(t, 'sentinel-sue').get('/api/user').expect(200);
  await eventually(async () => (await inUsers('sentinel-sue')).lastSeenAtAge === '< 1 minute');
  expect((await inUsers('cookie-cy')).lastSeenAtAge).toBe('10 years');
});

it('service accounts and failed requests leave no activity', async () => {
  const sa = await t.as.post('/api/serviceaccounts').send({ name: 'robot', role: 'Viewer' }).expect(201);
  const key = (await t.as.post(`/api/serviceaccounts/${sa.body.id}/tokens`).send({ name: 'k' }).expect(200)).body.key as string;
  await t.anonymous.get('/api/search').set('Authorization', `Bearer ${key}`).expect(200);
  await createUser(t, 'wrong-wes', { 1: 'Viewer' });
  await t.anonymous.get('/api/user').auth('wrong-wes', 'not-the-password').expect(401);
  const seen = await new LastSeenTracker(t.users!.registry).all();
  expect(seen.has(sa.body.uid)).toBe(false);
  expect(seen.has((await t.users!.userByLoginOrEmail('wrong-wes'))!.uid)).toBe(false);
});

describe('LastSeenTracker', () => {
  it('writes at most once an interval per user, and never moves a time back', async () => {
    let clock = Date.parse('2026-03-01T10:00:00.000Z');
    const tracker = new LastSeenTracker(t.users!.registry, { now: () => clock });
    await tracker.seen('tracked-1');
    expect((await tracker.all()).get('tracked-1')).toBe('2026-03-01T10:00:00.000Z');
    clock += 30_000;
    expect(tracker.seen('tracked-1')).toBeUndefined();
    clock += 31_000;
    await tracker.seen('tracked-1');
    expect((await tracker.all()).get('tracked-1')).toBe('2026-03-01T10:01:01.000Z');
    // Another replica whose clock is behind does not move it back.
    const behind = new LastSeenTracker(t.users!.registry, { now: () => clock - 120_000 });
    await behind.seen('tracked-1');
    expect((await tracker.all()).get('tracked-1')).toBe('2026-03-01T10:01:01.000Z');
  });

  it('makes one write of concurrent requests', async () => {
    const tracker = new LastSeenTracker(t.users!.registry);
    const writes = Array.from({ length: 20 }, () => tracker.seen('tracked-2')).filter((w) => w !== undefined);
    expect(writes).toHaveLength(1);
    await Promise.all(writes);
    expect((await tracker.all()).has('tracked-2')).toBe(true);
  });
});
