import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as Report objects. */
export const samples: KindSamples = {
  spec: (name) => ({
    name: `Weekly ${name}`,
    recipients: ['ops@example.org'],
    schedule: { frequency: 'weekly', startDate: '2026-10-02T10:00:00+02:00', timeZone: 'Europe/Warsaw' },
    dashboards: [{ uid: 'api-latency', timeRange: { from: 'now-7d', to: 'now' } }],
    formats: ['pdf'],
  }),
  changed: (name) => ({
    name: `Daily ${name}`,
    recipients: ['ops@example.org', 'dev@example.org'],
    schedule: { frequency: 'daily', timeZone: 'UTC', workdaysOnly: true },
    dashboards: [{ uid: 'api-latency' }],
    formats: ['pdf', 'csv'],
  }),
  invalid: { name: 'x', recipients: ['not an address'], schedule: { frequency: 'daily' }, dashboards: [{ uid: 'a' }] },
  invalidField: 'spec.recipients[0]',
};
