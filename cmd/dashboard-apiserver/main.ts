import { generateServiceAccountToken } from '../../pkg/auth/identity/tokens';
import { ConfigError, loadConfig, usage } from '../../pkg/config';
import { batchedStderr, createLogger } from '../../pkg/log';
import { limitHeapGrowth } from '../../pkg/server/heap-growth';

/**
 * The process: configuration (defaults <- file <- SVC_* environment <- flags), database, server; SIGTERM and
 * SIGINT drain in-flight requests and close the database before exiting.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage()}\n`);
    return;
  }
  // A key for auth.initial_service_account_token: the format (and checksum) the server accepts.
  if (argv.includes('--new-service-account-token')) {
    process.stdout.write(`${generateServiceAccountToken().key}\n`);
    return;
  }
  let config;
  try {
    config = loadConfig({ argv, env: process.env, cwd: process.cwd() });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`dashboard-apiserver: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.log.level, batchedStderr());
  limitHeapGrowth(config.server.heap_growth_percent);
  let server;
  try {
    // Loaded here, not at the top: `--help` and the token need none of the server's modules and answer at once.
    const { startServer } = await import('../../pkg/server/server');
    server = await startServer(config, log, { env: process.env });
  } catch (err) {
    // A provisioning file that cannot be applied is the operator's to fix, as a bad setting is: exit code 2.
    if (err instanceof Error && err.name === 'ProvisioningError') {
      process.stderr.write(`dashboard-apiserver: provisioning: ${err.message}\n`);
      process.exit(2);
    }
    log.error('cannot start', { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('shutdown failed', { error: String(err) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
