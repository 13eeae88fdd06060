import type { KindSamples } from '../../../../pkg/meta';

const claims = { jti: '1', lid: 'lic-1', sub: 'https://svc.example.com/', exp: 4102444800, included_users: 10, prod: ['svc-enterprise'] };

/** What the kind conformance suite (test/conformance) writes as License objects. */
export const samples: KindSamples = {
  spec: () => ({ alg: 'ES256', claims }),
  changed: () => ({ alg: 'ES256', claims: { ...claims, included_users: 20 } }),
  invalid: { alg: 'HS256', claims },
  invalidField: 'spec.alg',
};
