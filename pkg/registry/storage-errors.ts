import { StatusError } from '../errors';
import type { KindRegistration } from '../meta';
import { StorageError } from '../../storage';

/** Connection-level failures of pg (and Node's socket errors): the database, not the request, is at fault. */
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

/** The one place storage errors become API errors. */
export function toStatusError(err: unknown, kind: KindRegistration, name: string): unknown {
  if (err instanceof StorageError) {
    const gr = { group: kind.group, resource: kind.plural };
    switch (err.code) {
      case 'KeyExists':
        return StatusError.alreadyExists(gr, name);
      case 'NotFound':
        return StatusError.notFound(gr, name);
      case 'Conflict':
        return kind.conflictError ? kind.conflictError(name) : StatusError.conflict(gr, name);
      case 'Unavailable':
        return StatusError.unavailable(err.message);
    }
  }
  return databaseUnavailable(err) ?? err;
}

export function databaseUnavailable(err: unknown): StatusError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNAVAILABLE.has(code)) return StatusError.unavailable('the database is unavailable, try again later');
  if (err instanceof Error && /Connection terminated|connect ECONNREFUSED|Cannot use a pool after calling end|driver has already been destroyed|Client has encountered a connection error/.test(err.message)) {
    return StatusError.unavailable('the database is unavailable, try again later');
  }
  return undefined;
}
