import { z } from 'zod';
import { COOKIE_TYPES } from '../../apis/preferences.svc.app/v1alpha1/preferences';
import { defineArea, type Guard, guard, type LegacyMethod, type LegacyParam, type LegacyRoute } from '../shared';
import { orgLevel, type PreferencesLevel, readPreferences, teamLevel, userLevel, writePreferences } from './preferences-routes';

const preferences = z.object({
  theme: z.string().describe('light, dark, or empty for the default'),
  homeDashboardId: z.number().int().describe('deprecated: the numeric id of homeDashboardUID (0 when unset)'),
  homeDashboardUID: z.string().describe('the uid of the home dashboard, empty for the built-in one'),
  timezone: z.string().describe('an IANA name, utc, browser, or empty for the default'),
  weekStart: z.string(),
  language: z.string(),
  regionalFormat: z.string(),
  navbar: z.object({ bookmarkUrls: z.array(z.string()).nullable() }),
  queryHistory: z.object({ homeTab: z.string() }),
  cookiePreferences: z.object({ analytics: z.object({}).optional(), performance: z.object({}).optional(), functional: z.object({}).optional() }),
});
const command = z.object({
  theme: z.enum(['', 'light', 'dark']).optional(),
  homeDashboardUID: z.string().optional().describe('a dashboard of the org; empty clears'),
  homeDashboardId: z.number().int().optional().describe('deprecated: used when homeDashboardUID is absent'),
  timezone: z.string().optional(),
  weekStart: z.string().optional(),
  language: z.string().optional(),
  regionalFormat: z.string().optional(),
  navbar: z.object({ bookmarkUrls: z.array(z.string()).nullable() }).optional(),
  queryHistory: z.object({ homeTab: z.string() }).optional(),
  cookies: z.array(z.enum(COOKIE_TYPES)).optional(),
});
const updated = { description: 'Preferences updated (as text/plain).', schema: z.object({ message: z.string() }), name: 'SuccessResponseBody' };
const writeErrors = { 400: { description: 'bad request data, Invalid theme, Invalid timezone.' }, 401: {}, 403: {}, 404: { description: 'Dashboard not found.' } };

/** Who may read and change a level's preferences. */
interface Guards {
  read: Guard;
  write: Guard;
}

/** GET, PUT and PATCH of one level of preferences. */
function level(path: string, name: string, tags: string[], who: string, owner: PreferencesLevel, guards: Guards, extra: Record<number, object> = {}, params?: LegacyParam[]): LegacyRoute[] {
  const op = (method: LegacyMethod, verb: string, summary: string, description: string): LegacyRoute => ({
    method, path, operationId: `${verb}${name}Preferences`, tags, summary, description, params,
    guard: method === 'get' ? guards.read : guards.write,
    handler: method === 'get' ? readPreferences(owner) : writePreferences(owner, method === 'put' ? 'put' : 'patch'),
    ...(method !== 'get' && { body: { schema: command, name: method === 'put' ? 'UpdatePrefsCmd' : 'PatchPrefsCmd' } }),
    responses: method === 'get' ? { 200: { description: 'Every key; unset ones at their default.', schema: preferences, name: 'Preferences' }, 401: {}, 403: {}, ...extra } : { 200: updated, ...writeErrors, ...extra },
  });
  return [
    op('get', 'get', `Get the ${who} preferences.`, 'Every key of spec 2.11.'),
    op('put', 'update', `Replace the ${who} preferences.`, 'Omitted keys reset to their default.'),
    op('patch', 'patch', `Change some ${who} preferences.`, 'Only the keys given change.'),
  ];
}

/** Why the team routes check their action themselves. */
const team = 'the team may be named by its uid: its id is found first, then the action is checked on it (403 before 404)';

/** /api/user|org|teams/:teamId/preferences (preferences-routes.ts). */
export const preferencesArea = defineArea({
  name: 'preferences',
  routes: [
    ...level('/api/user/preferences', 'User', ['user_preferences'], "signed-in user's (users only: 403 for service accounts)", userLevel, { read: guard.user, write: guard.user }),
    ...level('/api/org/preferences', 'Org', ['org_preferences'], "current organization's (changed by org Admins)", orgLevel, { read: guard.signedIn, write: guard.orgAdmin }),
    ...level(
      '/api/teams/:teamId/preferences', 'Team', ['teams'], "team's (read with teams:read, changed with teams:write)", teamLevel,
      { read: guard.inHandler(guard.can('teams:read', 'teams:id:{teamId}'), team), write: guard.inHandler(guard.can('teams:write', 'teams:id:{teamId}'), team) },
      { 404: { description: 'Team not found (or, on writes, Dashboard not found).' } },
      [{ name: 'teamId', in: 'path', type: 'string', required: true, description: 'the numeric id or uid of the team' }],
    ),
  ],
});
