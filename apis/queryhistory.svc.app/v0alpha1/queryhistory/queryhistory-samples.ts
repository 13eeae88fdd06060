import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as QueryHistory objects. */
export const samples: KindSamples = {
  spec: (name) => ({ datasourceUid: `ds-${name}`, queries: [{ refId: 'A', expr: 'up' }], comment: '', createdAt: 1_700_000_000 }),
  changed: (name) => ({ datasourceUid: `ds-${name}`, queries: [{ refId: 'A', expr: 'up' }], comment: 'changed', createdAt: 1_700_000_000 }),
  invalid: { datasourceUid: 'ds', queries: [], createdAt: -1 },
  invalidField: 'spec.createdAt',
};
