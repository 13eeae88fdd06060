import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Playlist objects. */
export const samples: KindSamples = {
  spec: () => ({ title: 'Morning', interval: '5m', items: [{ type: 'dashboard_by_uid', value: 'abc' }] }),
  changed: () => ({ title: 'Evening', interval: '10m', items: [{ type: 'dashboard_by_tag', value: 'ops' }] }),
  invalid: { title: 'x', interval: 'soon', items: [] },
  invalidField: 'spec.interval',
};
