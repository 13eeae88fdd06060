import type { KindRegistration } from '../../../../pkg/meta';
import { type PreferencesSpec, preferencesSpecSchema } from './preferences-schema';

export { COOKIE_TYPES, type CookieType, type PreferencesSpec, preferencesSpecSchema } from './preferences-schema';

/**
 * Preferences, `preferences.svc.app/v1alpha1`, in the organization's namespace: `user-<userUid>` (a user's in that
 * org), `team-<teamUid>` and `org` (the organization's own). Kept by the identity registry; the legacy
 * /api/user|org|teams/:id/preferences endpoints are its clients.
 */
export const preferencesKind = {
  group: 'preferences.svc.app',
  version: 'v1alpha1',
  kind: 'Preferences',
  plural: 'preferences',
  singular: 'preferences',
  specSchema: preferencesSpecSchema,
  deleteResponse: 'status',
  printerColumns: [
    { name: 'Theme', type: 'string', jsonPath: '.spec.theme' },
    { name: 'Home', type: 'string', jsonPath: '.spec.homeDashboardUID' },
  ],
} satisfies KindRegistration<PreferencesSpec>;
