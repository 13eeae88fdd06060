/** Who is asking, as the registry needs it: the `<user-type>:<uid>` written to createdBy/updatedBy. */
export interface Requester {
  /** `user:<uid>`, `service-account:<uid>`... */
  identity: string;
}

export interface RequestContext {
  requester: Requester;
  namespace: string;
  /** The `fieldManager` of writes (query parameter, else derived from the User-Agent). */
  fieldManager: string;
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
