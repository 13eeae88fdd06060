// The CPU processes use, read from /proc: what a request costs, which drifts much less than a rate on a shared machine.
'use strict';
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');

const CLOCK_TICKS = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  return Number(r.stdout) > 0 ? Number(r.stdout) : 100;
})();

/**
 * CPU time (user + system) a process has used, in µs, from /proc, with `children` that of its children that ended
 * too; 0 where there is none (it ended, or not Linux).
 */
function cpuMicros(pid, children = false) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return (ticks * 1e6) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The local PostgreSQL server's processes (postmaster, backends, helpers), by name; [] without pgrep or PostgreSQL. */
function postgresPids() {
  const r = spawnSync('pgrep', ['-x', 'postgres'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n').map(Number) : [];
}

/**
 * The CPU the local PostgreSQL has used, in µs: its live processes', and (counted by the postmaster, the oldest of
 * them) that of the backends that ended, so connections opened and closed within a phase (pgbench's) count too.
 */
function postgresMicros() {
  const pids = postgresPids();
  if (!pids.length) return 0;
  const oldest = Number(spawnSync('pgrep', ['-o', '-x', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return pids.reduce((sum, pid) => sum + cpuMicros(pid, pid === oldest), 0);
}

/**
 * Counts the CPU that the server and the database use during a phase, so a figure can be read per request: absolute
 * rates drift on a shared machine, the CPU a request costs much less. The database is the local PostgreSQL's
 * processes (every backend, the bench's pgbench clients not included); on the embedded database it runs inside
 * the server process.
 */
function cpuMeter(serverPid, withPostgres) {
  return () => {
    const server0 = cpuMicros(serverPid);
    const db0 = withPostgres ? postgresMicros() : 0;
    return () => ({ server: cpuMicros(serverPid) - server0, db: withPostgres ? postgresMicros() - db0 : undefined });
  };
}

module.exports = { cpuMicros, cpuMeter, postgresMicros };
