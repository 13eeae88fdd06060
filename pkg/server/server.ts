import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { allKinds, dashboardKind, identityKinds } from '../../apis';
import { starsKind } from '../../apis/collections.svc.app/v1alpha1/stars';
import { MIN_REFRESH_INTERVAL } from '../../apis/dashboard.svc.app/v1beta1/dashboard';
import { type Config, DEFAULT_SECRET_KEY } from '../config';
import type { Logger } from '../log';
import { Compactor, Namespaces, Registry, type RegistryOptions } from '../registry';
import { objectQuotas } from '../quotas';
import { openSecrets, type SecretsService } from '../secrets';
import { openStorage, ScopedReads, type Storage } from '../../storage';
import { SnapshotSweeper } from '../snapshots/sweeper';
import { createApp } from './app';
import { createHttpServer } from './http-server';
import { answerClientErrors } from './client-error';
import { type BuildInfo, readBuildInfo } from './build-info';
import { enabledAlphaFromToggles, servedKinds } from './discovery';
import { warnDefaultAdminPassword } from './startup-warnings';
import { prepareTls } from './tls';
import { within } from './deadline';

/** How often a replica looks for due scheduled reports: a minute (the finest schedule is hourly). */
const REPORT_SCHEDULE_INTERVAL_SECONDS = 60;

export interface RunningServer {
  /** `http://` or, with `server.protocol = https`, `https://` and the host and port it listens on. */
  url: string;
  storage: Storage;
  registry: Registry;
  /** Stops taking requests, lets in-flight ones finish (up to the shutdown timeout), closes the database. */
  close(): Promise<void>;
}

/**
 * The registry's options from the configuration: folders nest per `feature_toggles.nestedFolders`, dashboards
 * keep their newest `dashboards.versions_to_keep` versions and a refresh no shorter than `dashboards.min_refresh_interval`,
 * and organization 1 is namespace `stacks-<stack_id>` in the cloud edition (spec §9.3), `default` elsewhere.
 *
 * @example new Registry(storage, kinds, registryOptions(config))
 */
export function registryOptions(config: Config): Required<Omit<RegistryOptions, 'secrets'>> {
  const dashboards = `${dashboardKind.plural}.${dashboardKind.group}`;
  return {
    nestedFolders: config.feature_toggles.nestedFolders,
    versionsToKeep: { [dashboards]: config.dashboards.versions_to_keep },
    kindSettings: { [dashboards]: { [MIN_REFRESH_INTERVAL]: config.dashboards.min_refresh_interval } },
    namespaces: new Namespaces({ stackId: config.server.edition === 'cloud' ? config.server.stack_id : undefined }),
    quotas: objectQuotas(config),
  };
}

/** The server's parts, as {@link composeServer} builds them: the application and what it was built over. */
export type ComposedServer = ReturnType<typeof createApp> & {
  registry: Registry;
  /** The encryption at rest (envelope encryption with data keys), which the registry's writes use too. */
  secrets: SecretsService;
  /** Not started: {@link startServer} runs it on an interval. */
  compactor: Compactor;
  /** Deletes expired snapshots; not started: {@link startServer} runs it with `snapshots.remove_expired`. */
  snapshotSweeper: SnapshotSweeper;
};

/**
 * Registers the kinds the configuration serves on `storage` and builds the application over them: what
 * {@link startServer} listens with, and what tests run in process, so both run the same composition.
 *
 * @example const { app, identityReady } = await composeServer(config, log, storage, readBuildInfo());
 */
export async function composeServer(config: Config, log: Logger, stored: Storage, build: BuildInfo, env: Readonly<Record<string, string | undefined>> = {}): Promise<ComposedServer> {
  // Alpha versions are served only when a feature toggle names them (spec §9.2).
  const kinds = servedKinds(allKinds, enabledAlphaFromToggles(config.feature_toggles.enable));
  // What every request reads about its caller and the folder tree is kept in memory, checked by one version query.
  const cached = [...identityKinds, ...kinds.filter((k) => k.isFolder || k.readOften), starsKind].map((k) => ({ group: k.group, resource: k.plural }));
  const storage = new ScopedReads(stored, cached);
  const options = registryOptions(config);
  if (config.security.secret_key === DEFAULT_SECRET_KEY) {
    log.warn('security.secret_key is the default value: secrets are encrypted with a key anyone can know; set a secret of your own (then reencrypt-data-keys)');
  }
  const secrets = openSecrets(config.security, storage, options.namespaces);
  const registry = new Registry(storage, kinds, { ...options, secrets });
  // reencrypt-secrets and rollback-secrets rewrite the kinds' secure values.
  secrets.addHolder(registry);
  await registry.init();
  const compactor = new Compactor(storage, kinds, config.registry.history_window_seconds, log, options.versionsToKeep);
  return { registry, compactor, secrets, snapshotSweeper: new SnapshotSweeper(registry, log), ...createApp({ config, storage, registry, log, build, secrets, env }) };
}

/**
 * Prepares TLS (with `server.protocol = https`), opens the database, migrates, registers the kinds and listens:
 * the whole server, as cmd/ and tests start it. TLS comes first so that a bad certificate stops start-up before
 * anything is opened.
 */
export async function startServer(config: Config, log: Logger, opts: { storage?: Storage; env?: Readonly<Record<string, string | undefined>> } = {}): Promise<RunningServer> {
  const tls = config.server.protocol === 'https' ? await prepareTls(config, log) : undefined;
  const storage = opts.storage ?? (await openStorage({ url: config.database.url || undefined, dataDir: config.paths.data, maxConnections: config.database.max_open_conn, preparedStatements: config.database.prepared_statements, migrationTimeoutSeconds: config.database.migration_lock_timeout_seconds }));
  const build = readBuildInfo();
  const { registry, compactor, snapshotSweeper, app, setDraining, watchHub, identityReady, users, provisioning, dataSources, recordingRules, reportScheduler } = await composeServer(config, log, storage, build, opts.env);
  compactor.start(config.registry.compaction_interval_seconds);
  if (config.snapshots.remove_expired) snapshotSweeper.start(config.snapshots.sweep_interval_seconds);
  // Org 1 and the configured admin exist before the first request is served (replicas racing here is fine).
  try {
    await identityReady();
    // Provisioned objects are stored before the first request (a bad file stops the start: ProvisioningError).
    await provisioning.start();
  } catch (err) {
    provisioning.stop();
    compactor.stop();
    snapshotSweeper.stop();
    watchHub.stop();
    if (!opts.storage) await storage.close();
    throw err;
  }
  const server = createHttpServer(app, tls?.options);
  answerClientErrors(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.server.http_port, config.server.http_addr || undefined, () => resolve());
    });
  } catch (err) {
    provisioning.stop();
    compactor.stop();
    snapshotSweeper.stop();
    watchHub.stop();
    if (!opts.storage) await storage.close();
    throw err;
  }
  // Over https SIGHUP reloads the certificate (tls.ts logs it); over http there is nothing to reload, and SIGHUP's
  // default (ending the process) would surprise whoever sent it to reload.
  const onHangup = () => log.info('reload requested (SIGHUP): nothing to reload with server.protocol=http');
  if (!tls) process.on('SIGHUP', onHangup);
  const stopTlsWatch = tls?.watch(server as https.Server);
  recordingRules?.start();
  reportScheduler?.start(REPORT_SCHEDULE_INTERVAL_SECONDS);
  const { port } = server.address() as AddressInfo;
  const addr = config.server.http_addr;
  const host = addr && addr !== '0.0.0.0' && addr !== '::' ? addr : 'localhost';
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info('server started', { url, database: storage.backend, version: build.version, commit: build.commit, edition: config.server.edition, pid: process.pid });
  await warnDefaultAdminPassword(config, users, log).catch((err: unknown) => log.warn('could not check the administrator\'s password', { error: err instanceof Error ? err.message : String(err) }));

  return {
    url,
    storage,
    registry,
    async close() {
      const deadline = Date.now() + config.server.shutdown_timeout_seconds * 1000;
      setDraining();
      provisioning.stop();
      compactor.stop();
      snapshotSweeper.stop();
      await recordingRules?.stop();
      reportScheduler?.stop();
      stopTlsWatch?.();
      process.off('SIGHUP', onHangup);
      // Watches end cleanly first; their keep-alive sockets then turn idle and are closed as they do.
      watchHub.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      const timer = setTimeout(() => server.closeAllConnections(), config.server.shutdown_timeout_seconds * 1000);
      await closed;
      clearInterval(idle);
      clearTimeout(timer);
      // The plugins' pools and clients, then the database's, once no request uses them: a handler still waiting for
      // the database (a lock, a database that hangs) holds its connection, and closing waits for it, but not past the
      // shutdown timeout (at least a second more): the process then exits and PostgreSQL rolls back what did not commit.
      const released = (async () => {
        await dataSources.close();
        await storage.close();
      })();
      if (!(await within(released.then(() => true), Math.max(deadline - Date.now(), 1000), false))) {
        log.warn('stopped with database work still running: it is abandoned', { url });
      }
      log.info('server stopped', { url });
    },
  };
}
