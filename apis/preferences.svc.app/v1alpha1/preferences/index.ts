import { type CascadeSelection, type KindRegistration, labelKey, nameProblem } from '../../../../pkg/meta';
import { type PreferencesSpec, preferencesSpecSchema } from './preferences-schema';

export { COOKIE_TYPES, type CookieType, type PreferencesSpec, preferencesSpecSchema } from './preferences-schema';

/** Whose preferences, within one organization: a user's, a team's or the organization's own. */
export type PreferencesOwner = { kind: 'user'; uid: string } | { kind: 'team'; uid: string } | { kind: 'org' };

/**
 * The object name of an owner's preferences: `org`, `user-<uid>`, `team-<uid>`; a uid that cannot be part of a
 * name (too long, other characters) is replaced by its digest.
 *
 * @example
 *   preferencesName({ kind: 'user', uid: 'admin' }); // 'user-admin'
 */
export function preferencesName(owner: PreferencesOwner): string {
  if (owner.kind === 'org') return 'org';
  const name = `${owner.kind}-${owner.uid}`;
  return nameProblem(name) ? `${owner.kind}-${labelKey(owner.uid).slice(0, 32)}` : name;
}

/**
 * A user's or team's preferences, for its kind's cascades: in the owner's namespace, or in `namespace` (`'*'`: a
 * deleted user's in every organization); none without a uid.
 */
export function preferencesOf(kind: 'user' | 'team', uid: string | undefined, namespace?: string): CascadeSelection {
  return uid ? { ...(namespace ? { namespace } : {}), names: [preferencesName({ kind, uid })] } : {};
}

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
