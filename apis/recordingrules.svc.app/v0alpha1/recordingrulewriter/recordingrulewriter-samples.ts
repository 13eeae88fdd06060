import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as RecordingRuleWriter objects. */
export const samples: KindSamples = {
  spec: () => ({ dataSourceUid: 'prom', remoteWritePath: '/api/v1/write' }),
  changed: () => ({ dataSourceUid: 'prom', remoteWritePath: '/prometheus/api/v1/push' }),
  invalid: { dataSourceUid: 'prom', remoteWritePath: '/../../admin' },
  invalidField: 'spec.remoteWritePath',
};
