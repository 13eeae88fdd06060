// The benchmark runs the compiled server: `npm run build` first. This resolves a module under dist/ and says so
// when the build is missing, rather than failing with a bare MODULE_NOT_FOUND.
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..', 'dist');

/** require('<repo>/dist/<modulePath>'), e.g. dist('pkg/server/server'). */
function dist(modulePath) {
  const file = path.join(root, modulePath);
  try {
    return require(file);
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).includes(file)) {
      throw new Error(`${file} not found: run \`npm run build\` before \`npm run bench\``);
    }
    throw err;
  }
}

module.exports = dist;
