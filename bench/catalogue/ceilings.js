'use strict';
// The catalogue benchmark's bare servers: node:http and the `pg` driver, nothing else.
//  - The one-row ceiling: one plugin row by its unique slug (`SELECT * FROM plugin WHERE slug =
//    $1`), JSON.stringify, 200. The cheapest useful request; every distinct scenario is compared
//    with it.
//  - The same-SQL servers of the cache-hit scenarios (a-e): each answer from the SQL the server
//    ran when those scenarios were written.
const http = require('node:http');
const { Pool } = require('pg');

function listen(handler, pool, port) {
  const server = http.createServer((req, res) => {
    handler(req.url).then(
      (body) => {
        if (body === null) {
          res.writeHead(404);
          return res.end();
        }
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
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        /** No query running or waiting: what autocannon abandoned at the end of a run has finished. */
        idle: () => pool.waitingCount === 0 && pool.idleCount === pool.totalCount,
        close: () => new Promise((done) => server.close(() => pool.end().then(done, done))),
      }),
    ),
  );
}

/** `GET /<slug>`: the plugin row with that slug. `connection`: pg's client config (a URL or the embedded socket). */
function startOneRowCeiling(connection, poolSize, port) {
  const pool = new Pool({ ...connection, max: poolSize });
  const handler = async (url) => {
    const { rows } = await pool.query('SELECT * FROM plugin WHERE slug = $1', [decodeURIComponent(url.slice(1))]);
    return rows[0] ?? null;
  };
  return listen(handler, pool, port);
}

/**
 * `GET /<index>`: the transparency-log leaf with that index. The one-row ceiling on the log's own
 * table (a store that holds only the log has no plugin rows): the same shape of request.
 */
function startOneLeafCeiling(connection, poolSize, port) {
  const pool = new Pool({ ...connection, max: poolSize });
  const handler = async (url) => {
    const { rows } = await pool.query(
      'SELECT "index"::text AS "index", encode("entry", \'base64\') AS "entry", encode("leaf_hash", \'base64\') AS "leaf_hash", "release_id", "created_at" FROM transparency_leaf WHERE "index" = $1',
      [url.slice(1)],
    );
    return rows[0] ?? null;
  };
  return listen(handler, pool, port);
}

/** `GET /<scenario>/<slug>` for the cache-hit scenarios a-e. */
function startSameSqlCeiling(connection, poolSize, port) {
  const pool = new Pool({ ...connection, max: poolSize });
  const LIST_COLUMNS = `id, slug, name, description, category, kind, tags, license, icon, latest_version AS "latestVersion", created_at AS "createdAt",
    updated_at AS "updatedAt", downloads, featured, verified_at AS "verifiedAt", extensions, repo_url AS "repoUrl"`;
  const ORDER = 'ORDER BY verified_at IS NULL, latest_release_at DESC NULLS LAST, slug LIMIT 20';
  const page = async (where, params, order = ORDER) => {
    const [rows, total] = await Promise.all([
      pool.query(`SELECT ${LIST_COLUMNS} FROM plugin p ${where} ${order}`, params),
      // As the server does: the whole catalogue's size from the trigger-kept counter, a filtered one counted.
      where
        ? pool.query(`SELECT count(*)::int AS n FROM plugin p ${where}`, params)
        : pool.query('SELECT plugins::int AS n FROM plugin_count WHERE id = 1'),
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
      const { rows } = await pool.query(
        `SELECT *, (SELECT html FROM release_readme rr JOIN release r ON r.id = rr.release_id WHERE r.plugin_id = p.id AND r.version = p.latest_version LIMIT 1) AS readme FROM plugin p WHERE slug = $1`,
        [slug],
      );
      const releases = await pool.query(
        `SELECT version, prerelease, yanked_at, assets, created_at, downloads FROM release WHERE plugin_id = $1 ORDER BY version_sort DESC`,
        [rows[0].id],
      );
      return { ...rows[0], releases: releases.rows };
    },
    async e(slug) {
      const { rows } = await pool.query(
        `SELECT r.version, r.assets FROM release r JOIN plugin p ON p.id = r.plugin_id WHERE p.slug = $1 AND r.yanked_at IS NULL AND NOT r.prerelease ORDER BY r.version_sort DESC LIMIT 1`,
        [slug],
      );
      const asset = rows[0].assets.find((a) => a.os === 'linux' && a.arch === 'x64');
      return {
        slug,
        version: rows[0].version,
        download_url: asset.url,
        platform: 'linux-x64',
        platforms: Object.fromEntries(rows[0].assets.map((a) => [`${a.os}-${a.arch}`, a])),
      };
    },
  };
  const handler = (url) => {
    const [, id, slug] = url.split('/');
    return routes[id](slug);
  };
  return listen(handler, pool, port);
}

module.exports = { startOneRowCeiling, startOneLeafCeiling, startSameSqlCeiling };
