import type { KindSamples } from '../../../../pkg/meta';

/** What the kind conformance suite (test/conformance) writes as AuthToken objects. */
export const samples: KindSamples = {
  spec: () => ({ userId: 2, clientIp: '10.0.0.1', userAgent: 'curl/8.5.0', createdAt: '2024-01-01T00:00:00.000Z', seenAt: '2024-01-01T00:00:00.000Z' }),
  changed: () => ({ userId: 2, clientIp: '10.0.0.1', userAgent: 'curl/8.5.0', createdAt: '2024-01-01T00:00:00.000Z', seenAt: '2024-01-02T00:00:00.000Z' }),
  invalid: { userId: 0, createdAt: '2024-01-01T00:00:00.000Z', seenAt: '2024-01-01T00:00:00.000Z' },
  invalidField: 'spec.userId',
};
