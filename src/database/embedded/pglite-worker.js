'use strict';
// Hosts the embedded PGlite engine on its own thread and serves it to the normal `pg` driver
// over a Unix socket. PGlite runs every query on the thread that owns it; keeping it here means
// a slow query never stalls HTTP handling on the main event loop.
// Plain JavaScript because worker threads load files with Node's own loader (no TS transform).
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');

// PGlite has no background workers, so autovacuum never analyzes tables and the planner would
// plan on default row estimates. These are the planner settings of a stock PostgreSQL server,
// pinned explicitly, and ANALYZE runs here instead of autovacuum.
const SESSION_SETTINGS = [
  'SET seq_page_cost = 1',
  'SET random_page_cost = 4',
  'SET cpu_tuple_cost = 0.01',
  'SET cpu_index_tuple_cost = 0.005',
  'SET cpu_operator_cost = 0.0025',
  "SET effective_cache_size = '4GB'",
  "SET work_mem = '4MB'",
  'SET default_statistics_target = 100',
  'SET enable_seqscan = on',
  'SET enable_indexscan = on',
  'SET enable_bitmapscan = on',
  'SET join_collapse_limit = 8',
  'SET from_collapse_limit = 8',
  // As the server path's connection options (data-source-options.ts): the catalogue's typo match.
  'SET pg_trgm.word_similarity_threshold = 0.5',
];

/**
 * Every table and materialized view outside the system schemas, quoted, with its heap's size and
 * row estimate (for the statistics target its ANALYZE takes); a partition is analyzed through its
 * parent (ANALYZE of a partitioned table recurses into its partitions).
 */
const USER_TABLES = `SELECT format('%I.%I', n.nspname, c.relname), pg_relation_size(c.oid), c.reltuples
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'm') AND NOT c.relispartition
    AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
  ORDER BY 1`;

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I': ReadyForQuery with no transaction block open

/**
 * Reads the engine's replies to one client message, message by message across chunks, and
 * tells whether the last one was ReadyForQuery with status idle. Only then is the client's
 * query cycle over: a simple query, or Parse...Sync of the extended protocol (node-postgres
 * sends every parameterized query that way), or a transaction. The socket server hands the
 * engine one protocol message at a time, so between a Parse and its Sync the engine holds that
 * client's unnamed statement and an implicit transaction.
 */
class ReplyScanner {
  constructor() {
    this.header = [];
    this.payloadLeft = 0;
    this.type = 0;
    this.status = 0;
  }

  push(bytes) {
    let i = 0;
    while (i < bytes.length) {
      if (this.payloadLeft === 0) {
        this.header.push(bytes[i++]);
        if (this.header.length === 5) {
          const [type, a, b, c, d] = this.header;
          this.type = type;
          this.status = 0;
          this.payloadLeft = ((a << 24) | (b << 16) | (c << 8) | d) - 4;
          this.header = [];
        }
        continue;
      }
      if (this.type === READY_FOR_QUERY && this.status === 0) this.status = bytes[i];
      const take = Math.min(this.payloadLeft, bytes.length - i);
      i += take;
      this.payloadLeft -= take;
    }
  }

  get endsIdle() {
    return this.header.length === 0 && this.payloadLeft === 0 && this.type === READY_FOR_QUERY && this.status === IDLE;
  }
}

/** A Simple Query protocol message ('Q', length, SQL, NUL). */
function simpleQuery(sql) {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const message = Buffer.alloc(5 + text.length);
  message.write('Q', 0, 'latin1');
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return new Uint8Array(message);
}

/**
 * What the socket server sees as the engine: PGlite itself, with every client message's
 * replies watched, so the worker knows whether a client's query cycle is open.
 *
 * The socket server serves only the last client while isInTransaction() is true, and otherwise
 * takes messages first come, first served: another connection's Parse between a client's Parse
 * and Bind replaced its unnamed statement, so queries ran each other's SQL. Reporting an open
 * query cycle as a transaction keeps each cycle together, as it keeps a transaction together.
 */
function watchedEngine(db) {
  let cycleOpen = false;
  const engine = {
    get waitReady() {
      return db.waitReady;
    },
    isInTransaction: () => cycleOpen || db.isInTransaction(),
    runExclusive: (fn) => db.runExclusive(fn),
    async exec(sql, options) {
      // The socket server calls this only to roll back for a client that went away while its
      // cycle was open. After an error mid-cycle the engine skips everything up to a Sync, which
      // exec sends after the statement, so the first ROLLBACK can be skipped: run it again.
      try {
        const result = await db.exec(sql, options);
        return db.isInTransaction() ? await db.exec(sql, options) : result;
      } finally {
        cycleOpen = db.isInTransaction();
      }
    },
    async execProtocolRawStream(message, options) {
      const replies = new ReplyScanner();
      try {
        return await db.execProtocolRawStream(message, {
          ...options,
          onRawData: (bytes) => {
            replies.push(bytes);
            options.onRawData(bytes);
          },
        });
      } finally {
        // A startup packet (first byte 0) or Terminate ('X') leaves the cycle as it was.
        if (message[0] !== 0 && message[0] !== 0x58) cycleOpen = !replies.endsIdle;
      }
    },
  };
  return { engine, betweenStatements: () => !cycleOpen && !db.isInTransaction() };
}

/** Creates the cluster in a child process when there is none yet (see pglite-init.js). */
function ensureCluster(pgDataDir, sharedBuffersMb) {
  if (fs.existsSync(path.join(pgDataDir, 'PG_VERSION'))) return Promise.resolve();
  // What an earlier creation left when it was killed midway; this process holds the lock now.
  const parent = path.dirname(pgDataDir);
  const unfinished = `${path.basename(pgDataDir)}.init-`;
  for (const name of fs.readdirSync(parent)) {
    if (name.startsWith(unfinished)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(__dirname, 'pglite-init.js'), pgDataDir, String(sharedBuffersMb)], (error, _stdout, stderr) => {
      if (error) reject(new Error(`creating the database failed: ${String(stderr).trim() || error.message}`));
      else resolve();
    });
  });
}

async function main() {
  const { engineStartParams, applyWasmFlags, analyzeStatement } = require('./engine-settings');
  await ensureCluster(workerData.pgDataDir, workerData.sharedBuffersMb);
  // Before PGlite loads: every file it creates from here on is owner-only (see owner-only-fs.js).
  require('./owner-only-fs').ownerOnly(fs);
  applyWasmFlags();
  const { PGlite } = require('@electric-sql/pglite');
  const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
  // pg_trgm backs the catalogue's typo-tolerant search; a server has it from postgresql-contrib.
  const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create({
    dataDir: workerData.pgDataDir,
    extensions: { pg_trgm },
    startParams: engineStartParams(PGlite.defaultStartParams, workerData.sharedBuffersMb),
  });
  for (const statement of SESSION_SETTINGS) await db.exec(statement);

  const { engine, betweenStatements } = watchedEngine(db);
  const server = new PGLiteSocketServer({
    db: engine,
    path: workerData.socketPath,
    maxConnections: workerData.maxConnections,
  });
  await server.start();
  // The listening socket takes the process umask; its directory is owner-only already.
  fs.chmodSync(workerData.socketPath, 0o600);

  let analyzing = false;
  /** The current pass's ANALYZE statements still to run (none: the next pass lists the tables anew). */
  let passLeft = [];
  /**
   * Runs `step` holding PGlite's query lock, so no client message runs meanwhile; false, without
   * running it, while a client's query cycle or transaction is open: mid-cycle, a simple query
   * would drop the client's unnamed statement and commit its implicit transaction. The lock is
   * not re-entrant: db.exec or db.query in here would wait for it forever and wedge every later
   * query. execProtocolStream takes no lock (it is what the lock guards).
   */
  const betweenClients = (step) =>
    db.runExclusive(async () => {
      if (!betweenStatements()) return { ran: false };
      return { ran: true, messages: await db.execProtocolStream(simpleQuery(step)) };
    });
  /**
   * One ANALYZE a table, each under the lock on its own, so a client's query waits for one
   * table's statistics at most, never for a whole pass. A database-wide ANALYZE also walks every
   * system catalogue: on a fresh schema it held the engine 70-350 ms (seconds on a loaded
   * machine, where a readiness probe gave up behind it) against 10 ms for all of ours together.
   * True when the pass finished; false when a client's open cycle stopped it (the next run goes
   * on from the same table).
   */
  const analyze = async ({ fresh }) => {
    if (analyzing) return false;
    analyzing = true;
    try {
      if (fresh || passLeft.length === 0) {
        const listed = await betweenClients(USER_TABLES);
        if (!listed.ran) return false;
        passLeft = listed.messages
          .filter((m) => m.name === 'dataRow')
          .map((m) => analyzeStatement(m.fields[0], Number(m.fields[1]), Number(m.fields[2])));
      }
      while (passLeft.length > 0) {
        try {
          if (!(await betweenClients(passLeft[0])).ran) return false;
        } catch {
          // Statistics are an optimisation; a table dropped since the listing is simply skipped.
        }
        passLeft.shift();
      }
      return true;
    } catch {
      passLeft = [];
      return false;
    } finally {
      analyzing = false;
    }
  };
  const analyzeTimer = setInterval(() => analyze({ fresh: false }), workerData.analyzeIntervalMs);
  analyzeTimer.unref();

  parentPort.on('message', async (message) => {
    if (message && message.type === 'analyze') {
      // Asked for after a bulk load: every table from the start, not the rest of a pass begun before it.
      const ran = await analyze({ fresh: true });
      parentPort.postMessage({ type: 'analyzed', ran });
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
