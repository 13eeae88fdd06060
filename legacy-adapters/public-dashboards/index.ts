import { z } from 'zod';
import { byKind, defineArea, guard, type LegacyParam } from '../shared';
import { PublicDashboardErrors } from './public-dashboards-conversions';
import { createPublicDashboard, deletePublicDashboard, getPublicDashboard, listPublicDashboards, updatePublicDashboard } from './public-dashboards-routes';
import { getPublicAnnotations, queryPublicDashboard, viewPublicDashboard } from './public-dashboards-view';

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
const accessToken: LegacyParam = { name: 'accessToken', in: 'path', type: 'string', required: true, description: '32 hexadecimal digits' };
const anonymous = {
  400: err('Invalid access token'),
  403: err('Public dashboard paused (the public dashboard is not enabled)'),
  404: err('Public dashboard not found; Dashboard not found'),
};
const annotationEvent = z.object({
  id: z.number().int(), dashboardId: z.number().int(), panelId: z.number().int(), tags: z.array(z.string()), isRegion: z.boolean(), text: z.string(),
  color: z.string(), time: z.number().int(), timeEnd: z.number().int(), source: z.record(z.string(), z.unknown()).describe('the annotation query of the dashboard that found it'),
});
const queryDTO = z.object({
  intervalMs: z.number().optional(),
  maxDataPoints: z.number().optional(),
  queryCachingTTL: z.number().optional(),
  timeRange: z.object({ from: z.string().optional(), to: z.string().optional(), timezone: z.string().optional() }).optional().describe('used only when time selection is enabled'),
});
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
    {
      method: 'get', path: '/api/public/dashboards/:accessToken', guard: guard.public, handler: viewPublicDashboard, operationId: 'viewPublicDashboard', tags,
      summary: 'The dashboard of an enabled public dashboard, for anyone holding its token (no credentials needed).',
      description: 'Its queries\' texts (`expr`, `query`, `rawSql`) are left out and `timepicker.hidden` is set unless time selection is enabled; `meta` grants nothing.',
      params: [accessToken],
      responses: { 200: { description: 'The dashboard and its meta.', schema: z.object({ dashboard: z.record(z.string(), z.unknown()), meta: z.record(z.string(), z.unknown()) }), name: 'PublicDashboardFullWithMeta' }, ...anonymous },
    },
    {
      method: 'get', path: '/api/public/dashboards/:accessToken/annotations', guard: guard.public, handler: getPublicAnnotations, operationId: 'getPublicAnnotations', tags,
      summary: "The annotations of a public dashboard's enabled annotation queries (built-in data source), while annotations are enabled.",
      params: [accessToken, { name: 'from', in: 'query', type: 'integer', description: 'ms' }, { name: 'to', in: 'query', type: 'integer', description: 'ms' }],
      responses: { 200: { description: 'The annotations; none when annotations are not enabled.', schema: z.array(annotationEvent), name: 'PublicAnnotationEvents' }, ...anonymous },
    },
    {
      method: 'post', path: '/api/public/dashboards/:accessToken/panels/:panelId/query', guard: guard.public, handler: queryPublicDashboard, operationId: 'queryPublicDashboard', tags,
      summary: "Run a panel's queries, as the dashboard saved them, over the public dashboard's time.",
      description: 'Only panels of that dashboard; the dashboard\'s time range (a panel\'s `timeFrom`), or the visitor\'s `timeRange` when time selection is enabled; the interval is at least the range over 11000 points. Answers as POST /api/ds/query, without executed query texts.',
      params: [accessToken, { name: 'panelId', in: 'path', type: 'integer', required: true }],
      body: { schema: queryDTO, name: 'PublicDashboardQueryDTO' },
      responses: {
        200: { description: '`{results: {<refId>: {status, frames}}}`.', schema: z.object({ results: z.record(z.string(), z.unknown()) }), name: 'PublicQueryDataResponse' },
        400: err('Invalid access token; Invalid panel id; Bad request; intervalMS should be greater than 0; maxDataPoints should be greater than 0; Invalid time range; Failed to extract queries from panel; or a query failed (every entry answered).'),
        403: anonymous[403],
        404: err('Public dashboard not found; Dashboard not found; Public dashboard panel not found; Data source not found'),
      },
    },
  ],
});
