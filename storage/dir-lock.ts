import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { StorageError } from './types';

/** The file in the data folder that names the process holding it (for the refusal message, and the fallback lock). */
export const LOCK_FILE = 'pglite.lock';

/**
 * Locks a data folder for this process. PGlite takes no lock of its own, and two processes on one folder corrupt
 * it. The lock is one the operating system releases with its holder, so a process killed with -9 never keeps the
 * next one out (a pid file alone would, once the dead process's pid belongs to another live process):
 * - Linux: an abstract unix socket named for the folder's real path (no file to go stale; it covers processes of one
 *   network namespace, i.e. one host or one container);
 * - Windows: a named pipe of that name;
 * - elsewhere: the pid file alone, taken over when the process it names no longer runs.
 * In every case `pglite.lock` holds the owner's pid while it runs.
 *
 * @throws StorageError 'Unavailable' "the data folder ... is in use by process <pid>" when another process holds it.
 * @example
 *   const release = await acquireDirLock('./data');
 *   try { ... } finally { await release(); }
 */
export async function acquireDirLock(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  const name = socketName(dataDir);
  if (name === undefined) return acquirePidFile(file);
  const server = net.createServer((conn) => conn.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(name, () => resolve());
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw inUse(file, ownerOf(file));
    throw new StorageError('Unavailable', undefined, `cannot lock the data folder ${dataDir}: ${(err as Error).message}`);
  }
  // The lock must not keep a process alive that has nothing else to do.
  server.unref();
  fs.writeFileSync(file, String(process.pid));
  return async () => {
    fs.rmSync(file, { force: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/** The socket or pipe that stands for the folder, or undefined where the system has neither kind. */
function socketName(dataDir: string): string | undefined {
  const digest = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex');
  if (process.platform === 'linux') return `\0svc-lock-${digest}`;
  if (process.platform === 'win32') return `\\\\.\\pipe\\svc-lock-${digest}`;
  return undefined;
}

function inUse(file: string, owner: number | undefined): StorageError {
  const who = owner === undefined ? 'another process' : `process ${owner}`;
  return new StorageError('Unavailable', undefined, `the data folder ${path.dirname(file)} is in use by ${who}; stop it or set another paths.data`);
}

function ownerOf(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The fallback: a lock file holding the owner's pid; one left by a process that no longer runs is taken over. */
function acquirePidFile(file: string): () => Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return async () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = ownerOf(file);
      if (owner !== undefined && owner !== process.pid && isRunning(owner)) throw inUse(file, owner);
      fs.rmSync(file, { force: true });
    }
  }
  throw new StorageError('Unavailable', undefined, `cannot lock ${file}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
