import { loginAttemptKind } from '../../apis';
import { IDENTITY_NAMESPACE } from '../../pkg/auth/identity/identity-directory';
import { StoredLoginAttempts } from '../../pkg/auth/authentication/stored-login-attempts';
import { startTestApp, type TestApp } from '../support/app';

/** The database-backed login throttle: the in-memory one's rules, shared by every replica. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const MIN = 60_000;
function clock(start = Date.now()) {
  let at = start;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}
async function fail(attempts: StoredLoginAttempts, n: number, login: string, ip: string) {
  for (let i = 0; i < n; i++) await attempts.record(login, ip, false);
}
const stored = async () => (await t.users!.registry.list({ requester: { identity: 'test' }, namespace: IDENTITY_NAMESPACE, fieldManager: 'test' }, loginAttemptKind, {})).items;

describe('StoredLoginAttempts', () => {
  it('blocks a login after 5 failures, for any address and any case, and every replica sees it', async () => {
    const c = clock();
    const replicaA = new StoredLoginAttempts(t.users!.registry, { now: c.now });
    const replicaB = new StoredLoginAttempts(t.users!.registry, { now: c.now });
    await fail(replicaA, 2, 'Alice', '192.0.2.1');
    await fail(replicaB, 2, 'ALICE', '::ffff:198.51.100.7');
    expect(await replicaA.blocked('alice', '203.0.113.9')).toBe(false);
    await replicaB.record('alice', '192.0.2.1', false);
    expect(await replicaA.blocked('alice', '203.0.113.9')).toBe(true);
    expect(await replicaB.blocked('alice', '203.0.113.9')).toBe(true);
    expect(await replicaA.blocked('bob', '203.0.113.9')).toBe(false);
  });

  it('lets the block end when the failures leave the 5-minute window', async () => {
    const c = clock();
    const attempts = new StoredLoginAttempts(t.users!.registry, { now: c.now });
    await fail(attempts, 5, 'carol', '192.0.2.2');
    expect(await attempts.blocked('carol', '192.0.2.2')).toBe(true);
    c.advance(5 * MIN - 1);
    expect(await attempts.blocked('carol', '192.0.2.2')).toBe(true);
    c.advance(2);
    expect(await attempts.blocked('carol', '192.0.2.2')).toBe(false);
  });

  it('a success clears the login\'s failures', async () => {
    const attempts = new StoredLoginAttempts(t.users!.registry, { now: clock().now });
    await fail(attempts, 4, 'dave', '192.0.2.3');
    await attempts.record('DAVE', '192.0.2.3', true);
    await fail(attempts, 4, 'dave', '192.0.2.3');
    expect(await attempts.blocked('dave', '192.0.2.3')).toBe(false);
  });

  it('blocks an address after its own limit of failures across logins', async () => {
    const attempts = new StoredLoginAttempts(t.users!.registry, { now: clock().now, maxFailuresPerIp: 3 });
    for (const login of ['u1', 'u2', 'u3']) await attempts.record(login, '198.51.100.99', false);
    expect(await attempts.blocked('u4', '198.51.100.99')).toBe(true);
    expect(await attempts.blocked('u4', '198.51.100.100')).toBe(false);
  });

  it('sweeps failures that left the window, a batch with each new failure', async () => {
    const c = clock();
    const attempts = new StoredLoginAttempts(t.users!.registry, { now: c.now });
    await fail(attempts, 3, 'erin', '192.0.2.4');
    const old = (await stored()).length;
    expect(old).toBeGreaterThanOrEqual(6);
    c.advance(10 * MIN);
    await attempts.record('frank', '192.0.2.5', false);
    const left = (await stored()).length - 2;
    expect(left).toBeLessThan(old);
    // A few more failures sweep everything old: only the new ones (login and address each) remain.
    for (let i = 0; i < Math.ceil(left / 10); i++) await attempts.record('frank', '192.0.2.5', false);
    const now = await stored();
    expect(now.length).toBe(2 * (1 + Math.ceil(left / 10)));
    expect(now.every((o) => (o.spec as { failedAt: number }).failedAt > c.now() - 5 * MIN)).toBe(true);
  });
});
