import type { KindStrategy, Resource } from '../../../../pkg/meta';
import type { ServiceAccountTokenSpec } from './serviceaccounttoken-schema';

/**
 * The key's digest never leaves the server, and what a token authenticates as never changes: an update keeps the
 * stored digest, org and service account whatever it says (a read-modify-write never saw the digest).
 */
export const serviceAccountTokenStrategy = {
  prepareForUpdate(obj: Resource<ServiceAccountTokenSpec>, old: Resource<ServiceAccountTokenSpec>) {
    if (!obj.spec || !old.spec) return;
    obj.spec.hashedKey = old.spec.hashedKey;
    obj.spec.orgId = old.spec.orgId;
    obj.spec.serviceAccountUid = old.spec.serviceAccountUid;
  },
  decorate(obj: Resource<ServiceAccountTokenSpec>) {
    if (!obj.spec) return;
    const { hashedKey: _hidden, ...spec } = obj.spec;
    obj.spec = spec;
  },
} satisfies KindStrategy<ServiceAccountTokenSpec>;
