import type { KindRegistration, Resource } from '../meta';
import type { GroupResource, StorageTx } from '../../storage';

/** Who is asking, as the registry needs it: the `<user-type>:<uid>` written to createdBy/updatedBy. */
export interface Requester {
  /** `user:<uid>`, `service-account:<uid>`... */
  identity: string;
  /** The login, for messages (`User "ana" cannot ...`); the identity when unset. */
  login?: string;
}

/**
 * What a check is about: a scope (`dashboards:uid:abc`), or a scope with the folder the object is in when the
 * caller knows it ('' = the root), which spares the authorizer looking it up for inheritance.
 */
export type AccessTarget = string | { scope: string; folder?: string };

/** What a folder or dashboard is, for {@link AccessCheck.created} and {@link AccessCheck.deleted}. */
export interface AccessObject {
  /** The kind's `access.resource`: `folders`, `dashboards`. */
  resource: string;
  namespace: string;
  name: string;
  /** Its folder ('' = the root). */
  folder: string;
  /** Its `metadata.uid`: which object of that name it is (a name may be used again after a delete). */
  uid: string;
}

/**
 * The caller's permissions, as the registry asks for them (pkg/auth/authorization/access-control.ts answers). Actions and scopes
 * are the anchor's: `dashboards:read` on `dashboards:uid:<uid>`, `folders:create` on `folders:uid:<parent>`.
 */
export interface AccessCheck {
  /** Whether the caller may do `action` on `target` ('' = not about one object). */
  can(action: string, target?: AccessTarget): Promise<boolean>;
  /** The candidates the caller may do `action` on, in their order. */
  filter<T>(action: string, candidates: readonly T[], targetOf: (c: T) => AccessTarget): Promise<T[]>;
  /**
   * The registry created an object of a kind with `access` for this caller (not on dry runs), in transaction `tx`:
   * its default permissions are written here, in the same transaction (creator Admin; at the root also Editor
   * Edit and Viewer View), so that they commit with it. Only writes through `tx`; no other I/O.
   */
  created?(object: AccessObject, tx: StorageTx): Promise<void>;
  /**
   * The types {@link created} writes for a new object of `resource`: the registry locks them with the created kind's
   * type, in one statement and in the global lock order, before the object is written.
   */
  createdTypes?(resource: string): readonly GroupResource[];
  /** The registry deleted these objects (a folder's contents included) in `tx`: their permissions go too, in it. */
  deleted?(objects: readonly AccessObject[], tx: StorageTx): Promise<void>;
  /**
   * Whether the caller could do `action` on a deleted object just before it was deleted: with the permissions and
   * folders it had then, which {@link deleted} may have removed with it (watch DELETED events). Unset: `can` on it.
   */
  couldBeforeDeletion?(action: string, object: AccessObject): Promise<boolean>;
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
  /**
   * An invariant across objects of the kind, checked in the write's transaction with the kind's type locked (no
   * other write of the kind runs meanwhile): `current` as stored, `next` what an update writes (undefined for a
   * delete). Throws to refuse; in-process only.
   *
   * @example { check: async (tx, user, next) => { if (leavesNoServerAdmin(await tx.list(users), user, next)) throw lastAdmin(); } }
   */
  check?: (tx: StorageTx, current: Resource, next: Resource | undefined) => Promise<void>;
  /**
   * The `metadata.generation` an update is made on (the legacy API's `version`): another stored one is the kind's
   * conflict (its `conflictError`, else a 409), decided in the update's locked read-modify-write. In-process only.
   */
  expectedGeneration?: number;
  /**
   * Writes that commit with a create, or not at all (companion objects, through `Registry.putWithin`): `kinds`, what
   * `write` writes, are locked with the created kind's type up front, in the global lock order; `write` gets the
   * created object. In-process only; ignored by a dry run.
   *
   * @example { alongside: { kinds: [orgMemberKind], write: (tx, user) => registry.putWithin(tx, inOrg, orgMemberKind, user.metadata.name, spec) } }
   */
  alongside?: { kinds: readonly KindRegistration[]; write: (tx: StorageTx, created: Resource) => Promise<unknown> };
}

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface ListOptions {
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * Only objects in this folder ('' = the root), by the `svc.app/folder` annotation: the immediate children of a
   * folder, as the legacy folder and search lists ask for them. In-process only (no /apis parameter maps to it).
   */
  folder?: string;
  /**
   * `?resourceVersion=` of a list: with `resourceVersionMatch` `Exact`, the collection as it was at that version
   * (410 once history no longer holds it); else any version not older, which the current one is. Not with
   * `continue` (400), and never past the type's current version (400).
   */
  resourceVersion?: number;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  /**
   * Where to start, as a decoded continue token: the collection at that resourceVersion, names after `after` ('' =
   * from the first). In-process only: a list across namespaces reads every namespace at one version.
   */
  position?: { resourceVersion: number; after: string };
}
