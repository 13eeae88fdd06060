import { z } from 'zod';
import { byKind, defineArea, guard, type LegacyParam } from '../shared';
import { PublicDashboardErrors } from './public-dashboards-conversions';
import { createPublicDashboard, deletePublicDashboard, getPublicDashboard, listPublicDashboards, updatePublicDashboard } from './public-dashboards-routes';

const tags = ['dashboard_public'];
const dashboardUid: LegacyParam = { name: 'dashboardUid', in: 'path', type: 'string', required: true };
const uid: LegacyParam = { name: 'uid', in: 'path', type: 'string', required: true };
const publicError = z.object({ statusCode: z.number().int(), messageId: z.string(), message: z.string() });
const err = (description: string) => ({ description, schema: publicError, name: 'PublicError' });
const publicDashboard = z.object({
  uid: z.string(),
  dashboardUid: z.string(),
  accessToken: z.string().describe('32 hexadecimal digits: the secret of the anonymous routes'),
  createdBy: z.number().int(),
  updatedBy: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  timeSelectionEnabled: z.boolean(),
  isEnabled: z.boolean(),
  annotationsEnabled: z.boolean(),
  share: z.string().describe('public'),
});
const dto = z.object({
  uid: z.string().optional().describe('POST only (PATCH ignores it); generated (14 characters) when absent'),
  accessToken: z.string().optional().describe('POST only (PATCH ignores it); 32 hexadecimal digits (or a UUID), generated when absent'),
  isEnabled: z.boolean().optional().describe('default false; PATCH: unchanged when absent'),
  annotationsEnabled: z.boolean().optional(),
  timeSelectionEnabled: z.boolean().optional(),
  share: z.string().optional().describe('public (default) or email'),
});
const listItem = z.object({ uid: z.string(), accessToken: z.string(), title: z.string(), slug: z.string(), dashboardUid: z.string(), isEnabled: z.boolean() });
const read = guard.can('dashboards:read', 'dashboards:uid:{dashboardUid}');
// The anchor's fixed:dashboards.public:writer, which org Admins hold.
const write = guard.can('dashboards.public:write', 'dashboards:uid:{dashboardUid}');
const invalid = err('Invalid Uid; Bad request (a body that is no object, or a field of the wrong type); Invalid access token; Invalid share type.');

/**
 * The anchor's public dashboards (public-dashboards-routes.ts) over the PublicDashboard kind
 * (`publicdashboard.svc.app`): errors in its errutil body `{statusCode, messageId, message}`.
 */
export const publicDashboardsArea = defineArea({
  name: 'public-dashboards',
  errors: {
    notFound: byKind({ publicdashboards: PublicDashboardErrors.notFound }),
    conflict: byKind({ publicdashboards: PublicDashboardErrors.notFound }),
    alreadyExists: byKind({ publicdashboards: PublicDashboardErrors.uidExists }),
  },
  routes: [
    {
      method: 'get', path: '/api/dashboards/public-dashboards', guard: guard.signedIn, handler: listPublicDashboards, operationId: 'listPublicDashboards', tags,
      summary: 'The public dashboards of the organization whose dashboard the caller may read, by title.',
      params: [
        { name: 'page', in: 'query', type: 'integer', default: 1 },
        { name: 'perpage', in: 'query', type: 'integer', default: 1000, description: '1000 also when not positive' },
        { name: 'query', in: 'query', type: 'string', description: 'a case-insensitive substring of the title' },
      ],
      responses: { 200: { description: 'A page.', schema: z.object({ publicDashboards: z.array(listItem), totalCount: z.number().int(), page: z.number().int(), perPage: z.number().int() }), name: 'PublicDashboardListResponseWithPagination' } },
    },
    {
      method: 'get', path: '/api/dashboards/uid/:dashboardUid/public-dashboards', guard: read, handler: getPublicDashboard, operationId: 'getPublicDashboard', tags,
      summary: 'The public dashboard of a dashboard.', params: [dashboardUid],
      responses: { 200: { description: 'It.', schema: publicDashboard, name: 'PublicDashboard' }, 400: err('No Uid for public dashboard specified'), 403: {}, 404: err('Public dashboard not found') },
    },
    {
      method: 'post', path: '/api/dashboards/uid/:dashboardUid/public-dashboards', guard: write, handler: createPublicDashboard, operationId: 'createPublicDashboard', tags,
      summary: 'Make a dashboard public.', params: [dashboardUid], body: { schema: dto, name: 'PublicDashboardDTO' },
      responses: {
        200: { description: 'The public dashboard created.', schema: publicDashboard, name: 'PublicDashboard' },
        400: err('Dashboard is already public; Public Dashboard Uid already exists; Public Dashboard Access Token already exists; or the body is invalid.'),
        403: {},
        404: err('Dashboard not found'),
      },
    },
    {
      method: 'patch', path: '/api/dashboards/uid/:dashboardUid/public-dashboards/:uid', guard: write, handler: updatePublicDashboard, operationId: 'updatePublicDashboard', tags,
      summary: 'Change the settings the body names.', params: [dashboardUid, uid], body: { schema: dto, name: 'PublicDashboardDTO' },
      responses: { 200: { description: 'The public dashboard updated.', schema: publicDashboard, name: 'PublicDashboard' }, 400: invalid, 403: {}, 404: err('Public dashboard not found; Dashboard not found') },
    },
    {
      method: 'delete', path: '/api/dashboards/uid/:dashboardUid/public-dashboards/:uid', guard: write, handler: deletePublicDashboard, operationId: 'deletePublicDashboard', tags,
      summary: 'Stop sharing a dashboard publicly.', params: [dashboardUid, uid],
      responses: { 200: { description: 'An empty body.' }, 400: err('Invalid Uid (also when it is not the public dashboard of that dashboard)'), 403: {}, 404: err('Public dashboard not found') },
    },
  ],
});
