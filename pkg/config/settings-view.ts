import { durationSettings, envName, secretSettings, settingKeys, type Config } from './config-schema';
import { formatDuration } from './duration';

/** What a secret shows as: the anchor's nine asterisks. */
export const REDACTED = '*********';

/** What the password inside a URL shows as, as the anchor writes it. */
export const REDACTED_URL_PASSWORD = 'xxxxx';

/** The anchor's words: a setting whose environment name holds one of these is a secret. */
const SECRET_WORDS = ['PASSWORD', 'SECRET', 'PROVIDER_CONFIG', 'PRIVATE_KEY', 'SECRET_KEY', 'CERTIFICATE', 'ACCOUNT_KEY', 'ENCRYPTION_KEY', 'VAULT_TOKEN', 'CLIENT_SECRET', 'ENTERPRISE_LICENSE', 'API_DB_PASS'];
/** The anchor's token-style suffixes: a setting whose environment name ends so is a secret. */
const TOKEN_SUFFIXES = ['ID_FORWARDING_TOKEN', 'AUTHENTICATION_TOKEN', 'AUTH_TOKEN', 'RENDERER_TOKEN', 'API_TOKEN', 'WEBHOOK_TOKEN', 'INSTALL_TOKEN'];
/** URLs of these keys are shown whole, as the anchor shows them (their user-info is an identifier, not a password). */
const URL_KEPT = /analytics|telemetry|reporting/i;

/** A setting's value as the string an INI file would hold: lists comma-joined, durations as `30d`. */
export function settingString(name: string, value: unknown): string {
  if (durationSettings.has(name) && typeof value === 'number') return formatDuration(value);
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * Whether `section.key` is a secret: the anchor's rule on its environment name (`SVC_AUTH_SAML_PRIVATE_KEY` holds
 * `PRIVATE_KEY`), or one of this server's own secrets whose name the rule misses (the initial service-account token).
 */
export function isSecretSetting(section: string, key: string): boolean {
  const env = envName(section, key).replaceAll('-', '_');
  return secretSettings.has(`${section}.${key}`) || SECRET_WORDS.some((w) => env.includes(w)) || TOKEN_SUFFIXES.some((s) => env.endsWith(s));
}

/**
 * One setting as `GET /api/admin/settings` shows it: a secret as nine asterisks (an empty one stays empty), the
 * password of a URL (user-info, or a `password=` parameter) as `xxxxx`.
 */
export function maskedSetting(section: string, key: string, value: string): string {
  if (value === '') return '';
  if (isSecretSetting(section, key)) return REDACTED;
  return URL_KEPT.test(key) ? value : maskUrlPassword(value);
}

/**
 * The settings object of `GET /api/admin/settings` (spec §2.14): keyed by section, each a map of setting name to
 * string, masked by {@link maskedSetting}. `stored` are the sections kept in the database (the enterprise edition's
 * `auth.saml`), shown after the configuration's.
 *
 * @example
 *   settingsView(config).security.admin_password; // '*********'
 *   settingsView(config).database.url; // 'postgres://svc:xxxxx@db:5432/svc'
 */
export function settingsView(config: Config, stored: Readonly<Record<string, Readonly<Record<string, string>>>> = {}): Record<string, Record<string, string>> {
  const view: Record<string, Record<string, string>> = {};
  for (const [section, key] of settingKeys()) {
    (view[section] ??= {})[key] = maskedSetting(section, key, settingString(`${section}.${key}`, (config[section] as Record<string, unknown>)[key]));
  }
  for (const [section, values] of Object.entries(stored)) {
    for (const [key, value] of Object.entries(values)) (view[section] ??= {})[key] = maskedSetting(section, key, value);
  }
  return view;
}

/** Masks the password of a URL; a value that is no URL with a password is returned as it is. */
function maskUrlPassword(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || !URL.canParse(value)) return value;
  const url = new URL(value);
  if (url.password === '' && !url.searchParams.has('password')) return value;
  if (url.password !== '') url.password = REDACTED_URL_PASSWORD;
  if (url.searchParams.has('password')) url.searchParams.set('password', REDACTED_URL_PASSWORD);
  return url.toString();
}
