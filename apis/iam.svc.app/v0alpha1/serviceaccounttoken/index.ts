import { StatusError } from '../../../../pkg/errors';
import type { KindRegistration } from '../../../../pkg/meta';
import { type ServiceAccountTokenSpec, serviceAccountTokenSpecSchema } from './serviceaccounttoken-schema';
import { serviceAccountTokenStrategy } from './serviceaccounttoken-strategy';

export type { ServiceAccountTokenSpec } from './serviceaccounttoken-schema';

/** Labels that find a service account's tokens, or an organization's, without reading them all. */
export const TOKEN_LABELS = { serviceAccount: 'svc.app/service-account', orgId: 'svc.app/org-id' } as const;

/** Where tokens live: the identity namespace (pkg/auth's IDENTITY_NAMESPACE), as a key is authenticated before any org is known. */
export const TOKENS_NAMESPACE = 'svc-identity';

/**
 * ServiceAccountToken, `iam.svc.app/v0alpha1`, in the identity namespace. The object name is the first 40 hex
 * characters of the key's SHA-256, so authenticating a key is one read by name; the legacy numeric token id is the
 * registry's `svc.app/deprecatedInternalID`. Names are unique in the token's organization (spec.orgId), compared
 * case-insensitively.
 */
export const serviceAccountTokenKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'ServiceAccountToken',
  plural: 'serviceaccounttokens',
  singular: 'serviceaccounttoken',
  specSchema: serviceAccountTokenSpecSchema,
  strategy: serviceAccountTokenStrategy,
  deleteResponse: 'status',
  internalIds: true,
  // They go with their organization (a key of a deleted org's service account never signs in again).
  orgLabel: TOKEN_LABELS.orgId,
  unique: [
    {
      field: 'title',
      value: (spec) => `${spec.orgId}/${spec.title.trim().toLowerCase()}`,
      scope: 'cluster',
      error: () => new StatusError(400, 'BadRequest', 'service account token with given name already exists in the organization'),
    },
  ],
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.title' },
    { name: 'Expires', type: 'date', jsonPath: '.spec.expires' },
  ],
} satisfies KindRegistration<ServiceAccountTokenSpec>;
