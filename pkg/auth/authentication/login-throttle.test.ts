import { InMemoryLoginAttempts } from './login-throttle';

const MIN = 60_000;

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

async function fail(attempts: InMemoryLoginAttempts, n: number, login: string, ip: string) {
  for (let i = 0; i < n; i++) await attempts.record(login, ip, false);
}

describe('InMemoryLoginAttempts', () => {
  it('blocks a login after 5 failures within 5 minutes (the anchor defaults)', async () => {
    const c = clock();
    const attempts = new InMemoryLoginAttempts({ now: c.now });
    await fail(attempts, 4, 'alice', '192.0.2.1');
    expect(await attempts.blocked('alice', '192.0.2.1')).toBe(false);
    await attempts.record('alice', '192.0.2.1', false);
    expect(await attempts.blocked('alice', '192.0.2.1')).toBe(true);
  });

  it('counts per login, whatever the address, and case-insensitively', async () => {
    const attempts = new InMemoryLoginAttempts({ now: clock().now });
    for (let i = 0; i < 5; i++) await attempts.record(i % 2 ? 'Alice' : 'ALICE', `198.51.100.${i}`, false);
    expect(await attempts.blocked('alice', '203.0.113.9')).toBe(true);
    expect(await attempts.blocked('bob', '203.0.113.9')).toBe(false);
  });

  it('lets the window slide: the block ends when the oldest failure is 5 minutes old', async () => {
    const c = clock();
    const attempts = new InMemoryLoginAttempts({ now: c.now });
    await attempts.record('alice', 'ip', false); // t0
    c.advance(MIN);
    await fail(attempts, 4, 'alice', 'ip'); // t0 + 1 min
    expect(await attempts.blocked('alice', 'ip')).toBe(true);
    c.advance(4 * MIN - 1);
    expect(await attempts.blocked('alice', 'ip')).toBe(true);
    c.advance(1); // the first failure leaves the window
    expect(await attempts.blocked('alice', 'ip')).toBe(false);
    await attempts.record('alice', 'ip', false); // and one more failure blocks again
    expect(await attempts.blocked('alice', 'ip')).toBe(true);
    c.advance(5 * MIN);
    expect(await attempts.blocked('alice', 'ip')).toBe(false);
  });

  it('a success clears the login (not the address)', async () => {
    const attempts = new InMemoryLoginAttempts({ now: clock().now, maxFailuresPerIp: 6 });
    await fail(attempts, 4, 'alice', 'ip');
    await attempts.record('alice', 'ip', true);
    await fail(attempts, 2, 'alice', 'ip');
    expect(await attempts.blocked('alice', 'ip')).toBe(true); // 6 failures from ip
    expect(await attempts.blocked('alice', 'other-ip')).toBe(false); // only 2 for alice since the success
  });

  it('blocks an address spraying many logins at the per-IP threshold (default 50)', async () => {
    const attempts = new InMemoryLoginAttempts({ now: clock().now });
    for (let i = 0; i < 49; i++) await attempts.record(`user${i}`, '192.0.2.7', false);
    expect(await attempts.blocked('someone', '192.0.2.7')).toBe(false);
    await attempts.record('user49', '192.0.2.7', false);
    expect(await attempts.blocked('someone', '192.0.2.7')).toBe(true);
    expect(await attempts.blocked('someone', '::ffff:192.0.2.7')).toBe(true); // same client over IPv6 socket
    expect(await attempts.blocked('someone', '192.0.2.8')).toBe(false);
  });

  it('honours custom thresholds and 0 as off', async () => {
    const attempts = new InMemoryLoginAttempts({ now: clock().now, maxFailuresPerLogin: 0, maxFailuresPerIp: 2 });
    await fail(attempts, 1, 'alice', 'ip');
    expect(await attempts.blocked('alice', 'elsewhere')).toBe(false);
    await fail(attempts, 1, 'alice', 'ip');
    expect(await attempts.blocked('alice', 'elsewhere')).toBe(false); // per-login check off
    expect(await attempts.blocked('bob', 'ip')).toBe(true);
  });

  it('stays bounded under a flood of distinct logins', async () => {
    const c = clock();
    const attempts = new InMemoryLoginAttempts({ now: c.now, maxKeys: 100, maxFailuresPerIp: 0 });
    for (let i = 0; i < 1000; i++) await attempts.record(`flood${i}`, 'ip', false);
    const size = (attempts as unknown as { failures: Map<string, number[]> }).failures.size;
    expect(size).toBeLessThanOrEqual(100);
    // The most recent keys survive.
    await fail(attempts, 4, 'flood999', 'ip');
    expect(await attempts.blocked('flood999', 'ip')).toBe(true);
  });

  it('forgets expired keys', async () => {
    const c = clock();
    const attempts = new InMemoryLoginAttempts({ now: c.now });
    await fail(attempts, 3, 'alice', 'ip');
    c.advance(5 * MIN);
    expect(await attempts.blocked('alice', 'ip')).toBe(false);
    const map = (attempts as unknown as { failures: Map<string, number[]> }).failures;
    expect(map.has('login:alice')).toBe(false);
  });
});
