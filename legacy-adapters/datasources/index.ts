import { z } from 'zod';
import { defineArea, guard, type LegacyParam, type LegacyRoute } from '../shared';
import { dataSourceErrors } from './datasources-errors';
import {
  addDataSource, deleteDataSourceByID, deleteDataSourceByName, deleteDataSourceByUID, getDataSourceByID, getDataSourceByName, getDataSourceByUID,
  getDataSourceIdByName, listDataSources, updateDataSourceByID, updateDataSourceByUID,
} from './datasources-routes';
import { dataSourcePermissionRoutes } from './datasource-permissions';

/** The descriptions of the legacy data source routes (datasources-routes.ts) for the OpenAPI documents. */

const common = {
  id: z.number().int().describe('Deprecated numeric id: use uid'),
  uid: z.string().describe('At most 40 letters, digits, "-" and "_"; cannot be changed'),
  orgId: z.number().int(),
  name: z.string().describe('Unique in the organization; at most 190 characters'),
  type: z.string().describe('The plugin: prometheus, svc-postgresql-datasource, svc-testdata-datasource...'),
  typeLogoUrl: z.string(),
  access: z.enum(['proxy', 'direct']),
  url: z.string(),
  user: z.string(),
  database: z.string(),
  basicAuth: z.boolean(),
  isDefault: z.boolean().describe('At most one per organization; its first data source is the default'),
  readOnly: z.boolean().describe('Provisioned: updates and deletes are refused'),
};
const dataSource = z.object({
  ...common,
  password: z.literal('').describe('Always empty: stored as secureJsonData.password'),
  basicAuthUser: z.string(),
  basicAuthPassword: z.literal('').describe('Always empty: stored as secureJsonData.basicAuthPassword'),
  withCredentials: z.boolean(),
  jsonData: z.record(z.string(), z.unknown()).optional().describe('Omitted when null'),
  secureJsonFields: z.record(z.string(), z.boolean()).describe('The secure keys holding a value (never the values)'),
  version: z.number().int().describe('Send it back with a PUT: an older one is 409'),
  accessControl: z.record(z.string(), z.boolean()).optional().describe('With ?accesscontrol=true: the data source actions the caller holds'),
});
const listItem = z.object({ ...common, typeName: z.string(), jsonData: z.record(z.string(), z.unknown()).nullable() });
const command = z.object({
  name: z.string().optional().describe('POST: derived from the type when empty'),
  uid: z.string().optional().describe('POST: generated when empty'),
  type: z.string(),
  access: z.string().describe('proxy or direct'),
  url: z.string().optional(),
  user: z.string().optional(),
  database: z.string().optional(),
  password: z.string().optional().describe('Deprecated: secureJsonData.password'),
  basicAuth: z.boolean().optional(),
  basicAuthUser: z.string().optional(),
  basicAuthPassword: z.string().optional().describe('Deprecated: secureJsonData.basicAuthPassword'),
  withCredentials: z.boolean().optional(),
  isDefault: z.boolean().optional(),
  jsonData: z.record(z.string(), z.unknown()).nullable().optional(),
  secureJsonData: z.record(z.string(), z.string()).optional().describe('Stored encrypted; on PUT omitted keys keep their value and "" removes one'),
  version: z.number().int().optional().describe('PUT: the version read'),
});
const saved = (message: string) => ({
  description: `{"message": "${message}"} with the record.`,
  schema: z.object({ datasource: dataSource, id: z.number().int(), message: z.literal(message), name: z.string() }),
});
const deleted = z.object({ message: z.literal('Data source deleted'), id: z.number().int() });
const record = { schema: dataSource, name: 'DataSource' };
const notFound = { description: '{"message": "Data source not found"}' };
const readOnly = { description: 'Read-only (provisioned) data source, or a missing permission.' };
const uid: LegacyParam = { name: 'uid', in: 'path', type: 'string', required: true };
const id: LegacyParam = { name: 'id', in: 'path', type: 'integer', required: true };
const name: LegacyParam = { name: 'name', in: 'path', type: 'string', required: true };
const accesscontrol: LegacyParam = { name: 'accesscontrol', in: 'query', type: 'boolean', description: 'add accessControl: the actions the caller holds' };
const tags = ['datasources'];
const byUid = (route: string) => ({ replacedBy: route });

const routes: LegacyRoute[] = [
  {
    method: 'get', path: '/api/datasources', guard: guard.can('datasources:read'), handler: listDataSources, operationId: 'getDataSources', tags,
    summary: 'The data sources of the organization the caller may read, by name.',
    description: 'No paging: at most `datasources.datasource_limit` (5000) of them.',
    responses: { 200: { description: 'The data sources.', schema: z.array(listItem), name: 'DataSourceList' }, 401: {}, 403: {} },
  },
  {
    method: 'post', path: '/api/datasources', guard: guard.can('datasources:create'), handler: addDataSource, operationId: 'addDataSource', tags,
    summary: 'Create a data source.',
    body: { schema: command, name: 'AddDataSourceCommand' },
    responses: { 200: saved('Datasource added'), 400: { description: 'bad request data, invalid name, uid or URL.' }, 401: {}, 403: {}, 409: { description: 'A data source with the same name or uid exists.' } },
  },
  {
    method: 'get', path: '/api/datasources/uid/:uid', guard: guard.can('datasources:read', 'datasources:uid:{uid}'), handler: getDataSourceByUID, operationId: 'getDataSourceByUID', tags,
    summary: 'Get a data source.', params: [uid, accesscontrol],
    responses: { 200: record, 401: {}, 403: {}, 404: notFound },
  },
  {
    method: 'put', path: '/api/datasources/uid/:uid', guard: guard.can('datasources:write', 'datasources:uid:{uid}'), handler: updateDataSourceByUID, operationId: 'updateDataSourceByUID', tags,
    summary: 'Replace a data source (its secure keys not sent are kept).', params: [uid],
    body: { schema: command, name: 'UpdateDataSourceCommand' },
    responses: { 200: saved('Datasource updated'), 400: {}, 401: {}, 403: readOnly, 404: notFound, 409: { description: 'A stale version, or the name of another data source.' } },
  },
  {
    method: 'delete', path: '/api/datasources/uid/:uid', guard: guard.can('datasources:delete', 'datasources:uid:{uid}'), handler: deleteDataSourceByUID, operationId: 'deleteDataSourceByUID', tags,
    summary: 'Delete a data source, with its permissions and correlations.', params: [uid],
    responses: { 200: { description: 'Deleted.', schema: deleted }, 401: {}, 403: readOnly, 404: notFound },
  },
  {
    method: 'get', path: '/api/datasources/name/:name', guard: guard.can('datasources:read'), handler: getDataSourceByName, operationId: 'getDataSourceByName', tags,
    summary: 'Get a data source by name.', params: [name], deprecated: byUid('GET /api/datasources/uid/:uid'),
    responses: { 200: record, 401: {}, 403: {}, 404: notFound },
  },
  {
    method: 'delete', path: '/api/datasources/name/:name', guard: guard.can('datasources:delete'), handler: deleteDataSourceByName, operationId: 'deleteDataSourceByName', tags,
    summary: 'Delete a data source by name.', params: [name], deprecated: byUid('DELETE /api/datasources/uid/:uid'),
    responses: { 200: { description: 'Deleted.', schema: deleted }, 401: {}, 403: readOnly, 404: notFound },
  },
  {
    method: 'get', path: '/api/datasources/id/:name', guard: guard.can('datasources.id:read'), handler: getDataSourceIdByName, operationId: 'getDataSourceIdByName', tags,
    summary: 'The numeric id of a data source, by name.', params: [name], deprecated: byUid('GET /api/datasources/uid/:uid'),
    responses: { 200: { description: 'Its id.', schema: z.object({ id: z.number().int() }) }, 401: {}, 403: {}, 404: notFound },
  },
  {
    method: 'get', path: '/api/datasources/:id', guard: guard.can('datasources:read'), handler: getDataSourceByID, operationId: 'getDataSourceByID', tags,
    summary: 'Get a data source by its numeric id.', params: [id, accesscontrol], deprecated: byUid('GET /api/datasources/uid/:uid'),
    responses: { 200: record, 400: { description: 'id is invalid' }, 401: {}, 403: {}, 404: notFound },
  },
  {
    method: 'put', path: '/api/datasources/:id', guard: guard.can('datasources:write'), handler: updateDataSourceByID, operationId: 'updateDataSourceByID', tags,
    summary: 'Replace a data source, by its numeric id.', params: [id], deprecated: byUid('PUT /api/datasources/uid/:uid'),
    body: { schema: command, name: 'UpdateDataSourceCommand' },
    responses: { 200: saved('Datasource updated'), 400: {}, 401: {}, 403: readOnly, 404: notFound, 409: { description: 'A stale version, or the name of another data source.' } },
  },
  {
    method: 'delete', path: '/api/datasources/:id', guard: guard.can('datasources:delete'), handler: deleteDataSourceByID, operationId: 'deleteDataSourceByID', tags,
    summary: 'Delete a data source by its numeric id.', params: [id], deprecated: byUid('DELETE /api/datasources/uid/:uid'),
    responses: { 200: { description: 'Deleted.', schema: z.object({ message: z.literal('Data source deleted') }) }, 400: { description: 'Missing valid datasource id' }, 401: {}, 403: readOnly, 404: notFound },
  },
];

/** /api/datasources (spec §4.5, §9.4), and the enterprise edition's data source permissions. */
export const dataSourcesArea = defineArea({ name: 'datasources', errors: dataSourceErrors, routes: [...routes, ...dataSourcePermissionRoutes] });
