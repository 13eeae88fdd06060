import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Annotation objects: organization annotations. */
export const samples: KindSamples = {
  spec: (name) => ({ text: `Deploy ${name}`, time: 1700000000000, timeEnd: 1700000000000, tags: ['deploy', 'env:prod'] }),
  changed: (name) => ({ text: `Deploy ${name} (rolled back)`, time: 1700000000000, timeEnd: 1700000600000, tags: ['deploy'] }),
  invalid: { text: 'x', time: -1, timeEnd: 0 },
  invalidField: 'spec.time',
};
