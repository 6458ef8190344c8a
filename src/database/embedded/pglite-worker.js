'use strict';
// Hosts the embedded PGlite engine on its own thread and serves it to the normal `pg` driver
// over a Unix socket. PGlite runs every query on the thread that owns it; keeping it here means
// a slow query never stalls HTTP handling on the main event loop.
// Plain JavaScript because worker threads load files with Node's own loader (no TS transform).
const { parentPort, workerData } = require('node:worker_threads');

// PGlite has no background workers, so autovacuum never analyzes tables and the planner would
// plan on default row estimates. These are the planner settings of a stock PostgreSQL server,
// pinned explicitly, and ANALYZE runs here instead of autovacuum.
const PLANNER_SETTINGS = [
  "SET seq_page_cost = 1",
  "SET random_page_cost = 4",
  "SET cpu_tuple_cost = 0.01",
  "SET cpu_index_tuple_cost = 0.005",
  "SET cpu_operator_cost = 0.0025",
  "SET effective_cache_size = '4GB'",
  "SET work_mem = '4MB'",
  "SET default_statistics_target = 100",
  "SET enable_seqscan = on",
  "SET enable_indexscan = on",
  "SET enable_bitmapscan = on",
  "SET join_collapse_limit = 8",
  "SET from_collapse_limit = 8",
];

async function main() {
  const { PGlite } = require('@electric-sql/pglite');
  const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
  const db = await PGlite.create({ dataDir: workerData.pgDataDir });
  for (const statement of PLANNER_SETTINGS) await db.exec(statement);

  const server = new PGLiteSocketServer({
    db,
    path: workerData.socketPath,
    maxConnections: workerData.maxConnections,
  });
  await server.start();

  let analyzing = false;
  const analyze = async () => {
    if (analyzing) return;
    analyzing = true;
    try {
      // Holding the exclusive lock, no client query runs; outside a client transaction the
      // ANALYZE is a statement of its own, never part of someone else's work.
      await db.runExclusive(async () => {
        if (!db.isInTransaction()) await db.exec('ANALYZE');
      });
    } catch {
      // Statistics are an optimisation; a failed ANALYZE is retried on the next tick.
    } finally {
      analyzing = false;
    }
  };
  const analyzeTimer = setInterval(analyze, workerData.analyzeIntervalMs);
  analyzeTimer.unref();

  parentPort.on('message', async (message) => {
    if (message && message.type === 'analyze') {
      await analyze();
      parentPort.postMessage({ type: 'analyzed' });
    }
    if (message && message.type === 'stop') {
      clearInterval(analyzeTimer);
      try {
        await server.stop();
      } finally {
        await db.close();
        parentPort.postMessage({ type: 'stopped' });
      }
    }
  });
  parentPort.postMessage({ type: 'ready' });
}

main().catch((error) => {
  parentPort.postMessage({ type: 'error', message: error && error.message ? error.message : String(error) });
});
