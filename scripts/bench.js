'use strict';
// `npm run bench [name...]`: builds when stale, runs each benchmark in bench/ (or the named
// ones) against the compiled server and prints its figures. Targets live here, never in tests.
const fs = require('node:fs');
const path = require('node:path');

require('./build-if-stale');

async function main() {
  const dir = path.join(__dirname, '..', 'bench');
  const wanted = process.argv.slice(2);
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3))
    .filter((n) => wanted.length === 0 || wanted.includes(n));
  for (const name of names) {
    console.log(`\n## ${name}`);
    const lines = await require(path.join(dir, `${name}.js`))();
    for (const line of lines) console.log(line);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
