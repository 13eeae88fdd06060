import { z } from 'zod';
import { dashboardKind } from '../../apis';
import { StatusError } from '../../pkg/errors';
import { anyKind } from '../../pkg/meta';
import { defineArea, deprecatedIdForm, guard, type LegacyRoute } from '../shared';
import { getPermissions, permissionErrors, updatePermissions } from './permissions-routes';

const roles = z.enum(['None', 'Viewer', 'Editor', 'Admin']);
const permission = z.union([z.literal(1), z.literal(2), z.literal(4)]).describe('1 View, 2 Edit, 4 Admin');
const aclInfo = z.object({
  dashboardId: z.number().int(),
  folderId: z.number().int(),
  created: z.string(),
  updated: z.string(),
  userId: z.number().int(),
  userUid: z.string(),
  userLogin: z.string(),
  userEmail: z.string(),
  userAvatarUrl: z.string(),
  teamId: z.number().int(),
  teamUid: z.string(),
  team: z.string(),
  teamEmail: z.string(),
  teamAvatarUrl: z.string(),
  role: roles.optional().describe('set on items for a basic role'),
  permission,
  permissionName: z.enum(['View', 'Edit', 'Admin']),
  uid: z.string().describe('the folder or dashboard the item is set on'),
  title: z.string(),
  slug: z.string(),
  isFolder: z.boolean(),
  url: z.string(),
  inherited: z.boolean().describe('set on a folder above'),
});
const update = z.object({
  items: z.array(z.object({ role: roles.optional(), userId: z.number().int().optional(), teamId: z.number().int().optional(), permission })),
});
const message = z.object({ message: z.string() });

/** Why the routes check their action themselves. */
const objectFirst = 'the object is read first (404 when it does not exist), then the action is checked on it and its folders';

function routes(kind: 'folder' | 'dashboard', path: string, tag: string): LegacyRoute[] {
  const resource = kind === 'folder' ? 'folders' : 'dashboards';
  const scope = kind === 'folder' ? 'folders:uid:{uid}' : 'dashboards:uid:{uid}';
  const uid = { name: 'uid', in: 'path', type: 'string', required: true } as const;
  return [
    {
      method: 'get', path, guard: guard.inHandler(guard.can(`${resource}.permissions:read`, scope), objectFirst), handler: getPermissions(resource),
      operationId: kind === 'folder' ? 'getFolderPermissionList' : 'getDashboardPermissionsListByUID', tags: [tag],
      summary: `The permissions of a ${kind}, with those it inherits from the folders above it.`,
      description: `Needs \`${resource}.permissions:read\` on the ${kind} (its Admins and org Admins).`,
      params: [uid],
      responses: { 200: { description: 'The items.', schema: z.array(aclInfo), name: 'DashboardACLInfoDTO' }, 401: {}, 403: {}, 404: {} },
    },
    {
      method: 'post', path, guard: guard.inHandler(guard.can(`${resource}.permissions:write`, scope), objectFirst), handler: updatePermissions(resource),
      operationId: kind === 'folder' ? 'updateFolderPermissions' : 'updateDashboardPermissionsByUID', tags: [tag],
      summary: `Replaces every permission of a ${kind}: items not in the request are removed.`,
      description: `Needs \`${resource}.permissions:write\` on the ${kind}. Each item names one grantee: a basic role, a user id or a team id.`,
      params: [uid],
      body: { schema: update, name: 'UpdateDashboardACLCommand' },
      responses: { 200: { description: `${kind === 'folder' ? 'Folder' : 'Dashboard'} permissions updated.`, schema: message }, 400: {}, 401: {}, 403: {}, 404: {} },
    },
  ];
}

const dashboardRoutes = routes('dashboard', '/api/dashboards/uid/:uid/permissions', 'dashboard_permissions');

/** /api/folders/:uid/permissions and /api/dashboards/uid/:uid/permissions (permissions-routes.ts). */
export const permissionsArea = defineArea({
  name: 'permissions',
  errors: permissionErrors,
  routes: [
    ...routes('folder', '/api/folders/:uid/permissions', 'folder_permissions'),
    ...dashboardRoutes,
    // The deprecated numeric-id forms (the anchor's /api/dashboards/id/:dashboardId/permissions), thin clients of the uid forms.
    ...dashboardRoutes.map((r) =>
      deprecatedIdForm(r, {
        path: '/api/dashboards/id/:dashboardId/permissions', idParam: 'dashboardId', kind: anyKind(dashboardKind),
        notFound: () => new StatusError(404, 'NotFound', 'Dashboard not found'), operationId: r.method === 'get' ? 'getDashboardPermissionsListByID' : 'updateDashboardPermissionsByID',
      }),
    ),
  ],
});
