'use strict';
// Where the catalogue benchmark's data lives and how the compiled server is started on it:
// PostgreSQL (databases on the server at DATABASE_URL) or the embedded default (PGlite under a
// DATA_DIR, reached through the owner's socket as the server and the operator CLI do).
const { spawn } = require('node:child_process');
const { createHash, randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { freePort } = require('../support/free-port');

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');

/** The server's own pool sizes, so the ceilings hold as many connections as it does. */
function serverPoolSize(kind) {
  const { dataSourceOptions } = require(path.join(DIST, 'database', 'data-source-options.js'));
  const target =
    kind === 'postgres'
      ? { url: 'postgres://bench@127.0.0.1/bench' }
      : { embedded: { host: '/tmp', port: 5432, user: 'postgres', database: 'postgres' } };
  return dataSourceOptions(target).poolSize ?? (kind === 'postgres' ? 10 : 1);
}

/** The database `name` on the server at `serverUrl`, made if missing (`fresh`: dropped first). */
async function postgresDatabase(serverUrl, name, { fresh = false } = {}) {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
    if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPostgresDatabase(serverUrl, name) {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => admin.end());
}

/** A DATA_DIR kept between runs (seeding is the slow part), one per checkout and catalogue size. */
function embeddedDataDir(plugins) {
  const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 10);
  return path.join(os.tmpdir(), `registry-bench-catalogue-${checkout}`, `embedded-${plugins}`);
}

/** Hosts the embedded engine of `dataDir` in this process, as the server would; pg reaches it on `connection`. */
async function openEmbedded(dataDir) {
  const { openEmbeddedDatabase } = require(path.join(DIST, 'database', 'embedded', 'embedded-postgres.js'));
  const engine = await openEmbeddedDatabase({ dataDir, mode: 'own' });
  return { connection: { ...engine.target }, stop: () => engine.stop() };
}

function runSeed(env, plugins, releases) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'scripts', 'seed-catalogue.js'), '--plugins', String(plugins), '--releases', String(releases), '--fresh'],
      {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seeding failed (exit ${code})`))));
  });
}

/**
 * Seeds the catalogue unless it already holds exactly `plugins` plugins and `releases` each,
 * lifts the per-IP read limit out of autocannon's way (one client address; the counting stays in
 * the measured path), and returns every slug. `seedEnv`: the seed script's environment.
 */
async function prepareCatalogue({ connection, seedEnv, plugins, releases }) {
  const lines = [];
  const count = async (client) => {
    const n = async (table) =>
      (await client.query(`SELECT count(*)::int AS n FROM ${table}`).catch(() => ({ rows: [{ n: -1 }] }))).rows[0].n;
    return { plugins: await n('plugin'), releases: await n('release'), events: await n('catalogue_event') };
  };
  let client = new Client(connection);
  await client.connect();
  try {
    const before = await count(client);
    // The changes feed's log too: a seed from before it wrote one release.published a release.
    if (before.plugins !== plugins || before.releases !== plugins * releases || before.events !== plugins * releases) {
      await client.end();
      client = null;
      const started = Date.now();
      await runSeed(seedEnv, plugins, releases);
      lines.push(`seeded ${plugins} plugins, ${plugins * releases} releases in ${Math.round((Date.now() - started) / 1000)} s`);
      client = new Client(connection);
      await client.connect();
    }
    await client.query(
      `INSERT INTO app_setting (key, value) VALUES ('ratelimit.public_read_per_min', '1000000') ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    // The seed's extension fields declared as enums (facets count them); a seed from before it wrote them gets them here.
    const { DECLARE_FIELDS_SQL, EXTENSION_FIELDS } = require('../../scripts/seed-catalogue');
    await client.query(DECLARE_FIELDS_SQL, [JSON.stringify(EXTENSION_FIELDS)]);
    // A seed from before the seed wrote it: the server would spend the run re-rendering every README.
    const { README_RENDER_VERSION } = require(path.join(DIST, 'platform', 'markdown', 'render-readme.js'));
    await client.query('UPDATE release_readme SET render_version = $1 WHERE render_version < $1', [README_RENDER_VERSION]);
    // Every table the catalogue reads, read once whole: the runs (the ceiling's first one too)
    // then meet a warm database, as a registry that has been serving does, not a cold disk cache.
    const warming = Date.now();
    for (const table of ['plugin', 'release', 'release_readme', 'plugin_owner'])
      await client.query(`SELECT sum(length(t::text)) FROM ${table} t`);
    lines.push(`database read once whole before the runs (warm caches): ${Math.round((Date.now() - warming) / 1000)} s`);
    // In slug order, so the seeded shuffles ask the same slugs on every run.
    const slugs = (await client.query('SELECT slug FROM plugin ORDER BY slug COLLATE "C"')).rows.map((r) => r.slug);
    const events = Number((await client.query('SELECT coalesce(max(seq), 0)::text AS n FROM catalogue_event')).rows[0].n);
    return { slugs, events, lines };
  } finally {
    await client?.end();
  }
}

async function waitReady(url, child, deadline, everyMs = 200) {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`server did not become ready: ${url}`);
}

/**
 * Starts the compiled server in production mode on `store` (`{ DATABASE_URL }` or `{ DATA_DIR }`)
 * and waits until it is ready. `metricsToken` lets the benchmark read GET /metrics; `restart()`
 * kills it with SIGKILL and starts it again as it was (same port, secrets and data), the way a
 * crashed instance comes back (group `restart`).
 */
async function startServer(store) {
  const port = await freePort();
  const probePort = await freePort();
  const metricsToken = randomBytes(24).toString('hex');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-server-'));
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_READ_URLS', 'DATA_DIR', 'REDIS_URL']) delete env[name];
  if (store.DATABASE_URL && process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  Object.assign(env, {
    DATA_DIR: scratch,
    ...store,
    NODE_ENV: 'production',
    PORT: String(port),
    BASE_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    // The same for every start on this store, so the signing key an earlier start made still opens:
    // with a random one, every `latest` answer read the key again, failed to open it and went unsigned.
    KEY_ENCRYPTION_KEY: createHash('sha256')
      .update(`registry-bench:${store.DATABASE_URL ?? store.DATA_DIR}`)
      .digest('hex'),
    METRICS_TOKEN: metricsToken,
    LOG_LEVEL: 'warn',
    // GC pauses, event-loop delay and heap from perf_hooks, on a port of their own (probe.js).
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'probe.js')}`.trim(),
    BENCH_PROBE_PORT: String(probePort),
  });
  const base = `http://127.0.0.1:${port}`;
  let child;
  let exited;
  const spawnOne = () => {
    // BENCH_SERVER_NODE_ARGS: flags for the server's node that NODE_OPTIONS refuses (--cpu-prof, say).
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    child = spawn(process.execPath, [...nodeArgs, path.join(DIST, 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    exited = new Promise((resolve) => child.once('exit', resolve));
  };
  const server = {
    base,
    metricsToken,
    probe: `http://127.0.0.1:${probePort}`,
    get pid() {
      return child.pid;
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
      fs.rmSync(scratch, { recursive: true, force: true });
    },
    /** kill -9, then the same server again; when each happened (ms, performance.now()) and when it answered ready. */
    async restart({ readyEveryMs = 25 } = {}) {
      child.kill('SIGKILL');
      await exited;
      const killedAt = performance.now();
      spawnOne();
      await waitReady(`${base}/health/ready`, child, Date.now() + 180_000, readyEveryMs);
      return { killedAt, readyAt: performance.now() };
    },
  };
  spawnOne();
  try {
    await waitReady(`${base}/health/ready`, child, Date.now() + 180_000);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** Environment for the seed script: the store's variables and nothing of another store's. */
function seedEnvironment(store) {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATABASE_READ_URLS', 'DATA_DIR', 'REDIS_URL']) delete env[name];
  return { ...env, ...store };
}

module.exports = {
  freePort,
  serverPoolSize,
  postgresDatabase,
  dropPostgresDatabase,
  embeddedDataDir,
  openEmbedded,
  prepareCatalogue,
  startServer,
  seedEnvironment,
};
