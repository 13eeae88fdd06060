import type { Request, Response } from 'express';
import { StatusError } from '../../pkg/errors';
import { SecretsError, type SecretsService } from '../../pkg/secrets';
import type { AdapterDeps } from '../shared';

/**
 * The key operations of `pkg/secrets`, each idempotent and safe to interrupt (the service rewrites one key or one
 * object at a time, and old data keys stay): 204 with no body (spec §4.11). A key or value no configured secret key
 * opens is the server's state, not the request's: the anchor's 500 message, the cause in the log.
 */
function keyOperation(run: (secrets: SecretsService) => Promise<unknown>, failure: string) {
  return async (_req: Request, res: Response, deps: AdapterDeps): Promise<void> => {
    try {
      await run(deps.secrets);
    } catch (err) {
      if (!(err instanceof SecretsError)) throw err;
      deps.log.error(failure, { error: err.message });
      throw StatusError.internal(failure);
    }
    res.status(204).end();
  };
}

export const rotateDataKeys = keyOperation((s) => s.rotateDataKeys(), 'Failed to rotate data keys');
export const reencryptDataKeys = keyOperation((s) => s.reencryptDataKeys(), 'Failed to re-encrypt data keys');
export const reencryptSecrets = keyOperation((s) => s.reencryptSecrets(), 'Failed to re-encrypt secrets');
export const rollbackSecrets = keyOperation((s) => s.rollbackSecrets(), 'Failed to rollback secrets');
