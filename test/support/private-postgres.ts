import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

const run = promisify(execFile);

/** Where PostgreSQL's server binaries are found, newest major version first. */
function binDirs(): string[] {
  const versions = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  return ['/usr/local/bin', ...versions.map((v) => `/usr/lib/postgresql/${v}/bin`), ...(process.env.PATH ?? '').split(path.delimiter)];
}

/** The folder holding `initdb` and `pg_ctl`, or undefined when PostgreSQL's server binaries are not installed. */
export function findPostgresBin(): string | undefined {
  return binDirs().find((d) => d && fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'pg_ctl')));
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PrivateCluster {
  port: number;
  /** Connection string of a database of this cluster. */
  url(database: string): string;
  /** Runs SQL on the `postgres` database, on a connection of its own. */
  query(text: string): Promise<Array<Record<string, unknown>>>;
  /** `pg_ctl <action> -m <mode>`, waiting for it to finish. */
  ctl(action: 'start' | 'stop' | 'restart', mode?: 'fast' | 'immediate'): Promise<void>;
  /** Stops the cluster (if it runs) and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary folder, its own port, trust authentication on
 * 127.0.0.1), which a test may stop, restart and kill without touching the shared server. initdb refuses to run as
 * root: as root, the cluster belongs to the `postgres` system user and its commands run as that user.
 *
 * @example
 *   const pg = await startPrivateCluster(findPostgresBin()!);
 *   try { await pg.query('CREATE DATABASE svc'); await pg.ctl('restart', 'fast'); } finally { await pg.destroy(); }
 */
export async function startPrivateCluster(bin: string): Promise<PrivateCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  const as = async (cmd: string, args: string[]) => {
    const file = path.join(bin, cmd);
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args));
  };
  const port = await freePort();
  const cluster: PrivateCluster = {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async query(text) {
      const c = new Client({ connectionString: cluster.url('postgres') });
      c.on('error', () => undefined);
      await c.connect();
      try {
        return (await c.query(text)).rows;
      } finally {
        await c.end();
      }
    },
    async ctl(action, mode = 'fast') {
      // The socket lives in the cluster's folder: /tmp's may belong to the shared server.
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
      await as('pg_ctl', [action, '-D', data, '-w', '-t', '30', '-l', log, ...(action === 'start' ? [] : ['-m', mode]), '-o', options]);
    },
    async destroy() {
      try {
        if (fs.existsSync(path.join(data, 'postmaster.pid'))) await as('pg_ctl', ['stop', '-D', data, '-w', '-m', 'immediate']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  try {
    if (asRoot) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      fs.chownSync(dir, Number(stdout.trim()), -1);
    }
    await as('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
    await cluster.ctl('start');
  } catch (err) {
    await cluster.destroy().catch(() => undefined);
    throw err;
  }
  return cluster;
}
