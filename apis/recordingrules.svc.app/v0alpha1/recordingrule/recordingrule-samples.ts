import type { KindSamples } from '../../../../pkg/meta';

const queries = [{ refId: 'A', datasource: { uid: 'td', type: 'grafana-testdata-datasource' }, scenarioId: 'csv_metric_values', stringInput: '1,2,3' }];

/** What the kind conformance suite (test/conformance) writes as RecordingRule objects. */
export const samples: KindSamples = {
  spec: (name) => ({ title: `Rule ${name}`, interval: 60, promName: 'svc_recorded', queries }),
  changed: (name) => ({ title: `Rule ${name}`, interval: 120, promName: 'svc_recorded_changed', queries, active: false }),
  invalid: { title: 'Bad', interval: 60, promName: '1 bad name', queries },
  invalidField: 'spec.promName',
};
