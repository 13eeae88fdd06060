import type { KindSamples } from '../../../../pkg/meta';

const dataSource = (name: string) => ({ apiVersion: 'datasource.svc.app/v1beta1', kind: 'DataSource', metadata: { name }, spec: { name, type: 'svc-testdata-datasource' } });

/** What the kind conformance suite (test/conformance) writes as Correlation objects, between two data sources it makes first. */
export const samples: KindSamples = {
  requires: [dataSource('corr-logs'), dataSource('corr-traces')],
  spec: (name) => ({ sourceUID: 'corr-logs', targetUID: 'corr-traces', label: `Logs to traces ${name}`, config: { field: 'traceID', type: 'query', target: { expr: '${traceID}' } } }),
  changed: (name) => ({ sourceUID: 'corr-logs', targetUID: 'corr-traces', label: `Logs to traces ${name} (2)`, description: 'changed', config: { field: 'traceId', type: 'query', target: { expr: '${traceId}' } } }),
  invalid: { sourceUID: 'corr-logs', label: 'No target', config: { field: 'traceID', type: 'query', target: {} } },
  invalidField: 'spec.targetUID',
};
