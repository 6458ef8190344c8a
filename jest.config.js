// One config, three tiers: unit specs beside the code (src/**/*.spec.ts), integration tests
// against a real database (test/integration), end-to-end tests over HTTP (test/e2e); and the
// documentation's checks (test/docs): links in README.md and docs/*.md, and no reference to a
// document outside the repository in src, test, bench, scripts, docs or the README.
const swc = JSON.parse(require('node:fs').readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swc.$schema;

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.test.ts', '**/*.e2e.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
