import { isIP } from 'node:net';
import { verifyPassword } from '../auth/identity/password';
import type { IdentityDirectory } from '../auth/identity/identity-directory';
import type { Config } from '../config';
import type { Logger } from '../log';

/** The password the administrator is created with when `security.admin_password` is not set. */
const DEFAULT_ADMIN_PASSWORD = 'admin';

/** True when `server.http_addr` lets other machines connect: '' and the wildcards do, loopback addresses do not. */
export function listensBeyondLoopback(httpAddr: string): boolean {
  const addr = httpAddr.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (addr === 'localhost' || addr === '::1') return false;
  if (isIP(addr) === 4 && addr.startsWith('127.')) return false;
  return true;
}

/**
 * A loud warning when anyone who can reach the server can sign in as its administrator: it listens beyond loopback
 * and the stored administrator still has the default password (whatever the configuration says now: the password
 * is set only when the administrator is created, and may since have been changed, or not).
 *
 * @example await warnDefaultAdminPassword(config, users, log);
 */
export async function warnDefaultAdminPassword(config: Config, users: IdentityDirectory, log: Logger): Promise<void> {
  if (!listensBeyondLoopback(config.server.http_addr)) return;
  const admin = await users.userByLoginOrEmail(config.security.admin_user);
  const hash = admin && (await users.passwordHashOf(admin.id));
  if (!hash || !(await verifyPassword(DEFAULT_ADMIN_PASSWORD, hash))) return;
  log.warn(
    `SECURITY WARNING: the administrator "${config.security.admin_user}" has the default password and the server listens on ${config.server.http_addr || 'every interface'}: anyone who reaches it is a server administrator. Change the password (security.admin_password before the first start, or PUT /api/admin/users/:id/password), or set server.http_addr=127.0.0.1`,
    { setting: 'security.admin_password', http_addr: config.server.http_addr },
  );
}
