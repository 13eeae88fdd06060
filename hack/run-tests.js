#!/usr/bin/env node
/**
 * `npm test`: type-check, then jest against real PostgreSQL, then the HTTP suites again on the embedded
 * database (PGlite). Arguments are passed to jest (e.g. `npm test -- test/apis`).
 *
 *   SVC_TEST_DATABASE_URL  server the throw-away test databases are created on
 *                          (default postgres://postgres@127.0.0.1:5432/postgres)
 *   SVC_TEST_BACKEND       postgres | embedded | both (default both)
 *
 * When no PostgreSQL answers and SVC_TEST_BACKEND is not set, only the embedded run happens, with a warning:
 * a newcomer without PostgreSQL can still run the suite.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const root = path.resolve(__dirname, '..');
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const adminUrl = process.env.SVC_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const args = process.argv.slice(2);

async function postgresAnswers() {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function run(cmd, cmdArgs, env) {
  const res = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === null ? 1 : res.status;
}

(async () => {
  let backends = (process.env.SVC_TEST_BACKEND || 'both') === 'both' ? ['postgres', 'embedded'] : [process.env.SVC_TEST_BACKEND];
  if (backends.includes('postgres') && !(await postgresAnswers())) {
    if (process.env.SVC_TEST_BACKEND) {
      console.error(`No PostgreSQL answers at ${adminUrl}: start it, or set SVC_TEST_DATABASE_URL.`);
      process.exit(1);
    }
    console.warn(`\nWARNING: no PostgreSQL answers at ${adminUrl}; running on the embedded database only.\n`);
    backends = ['embedded'];
  }
  if (!args.length && run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], {}) !== 0) process.exit(1);
  const jest = require.resolve('jest/bin/jest');
  const nodeOptions = `${process.env.NODE_OPTIONS || ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`.trim();
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const backend of backends) {
    console.log(`\n=== jest on ${backend === 'postgres' ? `PostgreSQL (${adminUrl})` : 'the embedded database (PGlite)'} ===`);
    // The embedded pass reruns what depends on the backend: every suite under test/ (a new folder there is
    // included), but not the unit tests beside the sources (no database) nor test/storage, which runs on both
    // backends in each pass.
    const only = backend === 'embedded' && backends.length > 1 && !args.length ? ['--roots', path.join(root, 'test'), '--testPathIgnorePatterns', `${escapeRegExp(path.join(root, 'test', 'storage'))}/`] : [];
    const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-jest-'));
    const report = path.join(reportDir, 'report.json');
    // --forceExit: on two cores jest runs every suite in its own process (in band), so one handle a suite leaves open
    // (a server's timer) would keep the run from ever ending after it reported; the report is complete by then.
    const status = run(process.execPath, [jest, '--ci', '--forceExit', '--json', `--outputFile=${report}`, ...only, ...args], { SVC_TEST_BACKEND: backend, NODE_OPTIONS: nodeOptions });
    try {
      const r = JSON.parse(fs.readFileSync(report, 'utf8'));
      totals.passed += r.numPassedTests;
      totals.failed += r.numFailedTests;
      totals.skipped += r.numPendingTests + r.numTodoTests;
    } catch {
      totals.failed += 1;
    } finally {
      // A test run leaves nothing behind in the temporary folder.
      fs.rmSync(reportDir, { recursive: true, force: true });
    }
    if (status !== 0) {
      console.log(`\ntests: ${totals.passed} passed, ${Math.max(totals.failed, 1)} failed, ${totals.skipped} skipped`);
      process.exit(status);
    }
  }
  // One closing line for the whole run, over both backends.
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
})();
