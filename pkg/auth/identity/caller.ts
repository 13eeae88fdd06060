import type { StoredUser } from './identity-directory';

/** The authenticated caller. */
export interface Identity {
  /** `user:<uid>`, as written to svc.app/createdBy. */
  identity: string;
  login: string;
  /**
   * The numeric id of the legacy API. For a service account (`service-account:<uid>`) it is the service account's
   * id, never a user's: check `isServiceAccount` (org-access.ts) before reading a user or membership by it.
   */
  userId: number;
  /** The organization the request acts in: the user's current one, or the one `X-Svc-Org-Id` selects. */
  orgId: number;
  isServerAdmin: boolean;
  orgRole?: 'None' | 'Viewer' | 'Editor' | 'Admin';
  /** The login session (auth token) the request came with, when it came with one. */
  authTokenId?: number;
}

/**
 * The caller a user is: `user:<uid>`, in its current org (the org selection may move it), with its server-admin flag.
 *
 * @example identityOf(user).identity // 'user:ab12…'
 */
export function identityOf(user: StoredUser): Identity {
  return { identity: `user:${user.uid}`, login: user.login, userId: user.id, orgId: user.orgId, isServerAdmin: user.isSvcAdmin };
}
