import { defineArea, guard, type LegacyRoute, type RouteHandler } from '../shared';
import { reencryptDataKeys, reencryptSecrets, rollbackSecrets, rotateDataKeys } from './encryption-routes';

/** One admin key operation: POST, server admins only, 204 with no body. */
function operation(name: string, handler: RouteHandler, operationId: string, summary: string): LegacyRoute {
  return {
    method: 'post', path: `/api/admin/encryption/${name}`, guard: guard.serverAdmin, handler,
    operationId, summary, tags: ['admin'],
    responses: { 204: { description: 'Done; no body.' }, 401: {}, 403: {}, 500: {} },
  };
}

/** The admin encryption routes (spec §4.11; the model in README "Secrets"). */
export const encryptionArea = defineArea({
  name: 'encryption',
  routes: [
    operation('rotate-data-keys', rotateDataKeys, 'adminRotateDataEncryptionKeys', 'A new data key becomes the active one; secrets encrypted with older keys stay readable.'),
    operation('reencrypt-data-keys', reencryptDataKeys, 'adminReEncryptEncryptionKeys', 'Re-wraps every data key with the key-encryption key of the current security.secret_key (after a change, with the previous one in security.previous_secret_keys).'),
    operation('reencrypt-secrets', reencryptSecrets, 'adminReEncryptSecrets', 'Re-encrypts every stored secret with the active data key, one object at a time.'),
    operation('rollback-secrets', rollbackSecrets, 'adminRollbackSecrets', "Re-encrypts every stored secret with the anchor's legacy scheme (security.secret_key directly, no data key), for a downgrade."),
  ],
});
