import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import passport from 'passport';
import { BasicStrategy } from 'passport-http';
import { StatusError } from '../errors';

/** The authenticated caller. Until users are stored, the only one is the configured server administrator. */
export interface Identity {
  /** `<user-type>:<uid>`, as written to svc.app/createdBy. */
  identity: string;
  login: string;
  orgId: number;
  isServerAdmin: boolean;
}

export interface AdminCredentials {
  user: string;
  password: string;
}

/** Compares digests, so the time taken says nothing about where the strings differ or how long they are. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * HTTP basic authentication (passport-http) against the configured admin user. Every other caller gets 401,
 * rendered by the error handler in the shape of the API it called.
 */
export function basicAuth(admin: AdminCredentials): RequestHandler {
  const auth = new passport.Passport();
  auth.use(
    new BasicStrategy((user, password, done) => {
      const ok = sameSecret(user, admin.user) && sameSecret(password, admin.password);
      const identity: Identity = { identity: `user:${admin.user}`, login: admin.user, orgId: 1, isServerAdmin: true };
      done(null, ok ? identity : false);
    }),
  );
  return (req, res, next) => {
    auth.authenticate('basic', { session: false }, (err: unknown, user: Identity | false | undefined) => {
      if (err) return next(err);
      if (!user) return next(StatusError.unauthorized());
      req.user = user;
      next();
    })(req, res, next);
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface User {
      identity: string;
      login: string;
      orgId: number;
      isServerAdmin: boolean;
    }
  }
}
