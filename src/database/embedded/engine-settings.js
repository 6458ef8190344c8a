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

/**
 * Heap bytes one ANALYZE may copy into the engine's memory as its row sample. ANALYZE samples
 * 300 rows per unit of statistics target (30,000 at the stock 100) and holds them whole at once;
 * WebAssembly memory never shrinks, so that sample stays resident for the process's life. At the
 * stock target, 100,000 releases (~1.6 KB a row) lifted the engine's resident memory by 63 MiB
 * and held the engine 840 ms; at a target of 15, by 9 MiB in 160 ms.
 */
const ANALYZE_SAMPLE_BYTES = 8 * 1024 * 1024;
const ROWS_PER_TARGET = 300;
const STOCK_STATISTICS_TARGET = 100;
/** A table's statistics stay useful down to this (PostgreSQL's own floor is 1). */
const MIN_STATISTICS_TARGET = 10;

/**
 * The statistics target that keeps a table's ANALYZE sample within ANALYZE_SAMPLE_BYTES: the stock
 * one for a table that small whole, otherwise as many rows as fit at the table's mean row width.
 * `rows` is pg_class.reltuples (negative before the table's first ANALYZE: the width is unknown
 * then, so the floor, and the next pass knows it).
 */
function statisticsTarget(heapBytes, rows) {
  if (heapBytes <= ANALYZE_SAMPLE_BYTES) return STOCK_STATISTICS_TARGET;
  if (!(rows > 0)) return MIN_STATISTICS_TARGET;
  const fitting = Math.floor(ANALYZE_SAMPLE_BYTES / (ROWS_PER_TARGET * (heapBytes / rows)));
  return Math.max(MIN_STATISTICS_TARGET, Math.min(STOCK_STATISTICS_TARGET, fitting));
}

/**
 * One table's ANALYZE as one simple query. A lower target is SET LOCAL in the same statement's
 * implicit transaction, so it ends with it, failed or not, and the session keeps the stock target.
 */
function analyzeStatement(table, heapBytes, rows) {
  const target = statisticsTarget(heapBytes, rows);
  return target === STOCK_STATISTICS_TARGET ? `ANALYZE ${table}` : `SET LOCAL default_statistics_target = ${target}; ANALYZE ${table}`;
}

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

module.exports = { engineStartParams, applyWasmFlags, analyzeStatement, statisticsTarget, ANALYZE_SAMPLE_BYTES };
