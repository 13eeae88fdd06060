import type { KindRegistration } from '../../../../pkg/meta';
import { type SettingSpec, settingSpecSchema } from './setting-schema';

export type { SettingSpec } from './setting-schema';

/**
 * Setting, `settings.svc.app/v0alpha1`: one section of settings kept in the database (pkg/settings), so that every
 * replica serves the same `auth.saml` after a `PUT /api/admin/settings`; not served under /apis. History never
 * keeps the values (`secretFields`): a SAML private key is one of them.
 */
export const settingKind = {
  group: 'settings.svc.app',
  version: 'v0alpha1',
  kind: 'Setting',
  plural: 'settings',
  singular: 'setting',
  specSchema: settingSpecSchema,
  deleteResponse: 'status',
  secretFields: ['spec.values'],
} satisfies KindRegistration<SettingSpec>;
