import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { allKinds } from '../../apis';
import type { Config } from '../config';
import type { Logger } from '../log';
import { Compactor, Registry } from '../registry';
import { openStorage, type Storage } from '../../storage';
import { createApp } from './app';
import { readBuildInfo } from './build-info';

export interface RunningServer {
  url: string;
  storage: Storage;
  registry: Registry;
  /** Stops taking requests, lets in-flight ones finish (up to the shutdown timeout), closes the database. */
  close(): Promise<void>;
}

/** Opens the database, migrates, registers the kinds and listens: the whole server, as cmd/ and tests start it. */
export async function startServer(config: Config, log: Logger, opts: { storage?: Storage } = {}): Promise<RunningServer> {
  const storage = opts.storage ?? (await openStorage({ url: config.database.url || undefined, dataDir: config.paths.data, maxConnections: config.database.max_open_conn, migrationTimeoutSeconds: config.database.migration_lock_timeout_seconds }));
  const registry = new Registry(storage, allKinds, { nestedFolders: config.feature_toggles.nestedFolders });
  await registry.init();
  const compactor = new Compactor(storage, allKinds, config.registry.history_window_seconds, log);
  compactor.start(config.registry.compaction_interval_seconds);

  const { app, setDraining } = createApp({ config, storage, registry, log, build: readBuildInfo() });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.http_port, config.server.http_addr || undefined, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.server.http_addr && config.server.http_addr !== '0.0.0.0' ? config.server.http_addr : 'localhost';
  const url = `http://${host}:${port}`;
  log.info('server started', { url, database: storage.backend });

  return {
    url,
    storage,
    registry,
    async close() {
      setDraining();
      compactor.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.server.shutdown_timeout_seconds * 1000);
      await closed;
      clearTimeout(timer);
      await storage.close();
    },
  };
}
