import { StatusError } from '../../../../pkg/errors';
import { anyKind, type KindRegistration, Labels } from '../../../../pkg/meta';
import { assignmentsOf, roleBindingKind } from '../rolebinding';
import { serviceAccountTokenKind, TOKEN_LABELS, TOKENS_NAMESPACE } from '../serviceaccounttoken';
import { type ServiceAccountSpec, serviceAccountSpecSchema } from './serviceaccount-schema';

export type { ServiceAccountSpec } from './serviceaccount-schema';

/**
 * ServiceAccount, `iam.svc.app/v0alpha1`, in its organization's namespace. The object name is the service
 * account's uid (its identity is `service-account:<uid>`); the legacy numeric id is the registry's
 * `svc.app/deprecatedInternalID`. Logins are unique in the organization.
 */
export const serviceAccountKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  specSchema: serviceAccountSpecSchema,
  deleteResponse: 'status',
  internalIds: true,
  unique: [{ field: 'login', value: (spec) => spec.login.toLowerCase(), error: () => new StatusError(400, 'BadRequest', 'service account already exists') }],
  // fixed:serviceaccounts:writer (Admins), checked by the service accounts area on `serviceaccounts:id:<id>` (roles
  // only, as the team kind's).
  access: { resource: 'serviceaccounts', roles: { Admin: [{ verbs: ['create', 'read', 'write', 'delete', 'permissions:read', 'permissions:write'], on: 'all' }] } },
  // Its tokens stop working with it, in the same transaction; its custom roles go too.
  cascades: [
    { kind: anyKind(serviceAccountTokenKind), dependents: (sa) => ({ namespace: TOKENS_NAMESPACE, labels: { [TOKEN_LABELS.serviceAccount]: sa.metadata.name } }) },
    { kind: anyKind(roleBindingKind), dependents: (sa) => assignmentsOf('service-account', sa.metadata.labels?.[Labels.deprecatedInternalID]) },
  ],
  // What the legacy service account search matches, filters and sorts by.
  fields: {
    name: { path: ['spec', 'title'] },
    login: { path: ['spec', 'login'] },
    isDisabled: { path: ['spec', 'isDisabled'] },
    id: { path: ['metadata', 'labels', Labels.deprecatedInternalID], as: 'number' },
  },
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.title' },
    { name: 'Role', type: 'string', jsonPath: '.spec.role' },
  ],
} satisfies KindRegistration<ServiceAccountSpec>;
