import { durationSettings, secretSettings, settingKeys, type Config } from './config-schema';
import { formatDuration } from './duration';

/** What a secret shows as, the same as Grafana's `/api/admin/settings`. */
export const REDACTED = '************';

/** A setting's value as the string an INI file would hold: lists comma-joined, durations as `30d`. */
export function settingString(name: string, value: unknown): string {
  if (durationSettings.has(name) && typeof value === 'number') return formatDuration(value);
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The settings object of `GET /api/admin/settings` (spec §2.14): keyed by section, each a map of setting name to
 * string. `security.admin_password`, `security.secret_key` and the password in `database.url` (in the userinfo or a
 * `password=` query parameter) are masked; an empty secret stays empty, as Grafana shows it.
 *
 * @example
 *   settingsView(config).security.admin_password; // '************'
 *   settingsView(config).database.url; // 'postgres://svc:************@db:5432/svc'
 */
export function settingsView(config: Config): Record<string, Record<string, string>> {
  const view: Record<string, Record<string, string>> = {};
  for (const [section, key] of settingKeys()) {
    const value = settingString(`${section}.${key}`, (config[section] as Record<string, unknown>)[key]);
    (view[section] ??= {})[key] =
      value === '' ? '' : secretSettings.has(`${section}.${key}`) ? REDACTED : section === 'database' && key === 'url' ? redactUrl(value) : value;
  }
  return view;
}

/** Masks the password of a connection URL; a URL that does not parse is masked whole rather than leaked. */
function redactUrl(value: string): string {
  if (!URL.canParse(value)) return REDACTED;
  const url = new URL(value);
  if (url.password !== '') url.password = REDACTED;
  if (url.searchParams.has('password')) url.searchParams.set('password', REDACTED);
  return url.toString();
}
