// Records the commit the build was made from, for GET /api/health (a deployed image has no .git).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

let commit = process.env.SVC_BUILD_COMMIT || 'unknown';
if (commit === 'unknown') {
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // Not a git checkout: keep "unknown".
  }
}
const out = path.join(__dirname, '..', 'dist', 'build-info.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify({ commit })}\n`);
