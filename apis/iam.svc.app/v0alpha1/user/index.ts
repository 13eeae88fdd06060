import type { KindRegistration } from '../../../../pkg/meta';
import { type UserSpec, userSpecSchema } from './user-schema';
import { userStrategy } from './user-strategy';

export type { UserSpec } from './user-schema';

/**
 * User, `iam.svc.app/v0alpha1`: global, so every user lives in the identity namespace. The object name is the
 * user's numeric id (also the `svc.app/deprecatedInternalID` label): a second create of the same id is
 * AlreadyExists, which makes id assignment race-free.
 */
export const userKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'User',
  plural: 'users',
  singular: 'user',
  specSchema: userSpecSchema,
  strategy: userStrategy,
  deleteResponse: 'status',
  // An old password's hash stays out of history, so a password change leaves none behind.
  secretFields: ['spec.passwordHash'],
  printerColumns: [
    { name: 'Login', type: 'string', jsonPath: '.spec.login' },
    { name: 'Email', type: 'string', jsonPath: '.spec.email' },
  ],
} satisfies KindRegistration<UserSpec>;
