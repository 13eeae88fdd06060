/**
 * Jest runs the TypeScript sources through ts-jest in transpile-only mode (`npm run typecheck` type-checks).
 * ts-jest rather than @swc/jest: swc's native binaries are not all on the registry these machines use, so a
 * lockfile that `npm ci` accepts cannot be made with it (see the commit that moved to ts-jest).
 */
const os = require('node:os');

module.exports = {
  // Two workers at least: jest's default (one less than the cores) is one on two cores, which runs the suites one
  // after another while the database, the suites' child processes and jest itself leave a core idle.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  testEnvironment: 'node',
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/', '<rootDir>/charts/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  // Jest's cache would otherwise live in the temporary folder (jest_<uid>), which a test run leaves as it found it.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
  testTimeout: 30000,
  // Each suite leaves ~30 MB behind in the process that ran it (jest loads every module again per file, and the
  // embedded backend's WASM with it). On two cores jest would run the whole suite in one process (in band), whose
  // heap then grows past 3 GB and whose suites slow until hooks time out; a memory limit makes jest run suites in a
  // worker that it replaces once it holds more than this after a file.
  workerIdleMemoryLimit: '600MB',
};
