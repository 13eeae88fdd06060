import type { KindStrategy, Resource } from '../../../../pkg/meta';
import type { UserSpec } from './user-schema';

/**
 * The password hash never leaves the server, and clients never see or send it back: an update without one keeps
 * the stored hash, so a read-modify-write of a user (which never saw the hash) does not erase the password.
 */
export const userStrategy = {
  prepareForUpdate(obj: Resource<UserSpec>, old: Resource<UserSpec>) {
    // The uid never changes: identities written to createdBy/updatedBy keep naming this user.
    if (obj.spec && old.spec) obj.spec.uid = old.spec.uid;
    if (obj.spec && obj.spec.passwordHash === undefined && old.spec?.passwordHash !== undefined) {
      obj.spec.passwordHash = old.spec.passwordHash;
    }
  },
  decorate(obj: Resource<UserSpec>) {
    if (!obj.spec) return;
    const { passwordHash: _hidden, ...spec } = obj.spec;
    obj.spec = spec;
  },
} satisfies KindStrategy<UserSpec>;
