'use strict';
// Transparency-log benchmark (docs/performance.md#the-transparency-log), PostgreSQL (DATABASE_URL)
// only:
//  - "log append at 1M entries": a `registry_bench_tlog` database seeded once with 1,000,000 leaves
//    and every complete subtree above them (hashes computed here with the compiled library,
//    written with multi-row INSERTs), then TransparencyLog.append() timed inside a transaction,
//    as a publish calls it, N times on top (each committed; the run's own entries are removed
//    before the next run, so every run starts at exactly 1,000,000);
//  - "inclusion proof at 1M entries" and "consistency proof at 1M entries": the compiled server in
//    production mode on that database, autocannon on loopback (32 connections), random distinct
//    indexes (no path asked twice, so the response cache never answers), against the one-row
//    ceiling measured in the same run: a bare node:http + pg server (as many connections as the
//    server's pool) answering one log row by its primary key for random indexes.
// Settings (environment):
//   BENCH_TLOG_ENTRIES      the seeded log's size (1000000); smaller for a quick try
//   BENCH_TLOG_APPENDS      appends timed (1000: a p99 over 300 was the third-slowest, mostly noise)
//   BENCH_TLOG_DURATION_S   seconds each measured run lasts (10)
//   BENCH_TLOG_WARMUP_S     seconds of warm-up before each (3)
const path = require('node:path');
const { Client } = require('pg');
const { run, quiet } = require('./catalogue/load');
const { startOneLeafCeiling } = require('./catalogue/ceilings');
const { prng } = require('./catalogue/requests');
const stores = require('./catalogue/stores');

const DIST = path.join(__dirname, '..', 'dist');
const DATABASE = 'registry_bench_tlog';
const SEED = 27;
const BATCH = 20_000;

const setting = (name, fallback) => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number`);
  return value;
};

const progress = (text) => process.stderr.write(`  transparency-log: ${text}\n`);
const ms = (n) => `${n < 10 ? n.toFixed(2) : Math.round(n)} ms`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The seeded entries: yanks of many releases (their shape and size are a real entry's). */
function seedEntry(lib, index) {
  return lib.encodeLogEntry({
    type: 'yank',
    slug: `plugin-${String(index % 100_000).padStart(6, '0')}`,
    version: `1.${index % 97}.${index % 13}`,
  });
}

/** Removes what earlier runs appended past `size`: leaves, and nodes that reach past it. */
async function truncate(client, size) {
  await client.query('DELETE FROM transparency_leaf WHERE "index" >= $1', [size]);
  await client.query('DELETE FROM transparency_node WHERE ("index" + 1) * (1::bigint << "level") > $1', [size]);
}

/** Seeds `size` leaves and all their complete subtrees unless the log already holds them. */
async function seed(client, lib, size, lines) {
  const have = Number((await client.query('SELECT count(*)::int AS n FROM transparency_leaf WHERE "index" < $1', [size])).rows[0].n);
  if (have === size) {
    await truncate(client, size);
    return;
  }
  const started = Date.now();
  await client.query('TRUNCATE transparency_leaf, transparency_node');
  let level = [];
  for (let from = 0; from < size; from += BATCH) {
    const indexes = [];
    const entries = [];
    const hashes = [];
    for (let index = from; index < Math.min(size, from + BATCH); index++) {
      const entry = seedEntry(lib, index);
      const hash = lib.leafHash(entry);
      indexes.push(String(index));
      entries.push(Buffer.from(entry));
      hashes.push(Buffer.from(hash));
      level.push(hash);
    }
    await client.query(
      'INSERT INTO transparency_leaf ("index", "entry", "leaf_hash") SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::bytea[])',
      [indexes, entries, hashes],
    );
  }
  for (let height = 0; level.length > 0; height++) {
    for (let from = 0; from < level.length; from += BATCH) {
      const slice = level.slice(from, from + BATCH);
      await client.query(
        'INSERT INTO transparency_node ("level", "index", "hash") SELECT $1::smallint, * FROM unnest($2::bigint[], $3::bytea[])',
        [height, slice.map((_, i) => String(from + i)), slice.map((hash) => Buffer.from(hash))],
      );
    }
    const above = [];
    for (let i = 0; i + 1 < level.length; i += 2) above.push(lib.nodeHash(level[i], level[i + 1]));
    level = above;
  }
  await client.query('VACUUM ANALYZE transparency_leaf');
  await client.query('VACUUM ANALYZE transparency_node');
  lines.push(`seeded ${size} leaves and their nodes in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** append() inside a transaction, as the publish calls it; each transaction commits. */
async function timeAppends(url, size, appends, lines) {
  const { loadConfig } = require(path.join(DIST, 'config', 'config.js'));
  const { openDatabase } = require(path.join(DIST, 'database', 'database-handle.js'));
  const { TransparencyLog } = require(path.join(DIST, 'transparency-log', 'transparency-log.js'));
  const { TransparencyRepository } = require(path.join(DIST, 'transparency-log', 'transparency.repository.js'));
  const os = require('node:os');
  const fs = require('node:fs');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-tlog-'));
  const database = await openDatabase(loadConfig({ ...process.env, NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: dataDir }), {
    embeddedMode: 'own',
    migrate: true,
  });
  try {
    const log = new TransparencyLog(new TransparencyRepository(database.dataSource));
    const appendMs = [];
    const transactionMs = [];
    for (let i = 0; i < appends + 20; i++) {
      const entry = { type: 'release', slug: 'bench-plugin', version: `2.0.${i}`, kid: 'bench-kid', jws_sha256: '0'.repeat(64) };
      const t0 = process.hrtime.bigint();
      let t2 = 0n;
      await database.dataSource.transaction(async (manager) => {
        const t1 = process.hrtime.bigint();
        await log.append(entry, manager);
        t2 = process.hrtime.bigint();
        if (i >= 20) appendMs.push(Number(t2 - t1) / 1e6);
      });
      // The first 20 warm the pool and the plans up.
      if (i >= 20) transactionMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    appendMs.sort((a, b) => a - b);
    transactionMs.sort((a, b) => a - b);
    const size1m = size === 1_000_000 ? '1M' : String(size);
    lines.push(
      `log append at ${size1m} entries (${appends} appends, each in its own transaction) ... median ${ms(percentile(appendMs, 50))}, p99 ${ms(percentile(appendMs, 99))} (target <= 5 ms)`,
    );
    lines.push(
      `  whole transaction (BEGIN, append, COMMIT): median ${ms(percentile(transactionMs, 50))}, p99 ${ms(percentile(transactionMs, 99))}`,
    );
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Distinct random integers from [min, max), as many as asked (fewer if the range is smaller). */
function distinct(random, count, min, max) {
  const seen = new Set();
  const limit = Math.min(count, max - min);
  while (seen.size < limit) seen.add(min + random.int(max - min));
  return [...seen];
}

async function requestRates(url, size, s, lines) {
  const client = new Client({ connectionString: url });
  await client.connect();
  // One client address: the per-IP read limit is lifted out of autocannon's way (it is still counted).
  await client.query(
    `INSERT INTO app_setting (key, value) VALUES ('ratelimit.public_read_per_min', '1000000') ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  // Each run's server has a fresh KEY_ENCRYPTION_KEY: an earlier run's key would not open. The
  // server makes a new one at start (which appends a `keys` entry, removed after the run).
  await client.query('DELETE FROM signing_key');
  await client.end();
  const server = await stores.startServer({ DATABASE_URL: url });
  const ceiling = await startOneLeafCeiling({ connectionString: url }, stores.serverPoolSize('postgres'), await stores.freePort());
  try {
    // Enough distinct paths for a run at several times the ceiling's usual rate.
    const perRun = (s.warmupS + s.durationS) * 40_000;
    const random = prng(SEED);
    const measure = async (what, base, paths) => {
      progress(what);
      let at = 0;
      const next = () => paths[at++ % paths.length];
      if (s.warmupS) await run({ url: base, next, durationS: s.warmupS });
      const result = await run({ url: base, next, durationS: s.durationS });
      if (at > paths.length) throw new Error(`benchmark bug: ${what} asked ${at} paths of ${paths.length}`);
      return result;
    };
    const ceilingFirst = await measure(
      'one-row ceiling (first)',
      ceiling.url,
      distinct(random, perRun, 0, size).map((i) => `/${i}`),
    );
    await quiet(ceiling.idle);
    const inclusion = await measure(
      'inclusion proofs',
      server.base,
      distinct(random, perRun, 0, size).map((i) => `/api/log/proof/inclusion?index=${i}&size=${size}`),
    );
    const consistency = await measure(
      'consistency proofs',
      server.base,
      distinct(random, perRun, 1, size).map((i) => `/api/log/proof/consistency?from=${i}&to=${size}`),
    );
    const ceilingLast = await measure(
      'one-row ceiling (last)',
      ceiling.url,
      distinct(random, perRun, 0, size).map((i) => `/${i}`),
    );
    await quiet(ceiling.idle);
    const ceilingRps = (ceilingFirst.rps + ceilingLast.rps) / 2;
    const failed = (r) => `${r.failed} failed (target 0)${r.failures ? ` [${r.failures}]` : ''}`;
    const line = (what, r) =>
      `${what} ... ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${failed(r)} ... ratio ${(r.rps / ceilingRps).toFixed(2)} (target >= 0.6)`;
    lines.push(
      `one-row ceiling (one log row by index, random indexes): ${Math.round(ceilingFirst.rps)} req/s at the start, ${Math.round(ceilingLast.rps)} at the end`,
    );
    const label = size === 1_000_000 ? '1M' : String(size);
    lines.push(line(`inclusion proof at ${label} entries (random indexes)`, inclusion));
    lines.push(line(`consistency proof at ${label} entries (random from, to = head)`, consistency));
    // The signed head, once, as a check that the seeded tree is whole (its root folds from stored nodes).
    const headStatus = (await fetch(`${server.base}/api/log/head`)).status;
    if (headStatus !== 200) lines.push(`GET /api/log/head answered ${headStatus} (expected 200)`);
  } finally {
    await ceiling.close();
    await server.stop();
  }
}

module.exports = async function transparencyLog() {
  const lines = [];
  if (!process.env.DATABASE_URL) return ['skipped: set DATABASE_URL (the log benchmark seeds a PostgreSQL database)'];
  const size = setting('BENCH_TLOG_ENTRIES', 1_000_000);
  const s = {
    appends: setting('BENCH_TLOG_APPENDS', 1000),
    durationS: setting('BENCH_TLOG_DURATION_S', 10),
    warmupS: setting('BENCH_TLOG_WARMUP_S', 3),
  };
  const lib = require(path.join(DIST, 'lib', 'transparency', 'index.js'));
  const url = await stores.postgresDatabase(process.env.DATABASE_URL, DATABASE);
  // The schema first (the server's own migrations), then the seed.
  const { loadConfig } = require(path.join(DIST, 'config', 'config.js'));
  const { openDatabase } = require(path.join(DIST, 'database', 'database-handle.js'));
  const os = require('node:os');
  const fs = require('node:fs');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-tlog-'));
  await (
    await openDatabase(loadConfig({ ...process.env, NODE_ENV: 'test', DATABASE_URL: url, DATA_DIR: dataDir }), {
      embeddedMode: 'own',
      migrate: true,
    })
  ).close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    progress(`seeding ${size} leaves (once)`);
    await seed(client, lib, size, lines);
  } finally {
    await client.end();
  }
  progress('timing appends');
  await timeAppends(url, size, s.appends, lines);
  const cleanup = new Client({ connectionString: url });
  await cleanup.connect();
  await truncate(cleanup, size).finally(() => cleanup.end());
  // The server makes its first signing key at start, which appends a `keys` entry: the proofs are
  // asked at `size` all the same (a tree of `size` leaves exists whatever follows it).
  await requestRates(url, size, s, lines);
  const after = new Client({ connectionString: url });
  await after.connect();
  await truncate(after, size).finally(() => after.end());
  lines.push('(the machine is shared: other benchmarks and test suites may run at the same time)');
  return lines;
};
