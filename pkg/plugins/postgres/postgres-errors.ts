/**
 * Words for what went wrong talking to a data source's database (anchor-breadth §3.7, §4; the anchor's
 * sqleng/handler_checkhealth.go). A connection failure is named by its kind only (`connection refused`, `no such
 * host`…), never with the address or the login it tried; a database's own error is its message (PostgreSQL never
 * puts a password in one).
 */
import type { HealthResult } from '../types';

const NETWORK: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'no such host',
  ETIMEDOUT: 'i/o timeout',
  EHOSTUNREACH: 'no route to host',
  ENETUNREACH: 'network is unreachable',
  ECONNRESET: 'connection reset by peer',
  EPIPE: 'broken pipe',
  ENOENT: 'no such file or directory',
};

/** The kind of a connection failure, or undefined when the error is no network error. */
export function networkFailure(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && NETWORK[e.code]) return NETWORK[e.code];
  const message = typeof e?.message === 'string' ? e.message : '';
  if (/timeout/i.test(message) && /connect/i.test(message)) return 'i/o timeout';
  if (/Connection terminated unexpectedly/i.test(message)) return 'connection reset by peer';
  return undefined;
}

/** The server refused TLS the data source's sslmode requires. */
export function isSslRefused(err: unknown): boolean {
  return /does not support SSL/i.test(String((err as Error)?.message ?? ''));
}

/** The message of an error as a query answers it (after `db query error: `). */
export function queryErrorText(err: unknown): string {
  const network = networkFailure(err);
  if (network) return `failed to connect to server - ${network}`;
  if (isSslRefused(err)) return 'failed to connect to server - the server does not support SSL connections';
  return err instanceof Error ? err.message : String(err);
}

/** The health result of a failed `SELECT 1`. */
export function healthFailure(err: unknown): HealthResult {
  const network = networkFailure(err);
  if (network) return { status: 'ERROR', message: `Network error: Failed to connect to the server. Error message: ${network}` };
  if (isSslRefused(err)) return { status: 'ERROR', message: 'SSL error: Failed to connect to the server' };
  return { status: 'ERROR', message: err instanceof Error ? err.message : String(err) };
}
