/**
 * The README's shell examples run as written, top to bottom, against a freshly started server: every ```sh block,
 * with `localhost:3000` pointed at the test's server and every curl failing on an HTTP error. Blocks that start
 * another server (npm start, another edition, https) or stream forever (a watch) are left out, each for its
 * reason; the rest run in one shell, in order, so what one block makes the next one may use.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase, testBackend } from '../support/backend';
import { localPostgresAnswers } from '../support/postgres-upstream';
import { runMain, type ServerProcess, startedUrl, stopMain } from '../support/server-process';

const ROOT = path.resolve(__dirname, '..', '..');

/** Why a block cannot run against the one server the test started, or undefined when it can. */
function leftOut(block: string): string | undefined {
  if (/\bnpm (ci|start|test)\b/.test(block)) return 'starts or builds a server of its own';
  if (block.includes('https://') || block.includes('--cacert')) return 'needs the server on https';
  if (block.includes('watch=true')) return 'a watch streams until interrupted';
  if (block.includes('"url":"127.0.0.1:5432"') && !localPostgresAnswers('127.0.0.1', 5432)) return 'queries PostgreSQL on 127.0.0.1:5432, which does not answer here';
  return undefined;
}

function readmeBlocks(readme: string): { line: number; text: string; skip?: string }[] {
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => ({
    line: readme.slice(0, m.index).split('\n').length,
    text: m[1],
    skip: leftOut(m[1]),
  }));
}

let db: TestDatabase;
let server: ServerProcess;
let url: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-readme-'));

beforeAll(async () => {
  db = await createTestDatabase(testBackend());
  const env: Record<string, string> = db.url ? { SVC_DATABASE_URL: db.url } : { SVC_PATHS_DATA: dir };
  server = runMain(['--server.http_port=0', '--server.http_addr=127.0.0.1'], env);
  url = await startedUrl(server, 240_000);
}, 300_000);

afterAll(async () => {
  await stopMain(server);
  await db.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the README\'s curl examples run top to bottom on a fresh server, and /metrics then shows their requests by route', () => {
  const blocks = readmeBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  const run = blocks.filter((b) => !b.skip);
  expect(run.length).toBeGreaterThan(8);
  const host = new URL(url).host;
  const script = [
    'set -euo pipefail',
    // Every curl of the examples fails the run on an HTTP error, showing the answer.
    'curl() { command curl --fail-with-body "$@"; }',
    ...run.map((b) => `echo "== README.md:${b.line}" >&2\n${b.text.replaceAll('localhost:3000', host)}`),
  ].join('\n');
  const res = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  const where = res.stderr.split('\n').filter((l) => l.startsWith('== README.md:')).pop();
  expect({ status: res.status, where, stderr: res.status === 0 ? '' : res.stderr.slice(-2000), stdout: res.status === 0 ? '' : res.stdout.slice(-2000) }).toEqual({ status: 0, where, stderr: '', stdout: '' });
  // The metrics block is the last that ran: the creates above, counted by route.
  expect(res.stdout).toContain('dashboard_apiserver_http_requests_total{method="POST",route="/apis/:group/:version/namespaces/:namespace/:resource",status="201"}');
  expect(res.stdout).toContain('route="/api/folders/:uid/permissions"');
}, 180_000);

test('the blocks left out are left out for a reason the test names', () => {
  const skipped = readmeBlocks(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).filter((b) => b.skip);
  for (const b of skipped) expect(['starts or builds a server of its own', 'needs the server on https', 'a watch streams until interrupted', 'queries PostgreSQL on 127.0.0.1:5432, which does not answer here']).toContain(b.skip);
});
