import type { KindSamples } from '../../../../pkg/meta';

const publicKey = { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' };

/** What the kind conformance suite (test/conformance) writes as SigningKey objects. */
export const samples: KindSamples = {
  spec: () => ({ alg: 'ES256', publicKey, expiresAt: '2099-01-01T00:00:00Z' }),
  changed: () => ({ alg: 'ES256', publicKey, expiresAt: '2099-02-01T00:00:00Z' }),
  invalid: { alg: 'RS256', publicKey, expiresAt: '2099-01-01T00:00:00Z' },
  invalidField: 'spec.alg',
};
