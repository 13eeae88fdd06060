/** Who is asking, as the registry needs it: the `<user-type>:<uid>` written to createdBy/updatedBy. */
export interface Requester {
  /** `user:<uid>`, `service-account:<uid>`... */
  identity: string;
}

/**
 * The caller's permissions, as the registry asks for them (pkg/auth/access-control.ts answers). Actions and scopes
 * are the anchor's: `dashboards:read` on `dashboards:uid:<uid>`, `folders:create` on `folders:uid:<parent>`.
 */
export interface AccessCheck {
  /** Whether the caller may do `action` on `scope` ('' = not about one object). */
  can(action: string, scope?: string): Promise<boolean>;
  /** The candidates the caller may do `action` on, in their order. */
  filter<T>(action: string, candidates: readonly T[], scopeOf: (c: T) => string): Promise<T[]>;
}

export interface RequestContext {
  requester: Requester;
  namespace: string;
  /** The `fieldManager` of writes (query parameter, else derived from the User-Agent). */
  fieldManager: string;
  /**
   * The caller's permissions. Requests from clients always carry it; without it (the server's own writes:
   * start-up, provisioning) nothing is checked.
   */
  access?: AccessCheck;
}

export interface WriteOptions {
  /** `dryRun=All`: run every check, store nothing. */
  dryRun?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface ListOptions {
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
}
