import { StatusError } from '../../errors';
import { SYSTEM } from './identity-directory';
import { type ServiceAccounts, serviceAccountLogin, type StoredServiceAccount } from './service-accounts';
import { parseServiceAccountToken } from './tokens';

/** The service account that holds the configured initial token, in organization 1. */
export const INITIAL_SERVICE_ACCOUNT = 'initial-admin';
const ORG = 1;
/** Replicas starting together may each withdraw a create of the same login; a few rounds settle it. */
const ATTEMPTS = 8;

/**
 * Makes the configured key (`auth.initial_service_account_token`) a credential: a token, stored as its digest, of
 * the service account `initial-admin`, an Admin of organization 1, created when missing. The cloud edition takes
 * bearer tokens only, so this is its first way in; with it an operator makes the service accounts and tokens it
 * needs. Idempotent and safe on replicas starting together; the account, once made, is the org's to change (its
 * role is not reset), and a token deleted through the API comes back at the next start while the setting holds it.
 *
 * @example await ensureInitialServiceAccountToken(accounts, config.auth.initial_service_account_token);
 */
export async function ensureInitialServiceAccountToken(accounts: ServiceAccounts, key: string): Promise<void> {
  const parsed = parseServiceAccountToken(key);
  if (!parsed.valid) throw new Error('auth.initial_service_account_token is not a service-account token');
  const sa = await initialServiceAccount(accounts);
  // Named after the key's digest: a replaced key gets a token of its own instead of colliding with the old one's name.
  await accounts.ensureToken(SYSTEM, sa, { name: `initial-${parsed.hashedKey.slice(0, 8)}`, key });
}

async function initialServiceAccount(accounts: ServiceAccounts): Promise<StoredServiceAccount> {
  const login = serviceAccountLogin(ORG, INITIAL_SERVICE_ACCOUNT);
  for (let attempt = 1; ; attempt++) {
    const found = (await accounts.list(ORG)).find((sa) => sa.login === login);
    if (found) return found;
    try {
      return await accounts.create(SYSTEM, ORG, { name: INITIAL_SERVICE_ACCOUNT, role: 'Admin' });
    } catch (err) {
      // Another replica's create holds the login (or both withdrew): look again, after a moment of random length.
      if (!(err instanceof StatusError && err.code === 400) || attempt >= ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 50 * attempt));
    }
  }
}
