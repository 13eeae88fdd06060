/**
 * One statement of a data source's SQL, run so it cannot change anything: inside `BEGIN READ ONLY` with a
 * `statement_timeout`, always rolled back, on the extended protocol (one statement: no `COMMIT; INSERT …` behind a
 * SELECT), fetching at most `rowLimit` rows (the database stops producing at the limit: a portal with a row count).
 */
import net from 'node:net';
import { type CustomTypesConfig, type FieldDef, type Pool, type PoolClient, Query } from 'pg';
import type { Column } from './postgres-columns';

export interface SqlResult {
  columns: Column[];
  /** Each row's values in PostgreSQL's text format, null for NULL. */
  rows: Array<Array<string | null>>;
  /** More rows than the limit existed; `rows` holds the first `rowLimit`. */
  truncated: boolean;
}

export interface ReadOnlyOptions {
  timeoutMs: number;
  rowLimit: number;
  signal: AbortSignal;
}

/** Every value as PostgreSQL's text: the columns module decides types (pg would parse timestamps as local time). */
const TEXT_VALUES = { getTypeParser: () => (text: string) => text } as unknown as CustomTypesConfig;

/** A query that stops at its portal's row count instead of asking for the next rows. */
class LimitedQuery extends Query {
  truncated = false;

  handlePortalSuspended(connection: { sync(): void }): void {
    this.truncated = true;
    connection.sync();
  }

  // With a row count, pg sends no Sync after Execute; after an error the server skips everything until one, so
  // the next command on this connection (the ROLLBACK) would wait forever without it.
  handleError(err: Error, connection: { sync(): void }): void {
    connection.sync();
    (Query.prototype as unknown as { handleError(e: Error, c: unknown): void }).handleError.call(this, err, connection);
  }
}

/**
 * Asks the server to cancel what a connection runs (the protocol's CancelRequest on a connection of its own):
 * closing our socket alone would leave the statement running until its timeout, as PostgreSQL notices a gone
 * client only when it writes.
 */
function cancelOnServer(client: PoolClient): void {
  const { host, port, processID, secretKey } = client as unknown as { host: string; port: number; processID: number | null; secretKey: number | null };
  if (processID === null || secretKey === null) return;
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(80877102, 4);
  request.writeInt32BE(processID, 8);
  request.writeInt32BE(secretKey, 12);
  const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
  socket.on('error', () => undefined);
  socket.setTimeout(5000, () => socket.destroy());
  socket.on('connect', () => socket.end(request));
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('query canceled');
}

/** Runs `sql` read-only on a connection of `pool`. Database and connection errors are thrown as pg gives them. */
export async function runReadOnly(pool: Pool, sql: string, opts: ReadOnlyOptions): Promise<SqlResult> {
  if (opts.signal.aborted) throw abortError(opts.signal);
  const client: PoolClient = await pool.connect();
  if (opts.signal.aborted) {
    client.release();
    throw abortError(opts.signal);
  }
  // A connection the caller gave up on mid-statement is closed rather than returned: its state is unknown.
  let discard = false;
  try {
    // The SELECT takes the transaction's snapshot: from then on `SET TRANSACTION READ WRITE` is refused.
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.round(opts.timeoutMs))}; SELECT 1`);
    const result = await new Promise<{ fields: FieldDef[]; rows: unknown[][]; truncated: boolean }>((resolve, reject) => {
      const onAbort = () => {
        discard = true;
        cancelOnServer(client);
        reject(abortError(opts.signal));
      };
      opts.signal.addEventListener('abort', onAbort, { once: true });
      const query: LimitedQuery = new LimitedQuery({
        text: sql,
        rows: opts.rowLimit + 1,
        rowMode: 'array',
        types: TEXT_VALUES,
        callback: (err: Error | undefined, res: { fields: FieldDef[]; rows: unknown[][] }) => {
          opts.signal.removeEventListener('abort', onAbort);
          if (err) reject(err);
          else resolve({ fields: res.fields, rows: res.rows, truncated: query.truncated });
        },
      } as ConstructorParameters<typeof Query>[0]);
      client.query(query);
    });
    const truncated = result.truncated || result.rows.length > opts.rowLimit;
    return {
      columns: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      rows: (truncated ? result.rows.slice(0, opts.rowLimit) : result.rows) as Array<Array<string | null>>,
      truncated,
    };
  } finally {
    if (discard) client.release(true);
    else {
      // Rolled back whatever happened: the statement's session settings and locks go with the transaction.
      const ok = await client.query('ROLLBACK').then(() => true, () => false);
      client.release(!ok);
    }
  }
}
