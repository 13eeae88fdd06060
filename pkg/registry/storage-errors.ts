import { StatusError } from '../errors';
import type { KindRegistration } from '../meta';
import { StorageError } from '../../storage';
import { uniqueViolation } from './unique';

/**
 * Failures that put the database, not the request, at fault, by SQLSTATE or Node's socket error code: PostgreSQL
 * shut down, crashed, starting or recovering (57P01-57P03), the database dropped under a connection (57P04) or
 * missing (3D000, dropped or not yet restored), too many connections (53300), any connection exception (class 08),
 * and a socket that cannot reach the server.
 */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '57P04', '3D000', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** pg's, pg-pool's and kysely's own errors for a lost, unreachable or closed connection, which carry no code. */
const UNAVAILABLE_MESSAGES = /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Cannot use a pool after calling end|driver has already been destroyed|Client has encountered a connection error/;

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
      case 'UniqueViolation':
        return uniqueViolation(kind, name, err.unique);
      case 'Unavailable':
        return StatusError.unavailable(err.message);
    }
  }
  return databaseUnavailable(err) ?? err;
}

/**
 * A 503 for an error that says the database is away (see UNAVAILABLE_CODES), whatever the backend and wherever it
 * was thrown: in a request, a watch or the authentication of a caller; undefined for any other error.
 *
 * @example
 *   databaseUnavailable(err) ?? StatusError.internal();
 */
export function databaseUnavailable(err: unknown): StatusError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  const away =
    (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) ||
    (err instanceof Error && UNAVAILABLE_MESSAGES.test(err.message));
  return away ? StatusError.unavailable('the database is unavailable, try again later') : undefined;
}
