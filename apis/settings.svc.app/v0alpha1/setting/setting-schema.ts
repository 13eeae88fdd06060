import { z } from 'zod';

/**
 * One section of settings changed through `PUT /api/admin/settings` (the enterprise edition's `auth.saml`): the
 * values the database holds over the configuration's, as strings (as an INI file writes them).
 */
export const settingSpecSchema = z.looseObject({
  /** The section, as `GET /api/admin/settings` keys it: `auth.saml`. */
  section: z.string().regex(/^[a-z][a-z0-9_.]*$/, 'must be a section name such as auth.saml'),
  values: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be a setting name'), z.string()),
});

export type SettingSpec = z.infer<typeof settingSpecSchema>;
