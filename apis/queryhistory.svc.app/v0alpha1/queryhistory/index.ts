import type { KindRegistration } from '../../../../pkg/meta';
import { type QueryHistorySpec, queryHistorySpecSchema } from './queryhistory-schema';

export { type QueryHistorySpec, queryHistorySpecSchema } from './queryhistory-schema';

/**
 * A query of a user's Explore history, `queryhistory.svc.app/v0alpha1`: in the org's namespace, named by its uid,
 * labelled with its owner and its star (pkg/query-history). Not served under /apis: the legacy `/api/query-history`
 * endpoints are its clients, and each user sees only their own.
 */
export const queryHistoryKind = {
  group: 'queryhistory.svc.app',
  version: 'v0alpha1',
  kind: 'QueryHistory',
  plural: 'queryhistories',
  singular: 'queryhistory',
  specSchema: queryHistorySpecSchema,
  deleteResponse: 'status',
} satisfies KindRegistration<QueryHistorySpec>;
