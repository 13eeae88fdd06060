import type { KindRegistration } from '../../../../pkg/meta';
import { type LastSeenSpec, lastSeenSpecSchema } from './lastseen-schema';

export type { LastSeenSpec } from './lastseen-schema';

/**
 * LastSeen, `iam.svc.app/v0alpha1`: a user's latest activity, global (identity namespace). The object name is the
 * user's uid (never reused, unlike numeric ids), so a new user never inherits a deleted one's activity.
 */
export const lastSeenKind = {
  group: 'iam.svc.app',
  version: 'v0alpha1',
  kind: 'LastSeen',
  plural: 'lastseens',
  singular: 'lastseen',
  specSchema: lastSeenSpecSchema,
  deleteResponse: 'status',
  printerColumns: [{ name: 'Seen', type: 'date', jsonPath: '.spec.seenAt' }],
} satisfies KindRegistration<LastSeenSpec>;
