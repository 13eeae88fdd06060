import type { KindRegistration } from '../../../../pkg/meta';
import { type LoginAttemptSpec, loginAttemptSpecSchema } from './loginattempt-schema';

export type { LoginAttemptSpec } from './loginattempt-schema';

/**
 * LoginAttempt, `iam.svc.app/v0alpha1`: a failed login, global (identity namespace), so that every replica
 * counts the same failures. Each failure is its own object, created and never updated: concurrent failures
 * never conflict.
 */
export const loginAttemptKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'LoginAttempt',
  plural: 'loginattempts',
  singular: 'loginattempt',
  specSchema: loginAttemptSpecSchema,
  deleteResponse: 'status',
} satisfies KindRegistration<LoginAttemptSpec>;
