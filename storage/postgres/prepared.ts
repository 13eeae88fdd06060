import { createHash } from 'node:crypto';

/**
 * Statements whose text starts with this comment are prepared once per connection on PostgreSQL (issue 16): the
 * reads every request makes and the writes made under a type's lock. PostgreSQL then parses, analyses and plans them
 * once, not at every call; for the read scope's versions statement that was three quarters of its cost. Only the
 * statements the code marks are prepared: their set is fixed by the code (so the prepared statements of a connection
 * are bounded), and each finds its rows by key, so the plan PostgreSQL keeps for every parameter is the right one.
 * The embedded database ignores the comment.
 *
 * @example sql`${sql.raw(PREPARED)}SELECT value FROM resource WHERE name = ${name}`
 */
export const PREPARED = '/* prepared */ ';

/** More marked texts than any build of the code has: past it a text runs unprepared (a bug, never a leak). */
const MAX_NAMES = 256;
const names = new Map<string, string>();

/** The statement name of a marked text: one per text, the same in every connection and process. */
export function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `svc_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    names.set(text, name);
  }
  return name;
}

/** The part of pg's Client this touches: `query(text, values)`, as kysely's driver calls it. */
interface QueryingClient {
  query: (...args: never[]) => unknown;
}

/**
 * Makes `client` (a pg Client, as the pool connects it) run the marked texts kysely sends as named statements: pg
 * sends a named statement's text once per connection and then only its parameters.
 *
 * @example pool.on('connect', (client) => prepareMarked(client));
 */
export function prepareMarked(client: QueryingClient): void {
  const query = client.query as (...args: unknown[]) => unknown;
  client.query = function (this: unknown, ...args: unknown[]) {
    const [text, values, callback] = args;
    const name = typeof text === 'string' && text.startsWith(PREPARED) ? statementName(text) : undefined;
    if (name === undefined || typeof values === 'function') return query.apply(this, args);
    return query.call(this, { name, text, values }, callback);
  } as QueryingClient['query'];
}
