import { StatusError } from '../../../../pkg/errors';
import type { KindRegistration } from '../../../../pkg/meta';
import { type OrgSpec, orgSpecSchema } from './org-schema';

export type { OrgSpec } from './org-schema';

/**
 * Organization, `iam.svc.app/v0alpha1`: global, in the identity namespace; the object name is the numeric org id
 * (also the `svc.app/deprecatedInternalID` label), from the registry's never-reused sequence. Names are unique,
 * compared case-insensitively.
 */
export const orgKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'Org',
  plural: 'orgs',
  singular: 'org',
  specSchema: orgSpecSchema,
  deleteResponse: 'status',
  internalIds: 'name',
  unique: [{ field: 'name', value: (spec) => spec.name.trim().toLowerCase(), scope: 'cluster', error: () => new StatusError(409, 'Conflict', 'Organization name taken') }],
  printerColumns: [{ name: 'Name', type: 'string', jsonPath: '.spec.name' }],
} satisfies KindRegistration<OrgSpec>;
