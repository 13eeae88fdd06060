import { StatusError } from '../../../../pkg/errors';
import { anyKind, type KindRegistration } from '../../../../pkg/meta';
import { preferencesKind, preferencesOf } from '../../../preferences.svc.app/v1alpha1/preferences';
import { orgMemberKind } from '../orgmember';
import { grantsTo, resourcePermissionKind } from '../resourcepermission';
import { type UserSpec, userSpecSchema } from './user-schema';
import { userStrategy } from './user-strategy';

export type { UserSpec } from './user-schema';

/**
 * User, `iam.svc.app/v0alpha1`: global, so every user lives in the identity namespace. The object name is the
 * user's numeric id (also the `svc.app/deprecatedInternalID` label), from the registry's never-reused sequence.
 * Logins and emails share one space of values, compared case-insensitively: a user signs in with either, so no
 * user's login or email may be another's login or email.
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
  internalIds: 'name',
  unique: [
    {
      field: 'login',
      value: (spec) => [spec.login.trim().toLowerCase(), spec.email.trim().toLowerCase()],
      scope: 'cluster',
      error: () => new StatusError(412, 'Conflict', 'User with same email or login already exists'),
    },
  ],
  // Its membership of every organization (each named by the user's id), and with them its teams there; its
  // preferences and its items in managed permissions, in every organization (by its uid).
  cascades: [
    { kind: anyKind(orgMemberKind), dependents: (user) => ({ namespace: '*', names: [user.metadata.name] }) },
    { kind: anyKind(preferencesKind), dependents: (user) => preferencesOf('user', user.spec.uid, '*') },
    { kind: anyKind(resourcePermissionKind), dependents: (user) => grantsTo('User', user.spec.uid, '*') },
  ],
  // What the legacy user searches match and sort by (the object name is the user's id), and the uid routes look
  // the users of their items up by.
  fields: {
    login: { path: ['spec', 'login'] },
    email: { path: ['spec', 'email'] },
    name: { path: ['spec', 'name'] },
    id: { path: ['metadata', 'name'], as: 'number' },
    uid: { path: ['spec', 'uid'], as: 'exact' },
  },
  printerColumns: [
    { name: 'Login', type: 'string', jsonPath: '.spec.login' },
    { name: 'Email', type: 'string', jsonPath: '.spec.email' },
  ],
} satisfies KindRegistration<UserSpec>;
