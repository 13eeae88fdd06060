import { z } from 'zod';
import { answering, defineArea, deprecatedIdForm, guard, type LegacyRoute } from '../shared';
import {
  dashboardByUID, deleteDashboardByUID, getDashboardTags, getDashboardVersionByUID, getDashboardVersionsByUID, getHomeDashboard, postDashboard,
  restoreDashboardVersionByUID,
} from './dashboards-routes';
import { saveDashboardCommandSchema } from './dashboards-conversions';
import { dashboardErrors, dashboardNotFound } from './dashboards-errors';
import { dashboardKind } from './dashboards-save';
import { calculateDashboardDiff, calculateDiffSchema } from './dashboards-diff';
import { importDashboard } from './dashboards-import';
import { importDashboardSchema } from './dashboards-import-conversions';

const model = z.record(z.string(), z.unknown()).describe('the dashboard JSON model, with its id, uid and version');
const postDashboardResponse = z.object({
  id: z.number().int().describe('deprecated numeric id'),
  uid: z.string(),
  url: z.string().describe('/d/<uid>/<slug>'),
  status: z.literal('success'),
  version: z.number().int(),
  slug: z.string(),
  folderUid: z.string().describe("'' at the root"),
});
const dashboardMeta = z.object({
  type: z.literal('db'),
  isStarred: z.boolean(),
  canSave: z.boolean(),
  canEdit: z.boolean(),
  canAdmin: z.boolean(),
  canStar: z.boolean(),
  canDelete: z.boolean(),
  slug: z.string(),
  url: z.string(),
  expires: z.string(),
  created: z.string(),
  updated: z.string(),
  createdBy: z.string().describe('login of the creator'),
  updatedBy: z.string(),
  version: z.number().int(),
  hasAcl: z.boolean(),
  isFolder: z.boolean(),
  folderId: z.number().int(),
  folderUid: z.string(),
  folderTitle: z.string().describe('"General" at the root'),
  folderUrl: z.string(),
  provisioned: z.boolean(),
  provisionedExternalId: z.string(),
  publicDashboardEnabled: z.boolean().describe('the dashboard has an enabled public dashboard'),
  isHome: z.boolean().optional().describe('on the home dashboard only'),
});
const dashboardFull = z.object({ dashboard: model, meta: dashboardMeta });
const versionMeta = z.object({
  id: z.number().int().describe('the resourceVersion of the write that made the version'),
  dashboardId: z.number().int(),
  uid: z.string(),
  parentVersion: z.number().int(),
  restoredFrom: z.number().int().describe('0 unless the version restores an older one'),
  version: z.number().int(),
  created: z.string(),
  createdBy: z.string(),
  message: z.string(),
});
const uid = { name: 'uid', in: 'path', type: 'string', required: true } as const;
const tags = ['dashboards'];
const versionTags = ['dashboard_versions'];
const saved = { description: 'Saved.', schema: postDashboardResponse, name: 'PostDashboardResponse' };

const versionsRoute: LegacyRoute = {
  method: 'get', path: '/api/dashboards/uid/:uid/versions', guard: guard.can('dashboards:write', 'dashboards:uid:{uid}'), handler: getDashboardVersionsByUID, operationId: 'getDashboardVersionsByUID', tags: versionTags, summary: 'The versions of a dashboard, newest first.',
  description: 'Needs `dashboards:write` on the dashboard. Pass `continueToken` back to read older versions.',
  params: [
    uid,
    { name: 'limit', in: 'query', type: 'integer', default: 1000, description: 'at most this many; 1000 also when invalid' },
    { name: 'start', in: 'query', type: 'integer', default: 0, description: 'versions to skip' },
    { name: 'continueToken', in: 'query', type: 'string', description: 'the continueToken of the previous page' },
  ],
  responses: {
    200: { description: 'One page.', schema: z.object({ continueToken: z.string(), versions: z.array(versionMeta) }), name: 'DashboardVersionResponseMeta' },
    400: { description: 'A bad continueToken.' }, 401: {}, 403: {}, 404: {},
  },
};

const versionRoute: LegacyRoute = {
  method: 'get', path: '/api/dashboards/uid/:uid/versions/:version', guard: guard.can('dashboards:write', 'dashboards:uid:{uid}'), handler: getDashboardVersionByUID, operationId: 'getDashboardVersionByUID', tags: versionTags, summary: 'One version with its model.',
  params: [uid, { name: 'version', in: 'path', type: 'integer', required: true }],
  responses: { 200: { description: 'The version.', schema: versionMeta.extend({ data: model }), name: 'DashboardVersionMeta' }, 401: {}, 403: {}, 404: {} },
};

const restoreRoute: LegacyRoute = {
  method: 'post', path: '/api/dashboards/uid/:uid/restore', guard: guard.can('dashboards:write', 'dashboards:uid:{uid}'), handler: restoreDashboardVersionByUID, operationId: 'restoreDashboardVersionByUID', tags: versionTags,
  summary: 'Save an older version as the newest one.', description: 'The new version records `restoredFrom` and the message "Restored from version <n>".',
  params: [uid], body: { schema: z.object({ version: z.number().int() }), name: 'RestoreDashboardVersionCommand' },
  responses: { 200: saved, 400: {}, 401: {}, 403: {}, 404: { description: 'No such dashboard or version.' }, 412: {} },
};

/** The deprecated numeric-id forms of the version routes (the anchor's `/api/dashboards/id/:dashboardId/...`). */
const byId = (route: LegacyRoute, suffix: string, operationId: string) =>
  deprecatedIdForm(route, { path: `/api/dashboards/id/:dashboardId${suffix}`, idParam: 'dashboardId', kind: dashboardKind, notFound: dashboardNotFound, operationId });
const idForms: LegacyRoute[] = [
  byId(versionsRoute, '/versions', 'getDashboardVersionsByID'),
  byId(versionRoute, '/versions/:version', 'getDashboardVersionByID'),
  byId(restoreRoute, '/restore', 'restoreDashboardVersionByID'),
];

/** /api/dashboards (legacy-adapters/dashboards/dashboards-routes.ts), spec §4.4. */
export const dashboardsArea = defineArea({
  name: 'dashboards',
  errors: dashboardErrors,
  routes: [
    {
      method: 'post', path: '/api/dashboards/db', guard: guard.can(['dashboards:create', 'dashboards:write']), handler: postDashboard, operationId: 'postDashboard', tags, summary: 'Create or update a dashboard.',
      description:
        '`dashboard.id` null (or absent) creates, with `dashboard.uid` or a generated one; an id updates that dashboard, whose stored ' +
        'version must be `dashboard.version` unless `overwrite`. `overwrite` also takes over an existing uid. `folderUid` wins over ' +
        '`folderId`; with neither the dashboard goes to the root. A `refresh` below `dashboards.min_refresh_interval` is raised to it. ' +
        'Needs `dashboards:create` or `dashboards:write`.',
      body: { schema: saveDashboardCommandSchema, name: 'SaveDashboardCommand' },
      responses: {
        200: saved,
        400: { description: 'Empty title (status empty-name), bad or too long uid, unknown folder, a folder payload, a message over 500 characters.' },
        401: {}, 403: {}, 404: { description: 'No dashboard has the given id.' },
        412: { description: '{message, status}: version-mismatch, or name-exists (the uid is taken).' },
      },
    },
    {
      method: 'get', path: '/api/dashboards/home', guard: guard.signedIn, handler: getHomeDashboard, operationId: 'getHomeDashboard', tags, summary: 'The home dashboard.',
      description:
        "When the caller's effective homeDashboardUID preference (its own, else its teams', else the org's) names a dashboard it may read: `{redirectUri: '/d/<uid>/<slug>'}`; else the built-in home dashboard.",
      responses: { 200: { description: 'The home dashboard, or where it is.', schema: z.union([dashboardFull, z.object({ redirectUri: z.string() })]), name: 'GetHomeDashboardResponse' }, 401: {} },
    },
    {
      method: 'get', path: '/api/dashboards/tags', guard: guard.signedIn, handler: getDashboardTags, operationId: 'getDashboardTags', tags, summary: 'The tags of the dashboards the caller may read, with counts.',
      responses: { 200: { description: 'By term.', schema: z.array(z.object({ term: z.string(), count: z.number().int() })), name: 'DashboardTagCloud' }, 401: {} },
    },
    {
      method: 'get', path: '/api/dashboards/uid/:uid', guard: guard.signedIn, ...answering(dashboardByUID), operationId: 'getDashboardByUID', tags, summary: 'Get a dashboard with its meta.', params: [uid],
      reads: { kind: dashboardKind, param: 'uid' },
      responses: { 200: { description: 'The dashboard.', schema: dashboardFull, name: 'DashboardFullWithMeta' }, 401: {}, 403: {}, 404: { description: 'Dashboard not found' } },
    },
    {
      method: 'delete', path: '/api/dashboards/uid/:uid', guard: guard.can('dashboards:delete', 'dashboards:uid:{uid}'), handler: deleteDashboardByUID, operationId: 'deleteDashboardByUID', tags, summary: 'Delete a dashboard.', params: [uid],
      responses: {
        200: { description: 'Deleted.', schema: z.object({ title: z.string(), message: z.string(), uid: z.string(), id: z.number().int() }), name: 'DeleteDashboardResponse' },
        401: {}, 403: {}, 404: {},
      },
    },
    versionsRoute,
    versionRoute,
    restoreRoute,
    ...idForms,
    {
      method: 'post', path: '/api/dashboards/import', guard: guard.can('dashboards:create'), handler: importDashboard, operationId: 'importDashboard', tags,
      summary: 'Import an exported dashboard: answer its inputs, create the library panels it brings, save it.',
      description:
        'Every entry of `dashboard.__inputs` needs an input of its `type` with its `name` (or `*`); each `${<name>}` in any string of the ' +
        'dashboard becomes that input\'s `value`, and `__inputs` is dropped. Library panels the panels (and rows\' panels) name that do not ' +
        'exist are created from `__elements` (keyed by uid: `name`, `kind`, `model`) in the import\'s folder, then the dashboard is saved as ' +
        '`POST /api/dashboards/db` saves it, without its `id` and `version`: an existing uid is 412 name-exists unless `overwrite`. ' +
        'Nothing is written when any check fails. Needs `dashboards:create` (and, in the folder, the rights to create dashboards and library panels).',
      body: { schema: importDashboardSchema, name: 'ImportDashboardRequest' },
      responses: {
        200: {
          description: 'Imported.',
          schema: z.object({
            uid: z.string(), pluginId: z.string(), title: z.string(), path: z.string().describe('the request\'s path'), revision: z.number().int().describe('the dashboard\'s `revision`, 0 when it has none'),
            description: z.string(), folderId: z.number().int(), folderUid: z.string(), imported: z.literal(true), importedUri: z.string().describe('db/<slug>'),
            importedUrl: z.string().describe('/d/<uid>/<slug>'), importedRevision: z.number().int(), removed: z.boolean(), dashboardId: z.number().int(), slug: z.string(),
          }),
          name: 'ImportDashboardResponse',
        },
        400: { description: 'bad request data; a missing input ("Dashboard input variable: <name> missing from import command"); a library panel header without uid or name; a v2 dashboard; an unknown folder; a pluginId.' },
        401: {}, 403: {},
        412: { description: '{message, status}: name-exists (the uid is taken and overwrite is not set).' },
        422: { description: 'Dashboard must be set.' },
      },
    },
    {
      method: 'post', path: '/api/dashboards/calculate-diff', guard: guard.inHandler(guard.can('dashboards:write', 'dashboards:uid:{uid}'), 'the dashboards are named by id in the body'),
      handler: calculateDashboardDiff, operationId: 'calculateDashboardDiff', tags, summary: 'The difference between two versions of dashboards (or a version and an unsaved model).',
      description:
        'Each side names a dashboard by `dashboardId` and a stored `version`, or gives an `unsavedDashboard` model instead. `diffType` `json` ' +
        '(or `delta`) answers the jsondiffpatch delta turning base into new (`{}` when equal: added `[new]`, replaced `[old, new]`, removed ' +
        '`[old, 0, 0]`, arrays `{_t: "a", ...}` by index); `basic` (the default) answers the list of changes `{op, path, value?, oldValue?}` ' +
        '(`path` a JSON Pointer). The anchor renders both as HTML; the spec makes bodies JSON, so these are its JSON equivalents. ' +
        'Needs `dashboards:write` on each dashboard, as the version routes.',
      body: { schema: calculateDiffSchema, name: 'CalculateDiffOptions' },
      responses: {
        200: {
          description: 'The delta (json) or the changes (basic).',
          schema: z.union([
            z.record(z.string(), z.unknown()).describe('json: the jsondiffpatch delta'),
            z.array(z.object({ op: z.enum(['add', 'remove', 'replace']), path: z.string(), value: z.unknown().optional(), oldValue: z.unknown().optional() })).describe('basic: the changes'),
          ]),
          name: 'DashboardDiff',
        },
        400: { description: 'bad request data; Unsupported diff type.' }, 401: {}, 403: {}, 404: { description: 'Dashboard not found; Dashboard version not found.' },
      },
    },
  ],
});
