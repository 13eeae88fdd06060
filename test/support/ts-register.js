// Lets a child `node` process run the TypeScript sources directly (node -r ./test/support/ts-register.js x.ts),
// so process-level tests need no build step. Transpile only: `npm run typecheck` checks types.
// Each file's output is kept in node_modules/.cache/svc-ts, named by a digest of its path, its text and the
// compiler's version: a suite that starts a dozen server processes transpiles the project once, not a dozen times
// (several seconds of CPU each, more than a minute at a time under load).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const cacheDir = path.resolve(__dirname, '..', '..', 'node_modules', '.cache', 'svc-ts');
let ts;
const compilerOptions = () => ({ module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, inlineSourceMap: true });
const compilerVersion = require('typescript/package.json').version;

require.extensions['.ts'] = function compile(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const digest = crypto.createHash('sha256').update(compilerVersion).update('\0').update(filename).update('\0').update(source).digest('hex');
  const cached = path.join(cacheDir, `${digest}.js`);
  let output;
  try {
    output = fs.readFileSync(cached, 'utf8');
  } catch {
    ts ??= require('typescript');
    output = ts.transpileModule(source, { compilerOptions: compilerOptions(), fileName: filename }).outputText;
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      // Written aside and renamed: a process reading it meanwhile finds all of it or nothing.
      const partial = `${cached}.${process.pid}`;
      fs.writeFileSync(partial, output);
      fs.renameSync(partial, cached);
    } catch {
      // A cache that cannot be written costs time, not correctness.
    }
  }
  module._compile(output, filename);
};
