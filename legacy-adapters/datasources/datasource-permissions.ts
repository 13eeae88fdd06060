import type { Request, Response } from 'express';
import { z } from 'zod';
import { defaultPermissionItems, type Grantee, type ManagedPermissionItem } from '../../pkg/auth/authorization/permissions';
import { granteeKey } from '../../pkg/auth/authorization/grants';
import type { Config } from '../../pkg/config';
import { StatusError } from '../../pkg/errors';
import { Annotations } from '../../pkg/meta';
import { type AdapterDeps, guard, idParam, type LegacyRoute, requestContext, granteeDirectory } from '../shared';
import { type AddPermission, parseAddPermission, permissionIdOf, toPermissionDTO } from './datasource-permissions-conversions';
import { idOf, type DataSourceObject } from './datasources-conversions';
import { KIND, uidById } from './datasources-routes';

/**
 * The enterprise edition's data source permissions (the anchor's deprecated `/api/datasources/:id/permissions`):
 * the managed permission items of one data source (levels Query, Edit, Admin, as the DataSource kind declares
 * them), kept by the permission store that the authorizer reads, so they hold on every path (`/apis` included).
 * "Enabled" permissions are those without items for basic roles: only Admins and the users and teams given an item
 * query the data source; disabling gives Viewers (and so Editors) Query again, as a new data source starts.
 */

const enterprise = (config: Config) => config.server.edition === 'enterprise';
const RESOURCE = 'datasources';

/** The data source of the path (`:datasourceId`), once the caller may do `action` on it. */
async function guarded(req: Request, deps: AdapterDeps, action: string): Promise<DataSourceObject> {
  const uid = await uidById(req, deps, idParam(req, 'datasourceId', 'id is invalid'));
  if (!(await req.access?.can(action, `datasources:uid:${uid}`))) throw StatusError.accessDenied({ group: KIND.group, resource: KIND.plural }, uid, action, req.user!.login);
  const system = { ...requestContext(req, deps.registry), access: undefined };
  return deps.registry.get(system, KIND, uid);
}

const itemsOf = (req: Request, deps: AdapterDeps, ds: DataSourceObject) => deps.permissions.itemsOf(req.user!.orgId, RESOURCE, ds.metadata.name);
const by = (req: Request) => ({ identity: req.user!.identity, login: req.user!.login });
const replace = (req: Request, deps: AdapterDeps, ds: DataSourceObject, items: readonly ManagedPermissionItem[]) =>
  deps.permissions.replace(by(req), req.user!.orgId, RESOURCE, ds.metadata.name, items);

async function getPermissions(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const ds = await guarded(req, deps, 'datasources.permissions:read');
  const items = await itemsOf(req, deps, ds);
  const created = ds.metadata.creationTimestamp;
  const times = { created, updated: ds.metadata.annotations?.[Annotations.updatedTimestamp] ?? created };
  const who = await granteeDirectory(deps.users, req.user!.orgId, items.map((i) => i.grantee));
  const permissions = items.map((i) => toPermissionDTO(idOf(ds), i.grantee, i.permission, who(i.grantee), times));
  res.json({ datasourceId: idOf(ds), enabled: !items.some((i) => i.grantee.kind === 'role'), permissions });
}

async function granteeOf(req: Request, deps: AdapterDeps, add: AddPermission): Promise<Grantee> {
  if ('builtinRole' in add) return { kind: 'role', role: add.builtinRole };
  if ('userId' in add) {
    const user = await deps.users.userById(add.userId);
    if (!user || !(await deps.users.roleOf(req.user!.orgId, user.id))) throw new StatusError(404, 'NotFound', 'User not found');
    return { kind: 'user', uid: user.uid };
  }
  const team = await deps.teams.teamById(req.user!.orgId, add.teamId);
  if (!team) throw new StatusError(404, 'NotFound', 'Team not found');
  return { kind: 'team', uid: team.uid };
}

async function addPermission(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const add = parseAddPermission({ ...req.query, ...body });
  const ds = await guarded(req, deps, 'datasources.permissions:write');
  const grantee = await granteeOf(req, deps, add);
  const key = granteeKey(grantee);
  const kept = (await itemsOf(req, deps, ds)).filter((i) => granteeKey(i.grantee) !== key);
  await replace(req, deps, ds, [...kept, { resource: RESOURCE, uid: ds.metadata.name, grantee, permission: add.permission }]);
  res.json({ message: 'Datasource permission added', permissionId: permissionIdOf(grantee) });
}

async function deletePermission(req: Request, res: Response, deps: AdapterDeps): Promise<void> {
  const ds = await guarded(req, deps, 'datasources.permissions:write');
  const id = idParam(req, 'permissionId', 'permissionId is invalid');
  const items = await itemsOf(req, deps, ds);
  const kept = items.filter((i) => permissionIdOf(i.grantee) !== id);
  if (kept.length === items.length) throw new StatusError(404, 'NotFound', 'Permission not found');
  await replace(req, deps, ds, kept);
  res.json({ message: 'Datasource permission removed' });
}

/** Enabling drops the basic roles' items; disabling gives them back as a new data source has them. */
const toggle = (enabled: boolean) => async (req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
  const ds = await guarded(req, deps, 'datasources.permissions:write');
  const own = (await itemsOf(req, deps, ds)).filter((i) => i.grantee.kind !== 'role');
  const roles = enabled ? [] : defaultPermissionItems(RESOURCE, ds.metadata.name, undefined, undefined);
  await replace(req, deps, ds, [...own, ...roles]);
  res.json({ message: `Datasource permissions ${enabled ? 'enabled' : 'disabled'}` });
};

const rule = z.object({
  id: z.number().int(), datasourceId: z.number().int(), userId: z.number().int(), userLogin: z.string(), userEmail: z.string(), userAvatarUrl: z.string(),
  teamId: z.number().int(), team: z.string(), teamEmail: z.string(), teamAvatarUrl: z.string(), builtInRole: z.string(),
  permission: z.union([z.literal(1), z.literal(2), z.literal(4)]).describe('1 Query, 2 Edit, 4 Admin'), permissionName: z.enum(['Query', 'Edit', 'Admin']),
  isManaged: z.boolean(), created: z.string(), updated: z.string(),
});
const message = z.object({ message: z.string() });
const datasourceId = { name: 'datasourceId', in: 'path', type: 'integer', required: true } as const;
const tags = ['datasource_permissions'];
const why = 'the data source is found by its id first, then the action is checked on its uid';
const description = 'Enterprise edition only: 404 in the others.';
const errors = { 400: {}, 401: {}, 403: {}, 404: { description: 'No such data source (or permission).' } };

export const dataSourcePermissionRoutes: LegacyRoute[] = [
  {
    method: 'get', path: '/api/datasources/:datasourceId/permissions', guard: guard.inHandler(guard.can('datasources.permissions:read', 'datasources:uid:*'), why), servedIn: enterprise,
    handler: getPermissions, operationId: 'getAllPermissions', tags, summary: 'The permissions of a data source.', description, params: [datasourceId],
    responses: { 200: { description: 'Its permissions.', schema: z.object({ datasourceId: z.number().int(), enabled: z.boolean(), permissions: z.array(rule) }), name: 'DataSourcePermissionsDTO' }, ...errors },
  },
  {
    method: 'post', path: '/api/datasources/:datasourceId/permissions', guard: guard.inHandler(guard.can('datasources.permissions:write', 'datasources:uid:*'), why), servedIn: enterprise,
    handler: addPermission, operationId: 'addPermission', tags, summary: 'Give a user, a team or a basic role a level on a data source (replacing the one it had).', description,
    params: [datasourceId],
    body: { schema: z.object({ userId: z.number().int().optional(), teamId: z.number().int().optional(), builtinRole: z.enum(['Viewer', 'Editor', 'Admin']).optional(), permission: z.union([z.literal(1), z.literal(2), z.literal(4)]) }), name: 'AddDataSourcePermissionCommand' },
    responses: { 200: { description: 'Added.', schema: z.object({ message: z.string(), permissionId: z.number().int() }) }, ...errors },
  },
  {
    method: 'delete', path: '/api/datasources/:datasourceId/permissions/:permissionId', guard: guard.inHandler(guard.can('datasources.permissions:write', 'datasources:uid:*'), why), servedIn: enterprise,
    handler: deletePermission, operationId: 'deletePermissions', tags, summary: 'Remove one permission of a data source.', description,
    params: [datasourceId, { name: 'permissionId', in: 'path', type: 'integer', required: true }],
    responses: { 200: { description: 'Removed.', schema: message }, ...errors },
  },
  {
    method: 'post', path: '/api/datasources/:datasourceId/enable-permissions', guard: guard.inHandler(guard.can('datasources.permissions:write', 'datasources:uid:*'), why), servedIn: enterprise,
    handler: toggle(true), operationId: 'enablePermissions', tags, summary: 'Only Admins and those given a permission query the data source.', description, params: [datasourceId],
    responses: { 200: { description: 'Enabled.', schema: message }, ...errors },
  },
  {
    method: 'post', path: '/api/datasources/:datasourceId/disable-permissions', guard: guard.inHandler(guard.can('datasources.permissions:write', 'datasources:uid:*'), why), servedIn: enterprise,
    handler: toggle(false), operationId: 'disablePermissions', tags, summary: 'Every member queries the data source again (Viewers get Query).', description, params: [datasourceId],
    responses: { 200: { description: 'Disabled.', schema: message }, ...errors },
  },
];
