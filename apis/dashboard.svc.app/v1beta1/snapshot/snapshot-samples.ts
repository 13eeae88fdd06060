import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Snapshot objects. */
export const samples: KindSamples = {
  spec: (name) => ({ key: `key-${name}`, name: 'Incident 42', external: false, expires: '2099-01-01T00:00:00Z', dashboardUid: 'api-latency' }),
  changed: (name) => ({ key: `key-${name}`, name: 'Incident 42 (kept)', external: false }),
  invalid: { name: 'x', expires: 'tomorrow' },
  invalidField: 'spec.expires',
};
