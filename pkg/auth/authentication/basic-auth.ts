import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Strategy } from 'passport';
import { BasicStrategy } from 'passport-http';
import { authenticate } from './authenticate';
import type { IdentityDirectory, StoredUser } from '../identity/identity-directory';
import { InMemoryLoginAttempts, type LoginAttempts } from './login-throttle';
import { verifyPassword } from '../identity/password';
import { type Identity, identityOf } from '../identity/caller';

// The caller's type is identity's (service accounts answer it too); authentication produces it.
export { type Identity, identityOf };

export interface BasicAuthOptions {
  users: IdentityDirectory;
  attempts?: LoginAttempts;
  /** How long a verified login+password is trusted without running scrypt again. Default 30 s. */
  cacheTtlMs?: number;
  /** Runs before the first lookup (the start-up bootstrap); a failure is retried by the next request. */
  ready?: () => Promise<void>;
}

/** Bounded, so a flood of distinct good passwords cannot grow it without limit. */
const MAX_CACHED = 10_000;

/**
 * HTTP basic authentication (passport-http) against the stored users: scrypt verification, failures counted by
 * the login throttle (a blocked login is refused without checking its password), disabled users refused. Every
 * refusal is a 401, rendered by the error handler in the shape of the API called.
 *
 * scrypt costs ~90 ms, so a verified pair is remembered briefly under a sha256 of login and password, together
 * with the hash it was verified against: a password change (a new hash) invalidates it on any replica.
 */
export function basicAuth(opts: BasicAuthOptions | AdminCredentials): RequestHandler {
  return authenticate({ basic: basicStrategy(opts) });
}

/** The passport strategy of {@link basicAuth}, for the chain of `authenticate()`; or over a shared {@link PasswordCheck}. */
export function basicStrategy(opts: BasicAuthOptions | AdminCredentials | PasswordCheck): Strategy {
  if (typeof opts === 'function') return storedUsersStrategy(opts);
  if (!('users' in opts)) return basicStrategyOf((login, password) => Promise.resolve(fixedAdmin(opts, login, password)));
  return storedUsersStrategy(passwordCheck(opts));
}

/** Checks a login and password from a client address: the user they sign in, or undefined. */
export type PasswordCheck = (login: string, password: string, ip: string) => Promise<StoredUser | undefined>;

/**
 * The password check of basic authentication and of the login form, one per server so both count failures in
 * one throttle: scrypt verification, failures counted by the login throttle (a blocked login is refused without
 * checking its password), disabled users refused.
 *
 * @example
 *   const check = passwordCheck({ users, attempts });
 *   const user = await check('ana', 's3cret', req.ip); // undefined: wrong, blocked or disabled
 */
export function passwordCheck(opts: BasicAuthOptions): PasswordCheck {
  const attempts = opts.attempts ?? new InMemoryLoginAttempts();
  const ttl = opts.cacheTtlMs ?? 30_000;
  const verified = new Map<string, { userId: number; hash: string; expires: number }>();

  return async (login, password, ip) => {
    await opts.ready?.();
    const key = createHash('sha256').update(login).update('\0').update(password).digest('hex');
    const hit = verified.get(key);
    // A hit is this very password, verified moments ago: the throttle, which stops guessing, has nothing to stop (and
    // its database read stays off the path of every authenticated request).
    if (hit && hit.expires > Date.now()) {
      const found = await opts.users.userWithPasswordHash(hit.userId);
      if (found && found.hash === hit.hash) return found.user.isDisabled ? undefined : found.user;
      verified.delete(key);
    }
    if (await attempts.blocked(login, ip)) return undefined;
    const user = await opts.users.userByLoginOrEmail(login);
    const hash = user && (await opts.users.passwordHashOf(user.id));
    const ok = hash !== undefined && (await verifyPassword(password, hash));
    await attempts.record(login, ip, ok);
    if (!ok || !user || user.isDisabled) return undefined;
    if (verified.size >= MAX_CACHED) verified.clear();
    verified.set(key, { userId: user.id, hash: hash!, expires: Date.now() + ttl });
    return user;
  };
}

function storedUsersStrategy(check: PasswordCheck): Strategy {
  return basicStrategyOf(async (login, password, ip) => {
    const user = await check(login, password, ip);
    return user && identityOf(user);
  });
}

/**
 * Only the configured administrator, in org 1, checked against the configuration: for apps that mount a few
 * routers without a database of users (the routers' own test suites).
 */
export interface AdminCredentials {
  user: string;
  password: string;
}

/** Compares digests, so the time taken says nothing about where the strings differ or how long they are. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function fixedAdmin(admin: AdminCredentials, login: string, password: string): Identity | undefined {
  if (!(sameSecret(login, admin.user) && sameSecret(password, admin.password))) return undefined;
  return { identity: `user:${admin.user}`, login: admin.user, userId: 1, orgId: 1, isServerAdmin: true, orgRole: 'Admin' };
}

/** passport-http's BasicStrategy over a verify function; a refusal is `false`, so the next strategy may try. */
function basicStrategyOf(verify: (login: string, password: string, ip: string) => Promise<Identity | undefined>): Strategy {
  return new BasicStrategy({ passReqToCallback: true }, (req, login, password, done) => {
    verify(login, password, req.ip ?? '').then(
      (user) => done(null, user ?? false),
      (err: unknown) => done(err),
    );
  });
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    /** What passport puts on `req.user`: the caller's Identity (pkg/auth/identity/caller.ts). */
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends Identity {}
  }
}
