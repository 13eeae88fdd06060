// The server a bench measures: the compiled server (dist/) on a throw-away bench database, closed (and the database
// dropped) when the bench ends, also on Ctrl-C.
'use strict';
const path = require('node:path');
const dist = require('./dist');
const { createBenchDatabase } = require('./database');

const { loadConfig } = dist('pkg/config');
const { createLogger } = dist('pkg/log');
const { startServer } = dist('pkg/server/server');

/**
 * Runs `fn({ db, server, config })` against a server on a fresh bench database; cleans both up afterwards.
 * The compactor is pushed out of the run: its pass reads the whole history and would land in a timed part.
 *
 * @example
 *   await withBenchServer({ embedded: false, rawConnections: 2 }, async ({ db, server }) => { ... });
 */
async function withBenchServer({ embedded, rawConnections }, fn) {
  const db = await createBenchDatabase({ embedded, rawConnections });
  let server;
  let closing;
  const cleanup = () => (closing ??= (async () => {
    await server?.close().catch((err) => console.error(`closing the server: ${err.message}`));
    await db.close().catch((err) => console.error(`dropping the database: ${err.message}`));
  })());
  process.once('SIGINT', () => cleanup().finally(() => process.exit(130)));
  try {
    const argv = ['--server.http_port=0', '--registry.compaction_interval_seconds=86400', ...(db.url ? [`--database.url=${db.url}`] : [])];
    const config = loadConfig({ argv, env: {}, cwd: path.resolve(__dirname, '..', '..') });
    server = await startServer(config, createLogger('warn'), db.storage ? { storage: db.storage } : {});
    return await fn({ db, server, config });
  } finally {
    await cleanup();
  }
}

module.exports = { withBenchServer };
