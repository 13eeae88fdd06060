import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as LibraryPanel objects (names unique per folder). */
export const samples: KindSamples = {
  spec: (name) => ({ name: `CPU ${name}`, kind: 1, type: 'timeseries', description: 'Busy cores', model: { type: 'timeseries', title: 'CPU', description: 'Busy cores' } }),
  changed: (name) => ({ name: `CPU ${name} (v2)`, kind: 1, type: 'stat', description: '', model: { type: 'stat', title: 'CPU', description: '' } }),
  invalid: { name: 'x', kind: 3, model: {} },
  invalidField: 'spec.kind',
};
