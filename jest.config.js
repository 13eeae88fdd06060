/** Jest runs the TypeScript sources through swc (no type-check: `npm run typecheck` does that). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/pkg', '<rootDir>/apis', '<rootDir>/storage', '<rootDir>/legacy-adapters', '<rootDir>/cmd', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }] },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  testTimeout: 30000,
};
