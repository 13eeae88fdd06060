import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as DataSource objects. */
export const samples: KindSamples = {
  spec: (name) => ({ name: `Prometheus ${name}`, type: 'prometheus', access: 'proxy', url: 'http://prometheus:9090', jsonData: { httpMethod: 'POST' } }),
  changed: (name) => ({ name: `Prometheus ${name} (moved)`, type: 'prometheus', access: 'proxy', url: 'http://prometheus-2:9090', jsonData: { httpMethod: 'GET' } }),
  invalid: { name: 'Loki', type: 'loki', access: 'proxy', url: 'http://exa mple.com' },
  invalidField: 'spec.url',
};
