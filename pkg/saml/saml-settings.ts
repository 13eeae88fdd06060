import { type AuthSamlConfig, authSamlSchema, type Config, settingString } from '../config';

/** The section of the configuration, and of `PUT /api/admin/settings`, the SAML settings live in. */
export const SAML_SECTION = 'auth.saml';

/** The effective SAML settings, or why they cannot be used (the names of the settings at fault, never their values). */
export type EffectiveSamlSettings = { ok: true; settings: AuthSamlConfig } | { ok: false; problem: string };

/**
 * The `[auth.saml]` settings in force: the configuration's, overridden by the values `PUT /api/admin/settings`
 * stored in the database (`stored`, strings as an INI file holds them), parsed by the configuration's own schema
 * so a stored value means what it would mean in the file. Stored keys the schema does not know are ignored.
 *
 * @example
 *   effectiveSamlSettings(config, { enabled: 'true', allow_sign_up: 'false' }).settings.allow_sign_up; // false
 */
export function effectiveSamlSettings(config: Config, stored: Readonly<Record<string, string>> = {}): EffectiveSamlSettings {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(authSamlSchema.shape) as (keyof AuthSamlConfig)[]) {
    raw[key] = Object.hasOwn(stored, key) ? stored[key]! : settingString(`${SAML_SECTION}.${key}`, config[SAML_SECTION][key]);
  }
  const parsed = authSamlSchema.safeParse(raw);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const names = [...new Set(parsed.error.issues.map((i) => `${SAML_SECTION}.${i.path.join('.')}`))];
  return { ok: false, problem: `invalid ${names.join(', ')}` };
}

/** A comma- or space-separated list setting, as the anchor reads them. */
export const listSetting = (value: string): string[] => value.split(/[\s,]+/).filter((s) => s !== '');
