import type { Request, Response } from 'express';
import { StatusError } from '../../pkg/errors';

/** POST /api/admin/ldap/reload: removed in the anchor's 12.4.0 (spec §4.11, §7.4), 410 with its message. */
export function reloadLdap(_req: Request, res: Response): void {
  res.status(410).json({ message: 'This endpoint has been removed. LDAP configuration is now loaded from SSO settings.' });
}

/**
 * The other LDAP routes: this server has no LDAP, so each answers as the anchor does with LDAP not enabled (400,
 * its message), after the server-admin check.
 */
export function ldapNotEnabled(): never {
  throw StatusError.badRequest('LDAP is not enabled');
}
