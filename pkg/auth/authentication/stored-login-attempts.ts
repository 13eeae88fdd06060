import { createHash, randomBytes } from 'node:crypto';
import { loginAttemptKind } from '../../../apis';
import type { LoginAttemptSpec } from '../../../apis/iam.svc.app/v0alpha1/loginattempt';
import { notFoundAsUndefined } from '../../errors';
import type { Registry, RequestContext } from '../../registry';
import { IDENTITY_NAMESPACE } from '../identity/identity-directory';
import { type LoginAttempts, type LoginThrottleOptions, normaliseIp } from './login-throttle';

const KEY_LABEL = 'svc.app/throttle-key';
const FAILED_AT_LABEL = 'svc.app/failed-at';
/** Old failures removed per recorded failure: enough to keep up with any rate of new ones. */
const SWEEP_BATCH = 20;

const CTX: RequestContext = { requester: { identity: 'service:login-throttle' }, namespace: IDENTITY_NAMESPACE, fieldManager: 'svc-login-throttle' };

/** A label value for a login or address: a digest, as label values are restricted (and logins are not secrets to show). */
const keyOf = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 40);

/**
 * {@link LoginAttempts} in the database, so every replica counts the same failures: each failure is a
 * LoginAttempt object labelled with its key (`login:<name>` or `ip:<address>`, digested) and time. `blocked`
 * counts a key's failures inside the window; a success deletes the login's failures; each recorded failure also
 * sweeps a few that left the window, so the kind stays small. Same defaults and rules as
 * {@link InMemoryLoginAttempts}: 5 failures per login, 50 per address, in 5 minutes.
 *
 * @example
 *   const attempts = new StoredLoginAttempts(users.registry);
 *   if (await attempts.blocked(login, req.ip)) throw StatusError.unauthorized(); // do not check the password
 *   await attempts.record(login, req.ip, await verifyPassword(password, hash));
 */
export class StoredLoginAttempts implements LoginAttempts {
  private readonly maxPerLogin: number;
  private readonly maxPerIp: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    private readonly registry: Registry,
    options: Omit<LoginThrottleOptions, 'maxKeys'> = {},
  ) {
    this.maxPerLogin = Math.max(0, options.maxFailuresPerLogin ?? 5);
    this.maxPerIp = Math.max(0, options.maxFailuresPerIp ?? 50);
    this.windowMs = options.windowMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  async record(login: string, ip: string, ok: boolean): Promise<void> {
    const loginKey = keyOf(`login:${login.toLowerCase()}`);
    if (ok) {
      await this.registry.deleteCollection(CTX, loginAttemptKind, { labelSelector: `${KEY_LABEL}=${loginKey}` });
      return;
    }
    const now = this.now();
    if (this.maxPerLogin > 0) await this.add(loginKey, now);
    if (this.maxPerIp > 0) await this.add(keyOf(`ip:${normaliseIp(ip)}`), now);
    await this.sweep(now);
  }

  async blocked(login: string, ip: string): Promise<boolean> {
    const now = this.now();
    return (
      (this.maxPerLogin > 0 && (await this.count(keyOf(`login:${login.toLowerCase()}`), now)) >= this.maxPerLogin) ||
      (this.maxPerIp > 0 && (await this.count(keyOf(`ip:${normaliseIp(ip)}`), now)) >= this.maxPerIp)
    );
  }

  private async add(key: string, now: number): Promise<void> {
    const spec: LoginAttemptSpec = { failedAt: now };
    await this.registry.create(CTX, loginAttemptKind, {
      metadata: { name: randomBytes(10).toString('hex'), labels: { [KEY_LABEL]: key, [FAILED_AT_LABEL]: String(Math.floor(now / 1000)) } },
      spec,
    });
  }

  private async count(key: string, now: number): Promise<number> {
    const list = await this.registry.list(CTX, loginAttemptKind, { labelSelector: `${KEY_LABEL}=${key}` });
    const cutoff = now - this.windowMs;
    return list.items.filter((o) => o.spec.failedAt > cutoff).length;
  }

  /** Deletes a batch of failures older than the window (by their seconds label, one second of slack). */
  private async sweep(now: number): Promise<void> {
    const before = Math.floor((now - this.windowMs) / 1000);
    const old = await this.registry.list(CTX, loginAttemptKind, { labelSelector: `${FAILED_AT_LABEL}<${before}`, limit: SWEEP_BATCH });
    for (const o of old.items) {
      // Another replica may have swept it first.
      await this.registry.delete(CTX, loginAttemptKind, o.metadata.name).catch(notFoundAsUndefined);
    }
  }
}
