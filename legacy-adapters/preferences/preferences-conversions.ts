import { COOKIE_TYPES, type CookieType, type PreferencesSpec } from '../../apis/preferences.svc.app/v1alpha1/preferences';
import { StatusError } from '../../pkg/errors';

const bad = (message: string) => new StatusError(400, 'BadRequest', message);
const badData = () => bad('bad request data');

/** The preference object of GET (spec §2.11): every key, unset ones at their default. */
export interface PreferencesDTO {
  theme: string;
  homeDashboardId: number;
  homeDashboardUID: string;
  timezone: string;
  weekStart: string;
  language: string;
  regionalFormat: string;
  navbar: { bookmarkUrls: string[] | null };
  queryHistory: { homeTab: string };
  cookiePreferences: Partial<Record<CookieType, Record<string, never>>>;
}

/**
 * The GET body of stored preferences; `home` is their home dashboard as it still exists (`{uid: '', id: 0}` when
 * unset or deleted, as the anchor answers no uid then).
 *
 * @example
 *   toPreferencesDTO(spec, { uid: 'abc', id: 7 }).homeDashboardId; // 7
 */
export function toPreferencesDTO(spec: PreferencesSpec, home: { uid: string; id: number }): PreferencesDTO {
  return {
    theme: spec.theme,
    homeDashboardId: home.id,
    homeDashboardUID: home.uid,
    timezone: spec.timezone,
    weekStart: spec.weekStart,
    language: spec.language,
    regionalFormat: spec.regionalFormat,
    navbar: { bookmarkUrls: spec.navbar.bookmarkUrls ?? null },
    queryHistory: { homeTab: spec.queryHistory.homeTab },
    cookiePreferences: spec.cookiePreferences as PreferencesDTO['cookiePreferences'],
  };
}

/** What a PUT or PATCH body asks: the keys it gives, and the home dashboard by uid or deprecated id. */
export interface PreferencesCommand {
  changes: Partial<Omit<PreferencesSpec, 'homeDashboardUID'>>;
  homeDashboardUID?: string;
  homeDashboardId?: number;
}

/**
 * Whether `tz` is a timezone preference: '' (default), `utc`, `browser` or an IANA name the runtime knows.
 *
 * @example
 *   isValidTimezone('Europe/Paris'); // true
 *   isValidTimezone('Mars/Olympus'); // false
 */
export function isValidTimezone(tz: string): boolean {
  if (tz === '' || tz === 'utc' || tz === 'browser') return true;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function optionalString(b: Record<string, unknown>, key: string): string | undefined {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badData();
  return v;
}

function plainObject(v: unknown): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw badData();
  return v as Record<string, unknown>;
}

/** `cookies: ["analytics", ...]` (the anchor's commands) or `cookiePreferences: {analytics: {}}` (its GET shape). */
function cookiesOf(b: Record<string, unknown>): PreferencesSpec['cookiePreferences'] | undefined {
  let types: unknown[];
  if (b.cookies !== undefined && b.cookies !== null) {
    if (!Array.isArray(b.cookies)) throw badData();
    types = b.cookies;
  } else if (b.cookiePreferences !== undefined && b.cookiePreferences !== null) {
    types = Object.keys(plainObject(b.cookiePreferences));
  } else return undefined;
  if (!types.every((c): c is CookieType => COOKIE_TYPES.includes(c as CookieType))) throw badData();
  return Object.fromEntries(types.map((c) => [c, {}]));
}

function navbarOf(b: Record<string, unknown>): PreferencesSpec['navbar'] | undefined {
  if (b.navbar === undefined || b.navbar === null) return undefined;
  const urls = plainObject(b.navbar).bookmarkUrls;
  if (urls === undefined || urls === null) return { bookmarkUrls: null };
  if (!Array.isArray(urls) || !urls.every((u) => typeof u === 'string')) throw badData();
  return { bookmarkUrls: urls };
}

function queryHistoryOf(b: Record<string, unknown>): PreferencesSpec['queryHistory'] | undefined {
  if (b.queryHistory === undefined || b.queryHistory === null) return undefined;
  return { homeTab: optionalString(plainObject(b.queryHistory), 'homeTab') ?? '' };
}

function homeDashboardIdOf(b: Record<string, unknown>): number | undefined {
  const v = b.homeDashboardId;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw badData();
  return v;
}

/**
 * Binds the body of `PUT`/`PATCH .../preferences` (the anchor's UpdatePrefsCmd and PatchPrefsCmd): 400 "bad request
 * data" for a wrong type, "Invalid theme" (not `light`, `dark` or ''), "Invalid timezone".
 *
 * @example
 *   parsePreferencesCommand({ theme: 'dark' }); // { changes: { theme: 'dark' } }
 */
export function parsePreferencesCommand(body: unknown): PreferencesCommand {
  const b = plainObject(body);
  const theme = optionalString(b, 'theme');
  if (theme !== undefined && theme !== '' && theme !== 'light' && theme !== 'dark') throw bad('Invalid theme');
  const timezone = optionalString(b, 'timezone');
  if (timezone !== undefined && !isValidTimezone(timezone)) throw bad('Invalid timezone');
  const given = {
    theme,
    timezone,
    weekStart: optionalString(b, 'weekStart'),
    language: optionalString(b, 'language'),
    regionalFormat: optionalString(b, 'regionalFormat'),
    navbar: navbarOf(b),
    queryHistory: queryHistoryOf(b),
    cookiePreferences: cookiesOf(b),
  };
  const changes = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as PreferencesCommand['changes'];
  return { changes, homeDashboardUID: optionalString(b, 'homeDashboardUID'), homeDashboardId: homeDashboardIdOf(b) };
}
