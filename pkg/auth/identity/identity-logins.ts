import type { IdentityDirectory } from './identity-directory';
import type { ServiceAccounts } from './service-accounts';

/** What the anchor shows for a writer it cannot name (a removed user, an anonymous visitor, the server itself). */
export const UNKNOWN_WRITER = 'Anonymous';

/**
 * The login the anchor shows for a writer the registry recorded in createdBy/updatedBy (`user:<uid>`,
 * `service-account:<uid>`): a user's login, a service account's login (`sa-<org>-<slug>`, a service account being a
 * user in the anchor), else {@link UNKNOWN_WRITER}. Each identity is read once per resolver, so one resolver serves
 * one request. A service account is looked up in `orgId`, the org of the object it wrote (it has no other).
 *
 * @example
 *   const loginOf = writerLogins(users, accounts, 1);
 *   await loginOf('service-account:ab12'); // 'sa-1-ci-bot'
 *   await loginOf('user:admin'); // 'admin'
 */
export function writerLogins(users: IdentityDirectory, accounts: ServiceAccounts, orgId: number): (identity: string | undefined) => Promise<string> {
  const memo = new Map<string, Promise<string>>();
  const resolve = async (identity: string): Promise<string> => {
    const [kind, uid] = [identity.slice(0, identity.indexOf(':')), identity.slice(identity.indexOf(':') + 1)];
    if (kind === 'user') return (await users.userByUid(uid))?.login ?? UNKNOWN_WRITER;
    if (kind === 'service-account') return (await accounts.byUid(orgId, uid))?.login ?? UNKNOWN_WRITER;
    return UNKNOWN_WRITER;
  };
  return (identity) => {
    if (!identity) return Promise.resolve(UNKNOWN_WRITER);
    let login = memo.get(identity);
    if (!login) memo.set(identity, (login = resolve(identity)));
    return login;
  };
}
