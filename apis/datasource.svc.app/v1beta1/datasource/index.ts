import { StatusError } from '../../../../pkg/errors';
import { anyKind, type KindRegistration } from '../../../../pkg/meta';
import { CORRELATION_LABELS, correlationKind } from '../../../correlation.svc.app/v1beta1/correlation';
import { DataSourceMessages, type DataSourceSpec, dataSourceSpecSchema } from './datasource-schema';
import { dataSourceStrategy } from './datasource-strategy';

export { DataSourceMessages, type DataSourceSpec, MAX_DATASOURCE_NAME_LENGTH, MAX_JSON_DATA_BYTES } from './datasource-schema';

const QUERY = ['datasources:query'];
const EDIT = [...QUERY, 'datasources:read', 'datasources:write', 'datasources:delete'];

/**
 * DataSource, `datasource.svc.app/v1beta1` (spec §2.7, §4.5): one group for every plugin, the plugin in `spec.type`
 * (the anchor has one group per plugin). The name is the data source's uid; names are unique in an organization; at
 * most one is its default, and the first one created is.
 */
export const dataSourceKind = {
  group: 'datasource.svc.app',
  version: 'v1beta1',
  kind: 'DataSource',
  plural: 'datasources',
  singular: 'datasource',
  categories: ['svc'],
  specSchema: dataSourceSpecSchema,
  strategy: dataSourceStrategy,
  deleteResponse: 'status',
  internalIds: true,
  // The legacy PUT's `version` check (the registry's expectedGeneration) and a stale resourceVersion alike.
  conflictError: (name) => new StatusError(409, 'Conflict', DataSourceMessages.stale, { name, group: 'datasource.svc.app', kind: 'datasources' }),
  unique: [{ field: 'name', value: (spec) => spec.name, error: () => new StatusError(409, 'Conflict', DataSourceMessages.nameTaken, { group: 'datasource.svc.app', kind: 'datasources' }) }],
  exclusive: [{ field: 'isDefault', firstHolds: true }],
  secureValues: [{ path: 'spec.secureJsonData', reportAs: 'spec.secureJsonFields' }],
  // Its correlations, from it or to it, go in its delete's transaction.
  cascades: [
    { kind: anyKind(correlationKind), dependents: (ds) => ({ labels: { [CORRELATION_LABELS.source]: ds.metadata.name } }) },
    { kind: anyKind(correlationKind), dependents: (ds) => ({ labels: { [CORRELATION_LABELS.target]: ds.metadata.name } }) },
  ],
  access: {
    resource: 'datasources',
    // The anchor's fixed:datasources:writer and datasources.permissions:writer (Admins); Viewers and Editors query
    // through the Query item a new data source gives them, and read nothing (anchor-breadth §1.10).
    roles: { Admin: [{ verbs: ['read', 'write', 'delete', 'create', 'permissions:read', 'permissions:write'], on: 'all' }] },
    managed: {
      // The anchor's data source permission levels (Query, Edit, Admin). Ours: Query does not read the record.
      levels: { Query: QUERY, Edit: EDIT, Admin: [...EDIT, 'datasources.permissions:read', 'datasources.permissions:write'] },
      defaults: [
        { grantee: 'creator', permission: 'Admin' },
        { grantee: 'Viewer', permission: 'Query' },
      ],
    },
  },
  printerColumns: [
    { name: 'Title', type: 'string', jsonPath: '.spec.name' },
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
    { name: 'URL', type: 'string', jsonPath: '.spec.url' },
    { name: 'Default', type: 'boolean', jsonPath: '.spec.isDefault' },
  ],
} satisfies KindRegistration<DataSourceSpec>;
