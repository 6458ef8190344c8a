#!/usr/bin/env node
'use strict';
// The `registry` program. Runs the compiled CLI; `npm run build` produces dist/.
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('registry: not built yet; run `npm run build` first\n');
  process.exit(2);
}
const { main, processIo } = require(entry);
main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`registry: ${error && error.message ? error.message : error}\n`);
    process.exitCode = 1;
  },
);
