import type { KindRegistration } from '../../../../pkg/meta';
import { type DataKeySpec, dataKeySpecSchema } from './datakey-schema';

export type { DataKeySpec } from './datakey-schema';

/**
 * DataKey, `secret.svc.app/v0alpha1`: a data key of the envelope encryption, in the database so that every replica
 * reads the same keys; not served under /apis. History never keeps a wrapping (`secretFields`): after
 * `reencrypt-data-keys` nothing wrapped by the previous secret key remains.
 */
export const dataKeyKind = {
  group: 'secret.svc.app',
  version: 'v0alpha1',
  kind: 'DataKey',
  plural: 'datakeys',
  singular: 'datakey',
  specSchema: dataKeySpecSchema,
  deleteResponse: 'status',
  secretFields: ['spec.encryptedKey'],
} satisfies KindRegistration<DataKeySpec>;
