import type { KindRegistration } from '../../../../pkg/meta';
import { type CorrelationSpec, correlationSpecSchema } from './correlation-schema';
import { correlationStrategy } from './correlation-strategy';

export { type CorrelationSpec } from './correlation-schema';
export { CORRELATION_LABELS, PROVISIONED_CORRELATION } from './correlation-strategy';

/**
 * Correlation, `correlation.svc.app/v1beta1` (a named-only group of the spec; shapes from the anchor's OpenAPI
 * document): its source and target are data sources of its organization (checked, and locked, by the registry on
 * every write), and a data source's delete takes its correlations with it (the DataSource kind's cascades).
 */
export const correlationKind = {
  group: 'correlation.svc.app',
  version: 'v1beta1',
  kind: 'Correlation',
  plural: 'correlations',
  singular: 'correlation',
  categories: ['svc'],
  specSchema: correlationSpecSchema,
  strategy: correlationStrategy,
  deleteResponse: 'status',
  references: [
    { field: 'sourceUID', group: 'datasource.svc.app', resource: 'datasources', name: (spec) => spec.sourceUID },
    { field: 'targetUID', group: 'datasource.svc.app', resource: 'datasources', name: (spec) => spec.targetUID },
  ],
  // Ours: the anchor guards correlations with data source reads and writes, which Admins hold.
  access: { resource: 'correlations', roles: { Admin: [{ verbs: ['read', 'create', 'write', 'delete'], on: 'all' }] } },
  printerColumns: [
    { name: 'Label', type: 'string', jsonPath: '.spec.label' },
    { name: 'Source', type: 'string', jsonPath: '.spec.sourceUID' },
    { name: 'Target', type: 'string', jsonPath: '.spec.targetUID' },
  ],
} satisfies KindRegistration<CorrelationSpec>;
