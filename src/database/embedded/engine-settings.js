'use strict';
// How the embedded engine is started: its memory settings and the WebAssembly tiering it runs
// under. Shared by the worker that hosts the engine and the child process that creates a cluster.
//
// Measured on a 10,000-plugin store (engine alone, after a catalogue query):
//  - PGlite's own defaults (shared_buffers 128 MB, max_connections 100) reserve shared memory that
//    fills as pages are read: ~320 MiB resident. The engine is one backend serving one machine's
//    registry; 16 MB of buffers keeps the catalogue's hot pages (the OS caches the files too).
//  - V8 optimises hot WebAssembly functions with TurboFan after a small budget of execution, and
//    PGlite's start-up alone spends it: +60-80 MiB of optimised code before the first request.
//    A budget 100 times larger leaves start-up and light traffic on Liftoff (baseline code) and
//    still optimises what stays hot under load: a heavy join ran 402 ms against 354 ms with the
//    default budget and 506 ms with no optimisation at all.

/** V8 flags read when a WebAssembly module is instantiated (V8's flags are the whole process's); set before PGlite loads. */
const WASM_FLAGS = ['--wasm-tiering-budget=180000000'];

/** PGlite's start parameters (which replace its defaults, so they are kept) plus ours. */
function engineStartParams(pgliteDefaults, sharedBuffersMb) {
  const settings = {
    shared_buffers: `${sharedBuffersMb}MB`,
    // Index builds (migrations, bulk loads) take what they need up to this, then spill to disk.
    maintenance_work_mem: '16MB',
    // One backend; each allowed connection reserves lock and process slots in shared memory.
    max_connections: '10',
  };
  return [...pgliteDefaults, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

function applyWasmFlags() {
  const v8 = require('node:v8');
  for (const flag of WASM_FLAGS) v8.setFlagsFromString(flag);
}

module.exports = { engineStartParams, applyWasmFlags };
