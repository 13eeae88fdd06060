import type { Strategy } from 'passport';
import { Strategy as BearerStrategy, type VerifyFunctionWithRequest } from 'passport-http-bearer';
import type { ServiceAccounts } from '../identity/service-accounts';

export interface BearerAuthOptions {
  accounts: ServiceAccounts;
  /** Runs before the first lookup (the start-up bootstrap); a failure is retried by the next request. */
  ready?: () => Promise<void>;
}

/**
 * Service-account tokens as `Authorization: Bearer <key>` (passport-http-bearer), for the chain of
 * `authenticate()`. Only the header counts: passport-http-bearer would also take an `access_token` query or body
 * parameter, which puts the secret into URLs and logs, so those are ignored. A request without a bearer header,
 * or with a key that authenticates no one, fails here and the next strategy (basic) is tried.
 *
 * @example
 *   app.use('/api', authenticate({ bearer: bearerStrategy({ accounts }), basic: basicStrategy({ users }) }));
 */
export function bearerStrategy(opts: BearerAuthOptions): Strategy {
  return new BearerStrategy<VerifyFunctionWithRequest>({ passReqToCallback: true }, (req, key, done) => {
    if (!/^bearer\s/i.test(req.headers.authorization ?? '')) return done(null, false);
    (async () => {
      await opts.ready?.();
      return opts.accounts.authenticate(key);
    })().then(
      (user) => done(null, user ?? false),
      (err: unknown) => done(err),
    );
  });
}
