// Lets a child `node` process run the TypeScript sources directly (node -r ./test/support/swc-register.js x.ts),
// so process-level tests need no build step.
const { transformSync } = require('@swc/core');
const fs = require('node:fs');

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
