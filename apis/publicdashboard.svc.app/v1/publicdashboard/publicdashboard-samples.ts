import type { KindSamples } from '../../../../pkg/meta';

/**
 * What the kind conformance suite (test/conformance) writes as PublicDashboard objects: one per dashboard (the
 * unique field), so each name shares its own; the dashboards need not exist (see the kind).
 */
export const samples: KindSamples = {
  spec: (name) => ({ dashboardUid: `dash-${name}`, isEnabled: true, share: 'public' }),
  changed: (name) => ({ dashboardUid: `dash-${name}`, isEnabled: false, annotationsEnabled: true, timeSelectionEnabled: true, share: 'public' }),
  invalid: { dashboardUid: 'dash-x', accessToken: 'not-a-token' },
  invalidField: 'spec.accessToken',
};
