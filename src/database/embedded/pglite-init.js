'use strict';
// Creates a fresh embedded cluster (initdb) in a child process, then exits. initdb in PGlite runs
// a second WebAssembly module with its own memory: in the server's process it lifted the peak to
// ~830 MiB and left ~465 MiB resident for good, on an empty database. Here that memory goes back
// to the system when the child exits.
//
// Usage: node pglite-init.js <target dir> <shared buffers MB>. The cluster is built in a sibling
// directory and renamed into place, so a child killed midway never leaves a half-made cluster
// where the engine would open it.
const fs = require('node:fs');
const { engineStartParams, applyWasmFlags } = require('./engine-settings');

async function main() {
  const [target, sharedBuffersMb] = process.argv.slice(2);
  require('./owner-only-fs').ownerOnly(fs);
  applyWasmFlags();
  const { PGlite } = require('@electric-sql/pglite');
  const building = `${target}.init-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  const db = await PGlite.create({ dataDir: building, startParams: engineStartParams(PGlite.defaultStartParams, Number(sharedBuffersMb)) });
  await db.close();
  fs.renameSync(building, target);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error && error.message ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
