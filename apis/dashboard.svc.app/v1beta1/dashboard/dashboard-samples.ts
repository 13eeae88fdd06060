import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Dashboard objects. */
export const samples: KindSamples = {
  spec: () => ({
    title: 'API latency',
    tags: ['api', 'prod'],
    schemaVersion: 41,
    time: { from: 'now-6h', to: 'now' },
    panels: [{ id: 1, type: 'timeseries', title: 'p99', gridPos: { h: 8, w: 12, x: 0, y: 0 }, targets: [{ refId: 'A' }] }],
    customThing: { kept: ['as', 'sent'] },
  }),
  changed: () => ({ title: 'API latency v2', tags: ['api'], panels: [] }),
  invalid: { title: 'ok', panels: [{ gridPos: { h: 'tall', w: 1, x: 0, y: 0 } }] },
  invalidField: 'spec.panels[0].gridPos.h',
};
