'use strict';
// Lets repository scripts (migration generation and checks, benchmarks) load TypeScript sources
// directly, with the same swc settings the tests use.
const fs = require('node:fs');
const path = require('node:path');
const { transformSync } = require('@swc/core');
const swcrc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '.swcrc'), 'utf8'));
delete swcrc.$schema;
require.extensions['.ts'] = function compileTs(module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...swcrc, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};
