import { z } from 'zod';
import { defineArea, guard } from '../shared';
import { retrieveJwks } from './signing-keys-routes';

const jwkSchema = z.object({
  kty: z.literal('EC'),
  use: z.literal('sig'),
  kid: z.string().describe('`id-token-<YYYY-MM>-es256`'),
  crv: z.literal('P-256'),
  alg: z.literal('ES256'),
  x: z.string(),
  y: z.string(),
});

/** The server's signing keys (pkg/signingkeys): the anchor's `signing_keys` routes. */
export const signingKeysArea = defineArea({
  name: 'signing-keys',
  routes: [
    {
      method: 'get', path: '/api/signing-keys/keys', guard: guard.public, handler: retrieveJwks,
      operationId: 'retrieveJWKS', tags: ['signing_keys'],
      summary: 'Get JSON Web Key Set (JWKS) with all the keys that can be used to verify tokens (public keys)',
      description: 'Required permissions\nNone',
      responses: { 200: { description: 'The JSON Web Key Set (RFC 7517).', name: 'JSONWebKeySet', schema: z.object({ keys: z.array(jwkSchema) }) }, 500: {} },
    },
  ],
});
