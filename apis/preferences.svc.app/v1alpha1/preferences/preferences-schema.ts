import { z } from 'zod';

/** The cookie kinds a user may consent to (`cookiePreferences` keys, `cookies` of the legacy commands). */
export const COOKIE_TYPES = ['analytics', 'performance', 'functional'] as const;
export type CookieType = (typeof COOKIE_TYPES)[number];

/**
 * Preferences spec (spec §2.11): what a user, a team or an organization prefers. Every key is optional and '' (or
 * absent) means "not set here": the effective preferences of a user fall back to its teams', then its org's, then
 * the defaults. The home dashboard is stored by uid only (the deprecated numeric id is resolved on write).
 */
export const preferencesSpecSchema = z.looseObject({
  theme: z.enum(['', 'light', 'dark']).default(''),
  homeDashboardUID: z.string().default(''),
  timezone: z.string().default(''),
  weekStart: z.string().default(''),
  language: z.string().default(''),
  regionalFormat: z.string().default(''),
  navbar: z.looseObject({ bookmarkUrls: z.array(z.string()).nullable().default(null) }).default({ bookmarkUrls: null }),
  queryHistory: z.looseObject({ homeTab: z.string().default('') }).default({ homeTab: '' }),
  cookiePreferences: z.partialRecord(z.enum(COOKIE_TYPES), z.object({})).default({}),
});

export type PreferencesSpec = z.infer<typeof preferencesSpecSchema>;
