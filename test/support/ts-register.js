// Lets a child `node` process run the TypeScript sources directly (node -r ./test/support/ts-register.js x.ts),
// so process-level tests need no build step. Transpile only: `npm run typecheck` checks types.
const fs = require('node:fs');
const ts = require('typescript');

const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, inlineSourceMap: true };

require.extensions['.ts'] = function compile(module, filename) {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
