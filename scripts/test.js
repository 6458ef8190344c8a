'use strict';
// `npm test`: builds dist/ when stale (the CLI tests run the built `registry` binary), then runs
// every Jest tier. Extra arguments go to Jest. The database is the embedded PGlite unless
// DATABASE_URL is set; REDIS_URL moves caches to Redis.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

require('./build-if-stale');
const jest = require.resolve('jest/bin/jest');
const result = spawnSync(process.execPath, [jest, ...process.argv.slice(2)], {
  cwd: path.join(__dirname, '..'),
  stdio: 'inherit',
});
process.exitCode = result.status ?? 1;
