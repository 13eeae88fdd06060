import { z } from 'zod';
import type { Config } from '../../pkg/config';
import { defineArea, guard } from '../shared';
import { ldapNotEnabled, reloadLdap } from './ldap-routes';
import { getSettings, settingsChangeSchema, updateSettings } from './settings-routes';
import { getStats, getUsageReportPreview } from './stats-routes';
import { disableUser, enableUser } from './user-state-routes';

const tags = ['admin'];
const message = z.object({ message: z.string() });
/** The settings object (spec §2.14): sections of settings, every value a string. */
const settingsBag = z.record(z.string(), z.record(z.string(), z.string()));
const count = z.number().int();
/** The anchor's AdminStats. */
const adminStats = z.object(Object.fromEntries(
  ['orgs', 'dashboards', 'snapshots', 'tags', 'datasources', 'playlists', 'stars', 'alerts', 'users', 'admins', 'editors', 'viewers', 'activeUsers', 'activeAdmins', 'activeEditors', 'activeViewers',
    'dailyActiveUsers', 'dailyActiveAdmins', 'dailyActiveEditors', 'dailyActiveViewers', 'monthlyActiveUsers', 'activeSessions', 'dailyActiveSessions'].map((k) => [k, count]),
));
const usageReportBody = z.object({
  version: z.string(), metrics: z.record(z.string(), z.number()), os: z.string(), arch: z.string(), edition: z.string(), hasValidLicense: z.boolean(),
  packaging: z.string(), usageStatsId: z.string(), databaseCreated: z.number().int().optional(),
});
const userId = { name: 'id', in: 'path', type: 'integer', required: true } as const;
const enterprise = (config: Config) => config.server.edition === 'enterprise';
const noLdap = 'This server has no LDAP: answers 400 "LDAP is not enabled", as the anchor does with LDAP not configured.';

/** Server administration (spec §4.11): settings, statistics, LDAP, disabling users. */
export const adminArea = defineArea({
  name: 'admin',
  routes: [
    {
      method: 'get', path: '/api/admin/settings', guard: guard.serverAdmin, handler: getSettings, operationId: 'adminGetSettings', tags,
      summary: 'The effective configuration by section (defaults, file, environment, flags; in the enterprise edition, the settings stored by PUT over them), every value a string.',
      description: 'Secrets are masked: nine asterisks for a setting whose environment name (SVC_<SECTION>_<KEY>) names a password, secret, private key, certificate or token (an empty one stays empty); the password inside a URL shows as xxxxx.',
      responses: { 200: { description: 'Settings by section.', schema: settingsBag, name: 'SettingsBag' }, 401: {}, 403: {} },
    },
    {
      method: 'put', path: '/api/admin/settings', guard: guard.serverAdmin, servedIn: enterprise, handler: updateSettings, operationId: 'adminUpdateSettings', tags,
      summary: 'Set and remove settings of the auth.saml section, stored in the database (every replica serves them at its next request).',
      description: 'Enterprise edition only: 404 in the others. `updates` (section → setting → value) and/or `removals` (section → setting names), at least one change; any other section is a 400 that changes nothing.',
      body: { schema: settingsChangeSchema, name: 'SettingsUpdateCommand' },
      responses: { 200: { description: 'Settings updated.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/admin/stats', guard: guard.serverAdmin, handler: getStats, operationId: 'adminGetStats', tags,
      summary: 'Counts of the stored objects of every organization: users by highest role, active users (seen in 30 days, 24 hours, this month) and sessions.',
      description: 'Counted from the database at each request (one counting query per kind; users, memberships, activity and sessions read once). `alerts` is 0: no alerting is served.',
      responses: { 200: { description: 'The statistics.', schema: adminStats, name: 'AdminStats' }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/admin/usage-report-preview', guard: guard.serverAdmin, handler: getUsageReportPreview, operationId: 'getUsageReportPreview', tags,
      summary: "The usage report the anchor would send (this server sends none), with its metric names (stats.<x>.count, stats.ds.<type>.count, stats.ds_access.<type>.<access>.count, edition.<e>...), from the same counts as the stats.",
      responses: { 200: { description: 'The report.', schema: usageReportBody, name: 'Report' }, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/admin/users/:id/disable', guard: guard.serverAdmin, handler: disableUser, operationId: 'adminDisableUser', tags: ['admin_users'],
      summary: 'Disable a user: every sign-in is refused, its sessions end (at their next request at the latest).',
      params: [userId], responses: { 200: { description: 'User disabled.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/admin/users/:id/enable', guard: guard.serverAdmin, handler: enableUser, operationId: 'adminEnableUser', tags: ['admin_users'],
      summary: 'Enable a disabled user again (its ended sessions stay ended: it signs in anew).',
      params: [userId], responses: { 200: { description: 'User enabled.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/admin/ldap/reload', guard: guard.serverAdmin, handler: reloadLdap, operationId: 'reloadLDAPCfg', tags: ['admin_ldap'],
      summary: "Removed (the anchor's release 12.4.0): LDAP configuration is loaded from SSO settings.",
      responses: { 410: { description: 'Gone.', schema: message }, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/admin/ldap/status', guard: guard.serverAdmin, handler: ldapNotEnabled, operationId: 'getLDAPStatus', tags: ['admin_ldap'],
      summary: 'Whether the LDAP servers answer.', description: noLdap, responses: { 400: {}, 401: {}, 403: {} },
    },
    {
      method: 'post', path: '/api/admin/ldap/sync/:user_id', guard: guard.serverAdmin, handler: ldapNotEnabled, operationId: 'postSyncUserWithLDAP', tags: ['admin_ldap'],
      summary: 'Synchronize one user with LDAP.', description: noLdap,
      params: [{ name: 'user_id', in: 'path', type: 'integer', required: true }], responses: { 400: {}, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/admin/ldap-sync-status', guard: guard.serverAdmin, servedIn: enterprise, handler: ldapNotEnabled, operationId: 'getSyncStatus', tags: ['ldap_debug', 'enterprise'],
      summary: 'The state of the LDAP background sync.',
      description: `Enterprise edition only: 404 in the others. ${noLdap} (What the anchor answers without LDAP is not published; this server answers as its other LDAP routes.)`,
      responses: { 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/admin/ldap/:user_name', guard: guard.serverAdmin, handler: ldapNotEnabled, operationId: 'getUserFromLDAP', tags: ['admin_ldap'],
      summary: 'How a user found in LDAP would be mapped.', description: noLdap,
      params: [{ name: 'user_name', in: 'path', type: 'string', required: true }], responses: { 400: {}, 401: {}, 403: {} },
    },
  ],
});
