'use strict';
// Catalogue benchmark (issue "Catalogue"): 100,000 plugins with 1,000,000 releases on real
// PostgreSQL, the compiled server in production mode, autocannon on loopback at 32 connections
// for 10 s after a warm-up, for (a) the default list, (b) a search with a typo, (c) a kind and
// two ext.* filters, (d) a plugin's detail and (e) its per-platform latest. In the same run the
// ceiling: a bare node:http server answering each with raw `pg` queries and JSON.stringify.
// Needs DATABASE_URL (the server it seeds a `registry_bench_catalogue` database on); REDIS_URL
// puts the response cache in Redis. BENCH_CATALOGUE_PLUGINS scales the seed down for a quick try.
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const autocannon = require('autocannon');
const { Client, Pool } = require('pg');

const ROOT = path.join(__dirname, '..');
const PLUGINS = Number(process.env.BENCH_CATALOGUE_PLUGINS ?? 100_000);
const RELEASES = 10;
const CONNECTIONS = 32;
const DURATION_S = 10;
const WARMUP_S = 3;

const SCENARIOS = [
  { id: 'a', what: 'list, default sort', path: () => '/api/plugins', target: 1.0, p99: 50 },
  { id: 'b', what: 'search with a typo', path: () => '/api/plugins?search=mardown', target: 0.6, p99: 100 },
  { id: 'c', what: 'kind + two ext.* filters', path: () => '/api/plugins?kind=theme&ext.stars=3&ext.platforms=mac', target: 0.6, p99: 100 },
  { id: 'd', what: 'detail', path: (slug) => `/api/plugins/${slug}`, target: 1.0, p99: 50 },
  { id: 'e', what: 'latest for linux-x64', path: (slug) => `/api/plugins/${slug}/latest?os=linux&arch=x64`, target: 1.0, p99: 50 },
];

async function benchDatabase(serverUrl) {
  const url = new URL(serverUrl);
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  const exists = (await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'registry_bench_catalogue'`)).rowCount > 0;
  if (!exists) await admin.query('CREATE DATABASE registry_bench_catalogue');
  await admin.end();
  url.pathname = '/registry_bench_catalogue';
  return url.toString();
}

async function seeded(databaseUrl) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const plugins = await client.query(`SELECT count(*)::int AS n FROM plugin`).catch(() => ({ rows: [{ n: 0 }] }));
    const releases = await client.query(`SELECT count(*)::int AS n FROM release`).catch(() => ({ rows: [{ n: 0 }] }));
    return plugins.rows[0].n === PLUGINS && releases.rows[0].n === PLUGINS * RELEASES;
  } finally {
    await client.end();
  }
}

async function waitReady(url, deadline) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become ready: ${url}`);
}

/** The ceiling: the same answers from raw pg and JSON.stringify on node:http, nothing else. */
function startCeiling(databaseUrl, port) {
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  const LIST_COLUMNS = `id, slug, name, description, category, kind, tags, license, icon, latest_version AS "latestVersion", created_at AS "createdAt",
    updated_at AS "updatedAt", downloads, featured, verified_at AS "verifiedAt", extensions, repo_url AS "repoUrl"`;
  const ORDER = 'ORDER BY verified_at IS NULL, latest_release_at DESC NULLS LAST, slug LIMIT 20';
  const page = async (where, params, order = ORDER) => {
    const [rows, total] = await Promise.all([
      pool.query(`SELECT ${LIST_COLUMNS} FROM plugin p ${where} ${order}`, params),
      // As the server does: the whole catalogue's size from the trigger-kept counter, a filtered one counted.
      where ? pool.query(`SELECT count(*)::int AS n FROM plugin p ${where}`, params) : pool.query('SELECT plugins::int AS n FROM plugin_count WHERE id = 1'),
    ]);
    return { plugins: rows.rows, page: 1, limit: 20, total: total.rows[0].n, totalPages: Math.ceil(total.rows[0].n / 20) };
  };
  const routes = {
    async a() {
      return page('', []);
    },
    async b() {
      return page(
        `WHERE (search_vector @@ to_tsquery('simple', 'mardown:*') OR lower(name) LIKE 'mardown%' OR 'mardown' <% lower(name))`,
        [],
        `ORDER BY verified_at IS NULL, lower(name) = 'mardown' DESC, ts_rank(search_vector, to_tsquery('simple', 'mardown:*')) + word_similarity('mardown', lower(name)) DESC, slug LIMIT 20`,
      );
    },
    async c() {
      return page(
        `WHERE kind = 'theme' AND (extensions @> '{"stars":"3"}' OR extensions @> '{"stars":["3"]}' OR extensions @> '{"stars":3}' OR extensions @> '{"stars":[3]}')
           AND (extensions @> '{"platforms":"mac"}' OR extensions @> '{"platforms":["mac"]}')`,
        [],
      );
    },
    async d(slug) {
      const { rows } = await pool.query(`SELECT *, (SELECT html FROM release_readme rr JOIN release r ON r.id = rr.release_id WHERE r.plugin_id = p.id AND r.version = p.latest_version LIMIT 1) AS readme FROM plugin p WHERE slug = $1`, [slug]);
      const releases = await pool.query(`SELECT version, prerelease, yanked_at, assets, created_at, downloads FROM release WHERE plugin_id = $1 ORDER BY version_sort DESC`, [rows[0].id]);
      return { ...rows[0], releases: releases.rows };
    },
    async e(slug) {
      const { rows } = await pool.query(
        `SELECT r.version, r.assets FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 AND r.yanked_at IS NULL AND NOT r.prerelease ORDER BY r.version_sort DESC LIMIT 1`,
        [slug],
      );
      const asset = rows[0].assets.find((a) => a.os === 'linux' && a.arch === 'x64');
      return { slug, version: rows[0].version, download_url: asset.url, platform: 'linux-x64', platforms: Object.fromEntries(rows[0].assets.map((a) => [`${a.os}-${a.arch}`, a])) };
    },
  };
  const server = http.createServer((req, res) => {
    const [, id, slug] = req.url.split('/');
    routes[id](slug).then(
      (body) => {
        const text = JSON.stringify(body);
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
      (error) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ close: () => new Promise((done) => server.close(() => pool.end().then(done))) })));
}

function load(url) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION_S }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function measure(url) {
  // Let the previous run's queued queries drain: each run gets the machine to itself.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await new Promise((resolve, reject) => autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S }, (e) => (e ? reject(e) : resolve())));
  const result = await load(url);
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
}

module.exports = async function run() {
  if (!process.env.DATABASE_URL) return ['skipped: set DATABASE_URL to a PostgreSQL server (the catalogue benchmark seeds 100k plugins there)'];
  const databaseUrl = await benchDatabase(process.env.DATABASE_URL);
  const lines = [];
  if (!(await seeded(databaseUrl))) {
    const started = Date.now();
    const seed = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'seed-catalogue.js'), '--plugins', String(PLUGINS), '--releases', String(RELEASES), '--fresh'], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (seed.status !== 0) throw new Error('seeding failed');
    lines.push(`seeded ${PLUGINS} plugins, ${PLUGINS * RELEASES} releases in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const slug = (await client.query(`SELECT slug FROM plugin ORDER BY slug LIMIT 1 OFFSET 4321`)).rows[0].slug;
  // autocannon is one client address: the per-IP read limit is raised out of its way (the
  // counting itself stays in the measured path).
  await client.query(
    `INSERT INTO app_setting (key, value) VALUES ('ratelimit.public_read_per_min', '1000000') ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  await client.end();

  const port = 3700 + Math.floor(Math.random() * 90);
  const ceilingPort = port + 100;
  const server = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const ceiling = await startCeiling(databaseUrl, ceilingPort);
  try {
    await waitReady(`http://127.0.0.1:${port}/health/ready`, Date.now() + 120_000);
    lines.push(`server: production build, response cache in ${process.env.REDIS_URL ? 'Redis' : 'memory'}; ${CONNECTIONS} connections, ${DURATION_S} s after ${WARMUP_S} s warm-up`);
    for (const s of SCENARIOS) {
      const ours = await measure(`http://127.0.0.1:${port}${s.path(slug)}`);
      const bare = await measure(`http://127.0.0.1:${ceilingPort}/${s.id}/${slug}`);
      const ratio = ours.rps / bare.rps;
      lines.push(
        `(${s.id}) ${s.what} ... ${Math.round(ours.rps)} req/s, p50 ${ours.p50} ms, p99 ${ours.p99} ms (target p99 < ${s.p99} ms); ceiling ${Math.round(bare.rps)} req/s, p99 ${bare.p99} ms ... ratio ${ratio.toFixed(2)} (target >= ${s.target})`,
      );
    }
    lines.push(`server RSS after the run: ${rssMiB(server.pid)} MiB`);
    return lines;
  } finally {
    await ceiling.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
};
