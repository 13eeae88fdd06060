/**
 * Brute-force protection for password logins, modelled on the anchor's loginattempt service: failures are counted
 * in a sliding five-minute window; at five failures for a login, further attempts for that login are refused until
 * the oldest counted failure leaves the window (so for at most five minutes), and a successful login clears the
 * login's count. Logins are compared lower-cased, as there.
 *
 * Failures are also counted per client IP, with a higher default threshold: the per-login count stops guessing one
 * account from many addresses, the per-IP count stops one address trying one password on many accounts. The anchor
 * ships its IP check off because offices behind one NAT address share it; a threshold of 50 keeps it on without
 * locking out such an office after a few typos.
 */

/**
 * Where failed logins are counted. The in-memory implementation serves one replica; a database-backed one
 * (several replicas) implements the same two calls.
 *
 * Callers ask {@link LoginAttempts.blocked} before checking the password and, when blocked, refuse without checking
 * it and without recording: the block then ends on time however hard the attacker keeps trying.
 */
export interface LoginAttempts {
  /** Records the outcome of a password check for `login` from `ip`. */
  record(login: string, ip: string, ok: boolean): Promise<void>;
  /** Whether a password check for `login` from `ip` must be refused now. */
  blocked(login: string, ip: string): Promise<boolean>;
}

export interface LoginThrottleOptions {
  /** Failures within the window that block a login; 0 turns the per-login check off. Default 5 (the anchor's). */
  maxFailuresPerLogin?: number;
  /** Failures within the window that block a client IP; 0 turns the per-IP check off. Default 50. */
  maxFailuresPerIp?: number;
  /** The sliding window in milliseconds. Default 5 minutes (the anchor's). */
  windowMs?: number;
  /** Keys kept at most; beyond it expired keys are swept, then the oldest dropped. Default 100 000. */
  maxKeys?: number;
  /** The clock, in milliseconds; injectable for tests. */
  now?: () => number;
}

/**
 * `::ffff:192.0.2.1` (IPv4 seen by a dual-stack socket) and `192.0.2.1` are one client.
 *
 * @example
 *   normaliseIp('::FFFF:192.0.2.1'); // '192.0.2.1'
 */
export function normaliseIp(ip: string): string {
  const s = ip.trim().toLowerCase();
  return s.startsWith('::ffff:') && s.includes('.') ? s.slice(7) : s;
}

/**
 * In-memory {@link LoginAttempts}: per key, the times of at most `max` recent failures (older ones cannot change
 * the answer), so memory is bounded by `maxKeys × max`.
 *
 * @example
 *   const attempts = new InMemoryLoginAttempts();
 *   if (await attempts.blocked(login, req.ip)) throw StatusError.unauthorized(); // do not check the password
 *   const ok = await verifyPassword(password, user.password);
 *   await attempts.record(login, req.ip, ok);
 */
export class InMemoryLoginAttempts implements LoginAttempts {
  private readonly maxPerLogin: number;
  private readonly maxPerIp: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;
  /** `login:<name>` or `ip:<address>` → failure times, oldest first. */
  private readonly failures = new Map<string, number[]>();

  constructor(options: LoginThrottleOptions = {}) {
    this.maxPerLogin = Math.max(0, options.maxFailuresPerLogin ?? 5);
    this.maxPerIp = Math.max(0, options.maxFailuresPerIp ?? 50);
    this.windowMs = options.windowMs ?? 5 * 60_000;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  async record(login: string, ip: string, ok: boolean): Promise<void> {
    const loginKey = `login:${login.toLowerCase()}`;
    if (ok) {
      this.failures.delete(loginKey);
      return;
    }
    const now = this.now();
    if (this.maxPerLogin > 0) this.push(loginKey, now, this.maxPerLogin);
    if (this.maxPerIp > 0) this.push(`ip:${normaliseIp(ip)}`, now, this.maxPerIp);
    if (this.failures.size > this.maxKeys) this.evict(now);
  }

  async blocked(login: string, ip: string): Promise<boolean> {
    const now = this.now();
    return (
      (this.maxPerLogin > 0 && this.count(`login:${login.toLowerCase()}`, now) >= this.maxPerLogin) ||
      (this.maxPerIp > 0 && this.count(`ip:${normaliseIp(ip)}`, now) >= this.maxPerIp)
    );
  }

  private push(key: string, now: number, keep: number): void {
    const times = this.live(key, now) ?? [];
    times.push(now);
    if (times.length > keep) times.splice(0, times.length - keep);
    // Re-insert so the Map's order is least-recently-failed first, which is what evict() drops.
    this.failures.delete(key);
    this.failures.set(key, times);
  }

  private count(key: string, now: number): number {
    return this.live(key, now)?.length ?? 0;
  }

  /** The key's failures still inside the window; expired ones are dropped, and an emptied key forgotten. */
  private live(key: string, now: number): number[] | undefined {
    const times = this.failures.get(key);
    if (!times) return undefined;
    const cutoff = now - this.windowMs;
    let i = 0;
    while (i < times.length && (times[i] as number) <= cutoff) i++;
    if (i > 0) times.splice(0, i);
    if (times.length === 0) {
      this.failures.delete(key);
      return undefined;
    }
    return times;
  }

  /**
   * Keeps the map under maxKeys: first forget expired keys, then the least recently failed ones, down to 90% so
   * that the full sweep runs once per maxKeys/10 new keys rather than on every failure. Dropping live keys forgets
   * failures, so it only happens under a flood of more distinct logins/IPs than maxKeys per window.
   */
  private evict(now: number): void {
    const target = Math.floor(this.maxKeys * 0.9);
    for (const key of [...this.failures.keys()]) this.live(key, now);
    for (const key of this.failures.keys()) {
      if (this.failures.size <= target) break;
      this.failures.delete(key);
    }
  }
}
