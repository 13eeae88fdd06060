#!/usr/bin/env node
/**
 * `npm start`: runs the built server (dist/) in this very process, so that the signals npm forwards (SIGTERM,
 * SIGINT) and SIGHUP reach it; the package script `exec`s this file so no shell stands in between either.
 * It builds first only when dist/ is missing or older than a source file (`npm ci` builds through `prepare`),
 * with the build's output on stderr: `TOKEN=$(npm start --silent -- --new-service-account-token)` stays clean.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const main = path.join(root, 'dist', 'cmd', 'dashboard-apiserver', 'main.js');
// Written last by `npm run build` (hack/build-info.js): its time is the build's.
const stamp = path.join(root, 'dist', 'build-info.json');
const SOURCES = ['cmd', 'pkg', 'apis', 'storage', 'legacy-adapters'];
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The newest modification time (ms) of the files the build reads: sources (not tests) and compiler settings. */
function newestSource() {
  let newest = 0;
  const visit = (p) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) visit(path.join(p, name));
    } else if (!p.endsWith('.test.ts')) {
      newest = Math.max(newest, st.mtimeMs);
    }
  };
  for (const dir of SOURCES) visit(path.join(root, dir));
  for (const file of CONFIGS) visit(path.join(root, file));
  return newest;
}

/** True when dist/ holds a build at least as new as every source. */
function isFresh() {
  const built = fs.statSync(stamp, { throwIfNoEntry: false });
  return Boolean(built && fs.existsSync(main) && built.mtimeMs >= newestSource());
}

if (!isFresh()) {
  process.stderr.write('dashboard-apiserver: dist/ is missing or older than the sources: building (npm run build)\n');
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const res = spawnSync(npm[0], [...npm[1], 'run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (res.status !== 0) {
    process.stderr.write('dashboard-apiserver: the build failed\n');
    process.exit(1);
  }
}

require(main);
