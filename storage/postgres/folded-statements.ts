/**
 * A grouped write's transaction on PostgreSQL is two round trips (issue 16): it begins with the statement that locks
 * its types (`begin; select … for update`, one message) and ends with the statement that writes its deferred creates
 * (`with … insert …; commit`, one message), where BEGIN, the lock, the write and COMMIT each took one. Several
 * statements in one message go by the simple protocol, so their values are written into the text, not bound.
 */

/** The text of {@link foldedLock}'s select, with the rows in the global lock order (see SqlTx.lockTypes). */
const LOCKED_COLUMNS = `select "group", "resource", "resource_version", "last_internal_id" from "resource_version"`;
const LOCK_ORDER = `order by ("group" || '/' || "resource") collate "C" for update`;

/** Names PostgreSQL reads the same in any quoting (every registered type's group and resource are such). */
const PLAIN = /^[A-Za-z0-9._-]+$/;

/**
 * `begin;` and the lock of the counters of `types`, as one text, or undefined when a name is not plain.
 *
 * @example foldedLock([{ group: 'dashboard.svc.app', resource: 'dashboards' }])
 *   // begin; select … where ("group", "resource") in (('dashboard.svc.app', 'dashboards')) order by … for update
 */
export function foldedLock(types: readonly { group: string; resource: string }[]): string | undefined {
  if (!types.length || !types.every((t) => PLAIN.test(t.group) && PLAIN.test(t.resource))) return undefined;
  const keys = types.map((t) => `('${t.group}', '${t.resource}')`).join(', ');
  return `begin; ${LOCKED_COLUMNS} where ("group", "resource") in (${keys}) ${LOCK_ORDER}`;
}

/**
 * A statement whose text starts with this comment is sent with COMMIT after it, in one message, its parameters
 * written into the text (see {@link foldStatements}). It must fail rather than commit what its caller would not: the
 * transaction ends with it. Only where the client folds (PostgreSQL); elsewhere the caller commits on its own.
 */
export const THEN_COMMIT = '/* then commit */ ';

/**
 * A string as a literal, as pg's escapeLiteral writes it (which walks the text a character at a time; objects' JSON
 * is kilobytes): quotes doubled, and with a backslash an E'' string with backslashes doubled.
 */
function quoted(s: string): string {
  const text = s.replace(/'/g, "''");
  return s.includes('\\') ? ` E'${text.replace(/\\/g, '\\\\')}'` : `'${text}'`;
}

/** A parameter as a literal: what pg would bind, quoted (strings, numbers, null, arrays of strings); undefined otherwise. */
function literal(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' && Number.isFinite(value)) return quoted(String(value));
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    // PostgreSQL's array input syntax, each element quoted, as pg sends an array parameter.
    return quoted(`{${value.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`);
  }
  return undefined;
}

/** `text` with its `$n` parameters written in as literals, or undefined when one cannot be. */
export function inlined(text: string, values: readonly unknown[]): string | undefined {
  let ok = true;
  const out = text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]) ?? ((ok = false), ''));
  return ok ? out : undefined;
}

/** The part of pg's Client this touches. */
interface QueryingClient {
  query: (...args: never[]) => unknown;
}

interface Result {
  command?: string;
}

/**
 * Makes `client` (a pg Client) send a {@link THEN_COMMIT} statement with COMMIT in one message, and answer a text of
 * several statements with the result of the one that is not BEGIN or COMMIT (pg answers an array; kysely reads one).
 *
 * @example pool.on('connect', (client) => foldStatements(client));
 */
export function foldStatements(client: QueryingClient): void {
  const query = client.query as (...args: unknown[]) => unknown;
  client.query = function (this: unknown, ...args: unknown[]) {
    const [text, values] = args;
    if (typeof text === 'string' && text.startsWith(THEN_COMMIT) && Array.isArray(values) && args.length === 2) {
      const folded = inlined(text, values);
      // A value that cannot be written into the text: the statement is bound, and the commit follows it alone.
      if (folded === undefined) return (query.call(this, text, values) as Promise<unknown>).then(async (result) => (await query.call(this, 'commit'), result));
      args = [`${folded}; commit`, []];
    }
    const answer = query.apply(this, args);
    if (!(answer instanceof Promise)) return answer;
    return answer.then((result: unknown) => {
      if (!Array.isArray(result)) return result;
      const own = (result as Result[]).filter((r) => r.command !== 'BEGIN' && r.command !== 'COMMIT');
      return own[own.length - 1] ?? result[result.length - 1];
    });
  } as QueryingClient['query'];
}
