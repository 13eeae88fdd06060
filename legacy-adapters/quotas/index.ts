import { z } from 'zod';
import { defineArea, guard } from '../shared';
import { adminGetUserQuotas, getCurrentOrgQuotas, getOrgQuotas, getUserQuotas } from './quotas-routes';

const tags = ['quota'];
const orgQuota = z.object({ org_id: z.number().int(), target: z.string(), limit: z.number().int(), used: z.number().int() });
const userQuota = z.object({ user_id: z.number().int(), target: z.string(), limit: z.number().int(), used: z.number().int() });
const orgQuotas = { description: "Each target's limit (the [quota] setting; -1: unlimited) and what is used now.", schema: z.array(orgQuota), name: 'OrgQuotaDTO' };
const userQuotas = { description: 'The organizations the user belongs to, against quota.user_org.', schema: z.array(userQuota), name: 'UserQuotaDTO' };
const enforced = 'Targets user, dashboard, data_source, api_key, alert_rule; limits from the [quota] settings, enforced on create (403 "Quota reached") when quota.enabled.';

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
  ],
});
