import type { KindRegistration } from '../../../../pkg/meta';
import { type ServiceAccountTokenSpec, serviceAccountTokenSpecSchema } from './serviceaccounttoken-schema';
import { serviceAccountTokenStrategy } from './serviceaccounttoken-strategy';

export type { ServiceAccountTokenSpec } from './serviceaccounttoken-schema';

/**
 * ServiceAccountToken, `iam.svc.app/v0alpha1`, in the identity namespace. The object name is the first 40 hex
 * characters of the key's SHA-256, so authenticating a key is one read by name; the legacy numeric token id is the
 * registry's `svc.app/deprecatedInternalID`.
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
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.title' },
    { name: 'Expires', type: 'date', jsonPath: '.spec.expires' },
  ],
} satisfies KindRegistration<ServiceAccountTokenSpec>;
