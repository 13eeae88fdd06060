import { z } from 'zod';
import { defineArea, guard } from '../shared';
import { adminGetUserQuotas, adminUpdateUserQuota, getCurrentOrgQuotas, getOrgQuotas, getUserQuotas, updateOrgQuota, updateQuotaSchema } from './quotas-routes';

const tags = ['quota'];
const orgQuota = z.object({ org_id: z.number().int(), target: z.string(), limit: z.number().int(), used: z.number().int() });
const userQuota = z.object({ user_id: z.number().int(), target: z.string(), limit: z.number().int(), used: z.number().int() });
const orgQuotas = { description: "Each target's limit (the [quota] setting; -1: unlimited) and what is used now.", schema: z.array(orgQuota), name: 'OrgQuotaDTO' };
const userQuotas = { description: 'The organizations the user belongs to, against its stored limit or quota.user_org (enforced as the user joins or creates one).', schema: z.array(userQuota), name: 'UserQuotaDTO' };
const enforced = 'Targets user (members), dashboard, data_source, api_key (service account tokens), alert_rule (no alert rules here: used is always 0); limits set for the organization (PUT .../quotas/:target), else the [quota] settings, enforced on create (403 "Quota reached") when quota.enabled.';
const message = { schema: z.object({ message: z.string() }) };
const changeBody = { schema: updateQuotaSchema, name: 'UpdateQuotaCmd' };
const targetParam = { name: 'target', in: 'path' as const, type: 'string' as const, required: true };

/** Quotas (the anchor's quota targets): what each organization and user may hold, and holds. */
export const quotasArea = defineArea({
  name: 'quotas',
  routes: [
    {
      method: 'get', path: '/api/org/quotas', guard: guard.can('orgs.quotas:read'), handler: getCurrentOrgQuotas, operationId: 'getCurrentOrgQuota', tags,
      summary: "The quotas of the caller's organization.", description: enforced, responses: { 200: orgQuotas, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/orgs/:orgId/quotas', guard: guard.serverAdmin, handler: getOrgQuotas, operationId: 'getOrgQuota', tags,
      summary: "An organization's quotas.", description: enforced, params: [{ name: 'orgId', in: 'path', type: 'integer', required: true }],
      responses: { 200: orgQuotas, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'get', path: '/api/user/quotas', guard: guard.user, handler: getUserQuotas, operationId: 'getUserQuotas', tags: ['signed_in_user'],
      summary: "The signed-in user's quotas (target org).", responses: { 200: userQuotas, 401: {}, 403: {} },
    },
    {
      method: 'get', path: '/api/admin/users/:id/quotas', guard: guard.serverAdmin, handler: adminGetUserQuotas, operationId: 'getUserQuota', tags: ['admin_users'],
      summary: "A user's quotas (target org).", params: [{ name: 'id', in: 'path', type: 'integer', required: true }],
      responses: { 200: userQuotas, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'put', path: '/api/orgs/:orgId/quotas/:target', guard: guard.serverAdmin, handler: updateOrgQuota, operationId: 'updateOrgQuota', tags: ['orgs'],
      summary: "Set an organization's limit of one quota target.",
      description: 'Stored in the database over the [quota] setting and enforced on the next create: a member (user), dashboard, data source or service account token (api_key); alert_rule is reported only. `limit` -1: no limit. 400 "bad request data" for a bad body, 404 "Quotas not enabled" while quota.enabled is false, 400 "Invalid quota target" for a target organizations do not have; each changes nothing.',
      params: [{ name: 'orgId', in: 'path', type: 'integer', required: true }, targetParam], body: changeBody,
      responses: { 200: { description: 'Organization quota updated.', ...message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'put', path: '/api/admin/users/:id/quotas/:target', guard: guard.serverAdmin, handler: adminUpdateUserQuota, operationId: 'updateUserQuota', tags: ['admin_users'],
      summary: "Set a user's limit of one quota target (org: how many organizations).",
      description: 'Stored in the database over quota.user_org, reported by the user quota routes and enforced as the user joins or creates an organization. `limit` -1: no limit. 400 "bad request data" for a bad body, 404 "Quotas not enabled" while quota.enabled is false, 400 "Invalid quota target" for any target but org; each changes nothing.',
      params: [{ name: 'id', in: 'path', type: 'integer', required: true }, targetParam], body: changeBody,
      responses: { 200: { description: 'User quota updated.', ...message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
  ],
});
