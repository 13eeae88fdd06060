import type { KindRegistration } from '../../../../pkg/meta';
import { type AuthTokenSpec, authTokenSpecSchema } from './authtoken-schema';

export type { AuthTokenSpec } from './authtoken-schema';

/**
 * AuthToken, `iam.svc.app/v0alpha1`: one login session, global (identity namespace). The object name is a
 * digest of the session secret; the numeric id the admin API shows (`authTokenId`) is the registry's
 * `svc.app/deprecatedInternalID`, and the `svc.app/user-id` label lists a user's sessions.
 */
export const authTokenKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'AuthToken',
  plural: 'authtokens',
  singular: 'authtoken',
  specSchema: authTokenSpecSchema,
  deleteResponse: 'status',
  internalIds: true,
  printerColumns: [
    { name: 'User', type: 'integer', jsonPath: '.spec.userId' },
    { name: 'Seen', type: 'date', jsonPath: '.spec.seenAt' },
  ],
} satisfies KindRegistration<AuthTokenSpec>;
