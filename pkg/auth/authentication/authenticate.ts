import type { Request, RequestHandler } from 'express';
import passport, { type Strategy } from 'passport';
import { StatusError } from '../../errors';

/**
 * Authentication: passport tries the named strategies in order (a session cookie, a bearer token, basic
 * credentials...) and the first that recognises the caller sets `req.user` (an `Identity`). When none does, the
 * request is refused with 401, rendered in the shape of the API called. A strategy that does not apply to a request
 * (no cookie, no `Authorization: Bearer`) fails it, so the next one is tried.
 *
 * @example
 *   app.use('/api', authenticate({ bearer: bearerStrategy(opts), basic: basicStrategy({ users }) }));
 */
export function authenticate(strategies: Record<string, Strategy>): RequestHandler {
  const auth = new passport.Passport();
  for (const [name, strategy] of Object.entries(strategies)) auth.use(name, strategy);
  const names = Object.keys(strategies);
  return (req, res, next) => {
    auth.authenticate(names, { session: false }, (err: unknown, user: Express.User | false | undefined) => {
      if (err) return next(err);
      if (!user) return next(StatusError.unauthorized());
      req.user = user;
      next();
    })(req, res, next);
  };
}

/**
 * A passport strategy over an async check: the identity it finds signs the request in; undefined lets the next
 * strategy try; a thrown error (the database is down) ends the request with that error.
 *
 * @example
 *   authenticate({ session: strategyOf('session', async (req) => identityOfCookie(req)), basic: basicStrategy(opts) });
 */
export function strategyOf(name: string, check: (req: Request) => Promise<Express.User | undefined>): Strategy {
  return {
    name,
    authenticate(req) {
      check(req).then(
        (user) => (user ? this.success(user) : this.fail()),
        (err: unknown) => this.error(err),
      );
    },
  };
}
