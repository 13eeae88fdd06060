import type { KindRegistration } from '../../../../pkg/meta';
import { type SigningKeySpec, signingKeySpecSchema } from './signingkey-schema';

export { SECURE_PRIVATE_KEY, type SigningKeySpec } from './signingkey-schema';

/**
 * SigningKey, `secret.svc.app/v0alpha1`: a key pair the server signs with (pkg/signingkeys), in the database so that
 * every replica publishes and signs with the same keys; not served under /apis. The private key is a secure value:
 * encrypted at rest with the envelope encryption, never in an answer, a watch event or history.
 */
export const signingKeyKind = {
  group: 'secret.svc.app',
  version: 'v0alpha1',
  kind: 'SigningKey',
  plural: 'signingkeys',
  singular: 'signingkey',
  specSchema: signingKeySpecSchema,
  deleteResponse: 'status',
  secureValues: [{ path: 'spec.secure', reportAs: 'spec.secureFields' }],
} satisfies KindRegistration<SigningKeySpec>;
