import type { KindRegistration } from '../../../../pkg/meta';
import { type StarsSpec, starsSpecSchema } from './stars-schema';

export { type StarredItem, type StarsSpec } from './stars-schema';

/**
 * What one user starred in one organization, `collections.svc.app/v1alpha1` (the anchor keeps stars as a
 * collection too): in the org's namespace, named after the user (pkg/stars). Kept beside the objects it points at, not served
 * under /apis: the legacy `/api/user/stars` endpoints are its clients.
 */
export const starsKind = {
  group: 'collections.svc.app',
  version: 'v1alpha1',
  kind: 'Stars',
  plural: 'stars',
  singular: 'stars',
  specSchema: starsSpecSchema,
  deleteResponse: 'status',
} satisfies KindRegistration<StarsSpec>;
