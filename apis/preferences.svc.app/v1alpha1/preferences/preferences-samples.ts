import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Preferences objects. */
export const samples: KindSamples = {
  spec: () => ({ theme: 'dark', timezone: 'utc' }),
  changed: () => ({ theme: 'light', weekStart: 'monday' }),
  invalid: { theme: 'purple' },
  invalidField: 'spec.theme',
};
