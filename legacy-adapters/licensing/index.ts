import { z } from 'zod';
import type { Config } from '../../pkg/config';
import { defineArea, guard } from '../shared';
import {
  checkLicense, deleteLicenseToken, getCustomPermissions, getCustomPermissionsCsv, getLicenseToken, postLicenseToken, refreshLicenseStats, renewLicenseToken,
} from './licensing-routes';

const tags = ['licensing', 'enterprise'];
const message = z.object({ message: z.string() });
/** Licensing is the enterprise edition's (spec §1). */
const enterprise = (config: Config) => config.server.edition === 'enterprise';
const enterpriseOnly = 'Enterprise edition only: 404 in the others. Server admins hold the licensing actions; a service account never does.';
const int = z.number().int();
/** The anchor's Token: the verified claims of the installed license. */
const token = z.object({
  account: z.string(), company: z.string(), details_url: z.string(), exp: int, iat: int, included_users: int, iss: z.string(), jti: z.string(), lexp: int,
  lic_exp_warn_days: int, lid: z.string(), limit_by: z.string(), max_concurrent_user_sessions: int, nbf: int, prod: z.array(z.string()), slug: z.string(),
  status: int, sub: z.string(), tok_exp_warn_days: int, trial: z.boolean(), trial_exp: int, update_days: int, usage_billing: z.boolean(),
}).partial();
const activeUserStats = z.object({ active_users: int, active_viewers: int, active_admins_and_editors: int });
const customRecord = z.object({
  id: int, uid: z.string(), title: z.string(), slug: z.string(), url: z.string(), isFolder: z.boolean(), orgId: int, granteeName: z.string(),
  granteeType: z.enum(['user', 'team', 'role']), granteeUrl: z.string(), customPermissions: z.string(), orgRole: z.string(), usersCount: int,
});
const tokenResponse = { description: 'The claims of the installed license.', schema: token, name: 'Token' };
const verified = 'The token is a JWT signed by the license authority (ES256 or RS256), verified with `[enterprise] license_public_key`; its `sub` must be this server\'s root URL, and it must be valid now (`nbf`, `exp`, `lexp`).';

/** The enterprise license (README "Licensing"): one per installation, the License kind (pkg/licensing). */
export const licensingArea = defineArea({
  name: 'licensing',
  routes: [
    {
      method: 'get', path: '/api/licensing/check', guard: guard.can('licensing:read'), servedIn: enterprise, handler: checkLicense,
      operationId: 'getStatus', tags, summary: 'Whether a valid license is installed: `true` or `false`.',
      description: `${enterpriseOnly} The stored token is verified again at each request, so an expired license answers false.`,
      responses: { 200: { description: 'true or false.', schema: z.boolean() }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/licensing/token', guard: guard.can('licensing:read'), servedIn: enterprise, handler: getLicenseToken,
      operationId: 'getLicenseToken', tags, summary: 'The claims of the installed license token (also once expired).',
      description: `${enterpriseOnly} 404 "No license token is installed" when there is none.`,
      responses: { 200: tokenResponse, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path: '/api/licensing/token', guard: guard.can('licensing:write'), servedIn: enterprise, handler: postLicenseToken,
      operationId: 'postLicenseToken', tags, summary: 'Install a license: `{"token": "<license JWT>"}`, verified, then stored for every replica over the installed one.',
      description: `${enterpriseOnly} ${verified} A token that does not verify is a 400 saying why (malformed, signature, expired, not valid yet, another instance); nothing is stored.`,
      body: { schema: z.object({ token: z.string() }), name: 'PostLicenseTokenCommand' },
      responses: { 200: tokenResponse, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'delete', path: '/api/licensing/token', guard: guard.can('licensing:delete'), servedIn: enterprise, handler: deleteLicenseToken,
      operationId: 'deleteLicenseToken', tags, summary: 'Remove the installed license: `{"instance": "<this server\'s root URL>"}`.',
      description: `${enterpriseOnly} 202 whether a license was installed or not; 422 when \`instance\` is not this server's root URL.`,
      body: { schema: z.object({ instance: z.string() }), name: 'DeleteTokenCommand' },
      responses: { 202: { description: 'Removed, or there was none.', schema: message }, 400: {}, 401: {}, 403: {}, 404: {}, 422: {} },
    },
    {
      method: 'post', path: '/api/licensing/token/renew', guard: guard.can('licensing:write'), servedIn: enterprise, handler: renewLicenseToken,
      operationId: 'postRenewLicenseToken', tags, summary: 'Ask the license server (`[enterprise] license_server_url`) for a new token of the installed license, and install it.',
      description: `${enterpriseOnly} POSTs \`{token, instance, stats}\` as JSON; the answer (\`{"token": "<jwt>"}\` or the JWT as text) must verify and be for the same license (\`lid\`). 404 when renewal is not configured or no license is installed; 502 when the license server fails or answers no valid token (nothing stored).`,
      body: { schema: z.object({}).loose() },
      responses: { 200: tokenResponse, 401: {}, 403: {}, 404: {}, 502: { description: 'The license server failed, or answered no valid token.' } },
    },
    {
      method: 'get', path: '/api/licensing/refresh-stats', guard: guard.can('licensing:read'), servedIn: enterprise, handler: refreshLicenseStats,
      operationId: 'refreshLicenseStats', tags, summary: 'The active users (seen in the last 30 days) counted now: all, Viewers, Admins and Editors (by highest role).',
      description: enterpriseOnly,
      responses: { 200: { description: 'The counts.', schema: activeUserStats, name: 'ActiveUserStats' }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/licensing/custom-permissions', guard: guard.can('licensing.reports:read'), servedIn: enterprise, handler: getCustomPermissions,
      operationId: 'getCustomPermissionsReport', tags,
      summary: 'The folders and dashboards whose permissions let Viewers edit or administer them: one record per grant to a Viewer user, a team with Viewer members, or the Viewer role, with how many users it lifts.',
      description: enterpriseOnly,
      responses: { 200: { description: 'The report, every organization.', schema: z.array(customRecord), name: 'CustomPermissionsRecordDTO' }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/licensing/custom-permissions-csv', guard: guard.can('licensing.reports:read'), servedIn: enterprise, handler: getCustomPermissionsCsv,
      operationId: 'getCustomPermissionsCSV', tags, summary: 'The custom permissions report as CSV (text/csv): a header row of the record fields, one line per record.',
      description: enterpriseOnly,
      responses: { 200: { description: 'The report as text/csv.', schema: z.string() }, 401: {}, 403: {}, 404: {} },
    },
  ],
});
