'use strict';
// Picture ingest memory (issue: Hardening, round 4, point 3). Against the compiled server on the
// embedded database (or DATABASE_URL), with pictures served by a file server on loopback: 16
// pushes at once, by 16 publishers, each naming an icon and 12 screenshots, every one a valid
// PNG of about 9.5 MB (noise, so it neither compresses nor decodes small). Prints the server's
// peak RSS growth over the load (target <= 150 MiB), how long it took, how many pictures were
// kept or left out with a warning and why (every release must publish), and the allocator
// setting the server ran with (the Docker image's MALLOC_ARENA_MAX unless given).
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { peakGrowth } = require('./support/rss');

const ROOT = path.join(__dirname, '..');
const MiB = 1024 * 1024;
const PUSHES = 16;
const SCREENSHOTS = 12;
/** 1730 × 1730 RGB noise: about 9.5 MB as PNG, under the 10 MiB images.max_bytes default. */
const SIDE = 1730;

/** The picture, made once with sharp and kept in the temp directory for later runs. */
async function noisePng() {
  const file = path.join(os.tmpdir(), `registry-bench-noise-${SIDE}.png`);
  if (!fs.existsSync(file)) {
    const sharp = require('sharp');
    const png = await sharp(randomBytes(SIDE * SIDE * 3), { raw: { width: SIDE, height: SIDE, channels: 3 } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    fs.writeFileSync(`${file}.tmp`, png);
    fs.renameSync(`${file}.tmp`, file);
  }
  return file;
}

/**
 * The server runs with the allocator setting the Docker image sets (its ENV MALLOC_ARENA_MAX), as
 * production runs it, unless MALLOC_ARENA_MAX is given here (empty: glibc's default).
 */
function mallocArenaMax() {
  if (process.env.MALLOC_ARENA_MAX !== undefined) return process.env.MALLOC_ARENA_MAX;
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  return /^ENV .*\bMALLOC_ARENA_MAX=(\d+)/m.exec(dockerfile)?.[1] ?? '';
}

/** Serves the one picture at every path. */
function pictureServer(file) {
  const size = fs.statSync(file).size;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': size });
    fs.createReadStream(file, { highWaterMark: MiB }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function waitReady(url) {
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready');
}

/**
 * POSTs JSON on a fresh connection, without a response deadline: pushes wait for their pictures,
 * which can take minutes here, and a kept-alive connection may be closed by the server meanwhile.
 */
function postJson(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { ...headers, 'Content-Type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function cli(args, env) {
  return execFileSync(process.execPath, [path.join(ROOT, 'bin', 'registry.js'), ...args], { env, encoding: 'utf8' }).trim();
}

module.exports = async function run() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-pictures-'));
  const picture = await noisePng();
  const pictures = await pictureServer(picture);
  const picturesUrl = `http://127.0.0.1:${pictures.address().port}`;
  const assets = await new Promise((resolve) => {
    const server = http.createServer((_req, res) => res.end('asset'));
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
  const assetsUrl = `http://127.0.0.1:${assets.address().port}`;

  const arenas = mallocArenaMax();
  const port = 3900 + Math.floor(Math.random() * 100);
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    SESSION_SECRET: 'b'.repeat(48),
    KEY_ENCRYPTION_KEY: 'c'.repeat(64),
    DATA_DIR: path.join(work, 'data'),
    PORT: String(port),
    LOG_LEVEL: 'error',
    FETCH_ALLOW_HOSTS: `127.0.0.1:${pictures.address().port},127.0.0.1:${assets.address().port}`,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(arenas ? { MALLOC_ARENA_MAX: arenas } : {}),
    ...(process.env.GLIBC_TUNABLES ? { GLIBC_TUNABLES: process.env.GLIBC_TUNABLES } : {}),
    // To measure other bounds than the defaults.
    ...(process.env.PICTURE_MEMORY_BYTES ? { PICTURE_MEMORY_BYTES: process.env.PICTURE_MEMORY_BYTES } : {}),
    ...(process.env.PICTURE_MEMORY_BYTES_PER_USER ? { PICTURE_MEMORY_BYTES_PER_USER: process.env.PICTURE_MEMORY_BYTES_PER_USER } : {}),
    ...(process.env.PICTURE_WAIT_MS ? { PICTURE_WAIT_MS: process.env.PICTURE_WAIT_MS } : {}),
  };
  const server = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const lines = [];
  try {
    await waitReady(url);
    const tokens = [];
    for (let i = 0; i < PUSHES; i++) {
      const login = `bench-pictures-${i}-${Date.now()}`;
      cli(['users', 'create', login], env);
      const jwt = cli(['sessions', 'issue', login], env);
      const res = await postJson(`${url}/api/auth/me/tokens`, { Authorization: `Bearer ${jwt}` }, { name: 'bench', scopes: ['publish:*'] });
      tokens.push(JSON.parse(res.text).token);
    }
    const publish = async (token, slug, withPictures) => {
      const shots = Array.from({ length: SCREENSHOTS }, (_, i) => `  - url: "${picturesUrl}/${slug}/shot-${i}.png"`).join('\n');
      const manifest = `name: ${slug}\nversion: "1.0.0"\nreadme: https://127.0.0.1:1/none.md\n${withPictures ? `icon: "${picturesUrl}/${slug}/icon.png"\nscreenshots:\n${shots}\n` : ''}`;
      const body = {
        manifest,
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: `${slug}.zip`, url: `${assetsUrl}/${slug}.zip` }],
        repoUrl: `https://example.invalid/bench/${slug}`,
      };
      let res = await postJson(`${url}/api/publish/${slug}`, { Authorization: `Bearer ${token}` }, body);
      // On a machine busy with other work the database pool can time out (503 database-unavailable,
      // nothing recorded): the push is sent again, as a CI job would, and counted as one.
      for (let retry = 0; retry < 3 && res.status === 503; retry++) {
        await new Promise((r) => setTimeout(r, 5000));
        res = await postJson(`${url}/api/publish/${slug}`, { Authorization: `Bearer ${token}` }, body);
      }
      if (res.status !== 201) throw new Error(`publish ${slug}: ${res.status} ${res.text}`);
      return JSON.parse(res.text).warnings ?? [];
    };

    // The publish path warm, sharp not yet loaded: the growth below includes loading it.
    // Slugs of this run only: on a DATABASE_URL that an earlier run used, its names are taken.
    const run = Date.now().toString(36);
    await publish(tokens[0], `warmup-${run}`, false);
    const load = await peakGrowth(server.pid, () => Promise.all(tokens.map((token, i) => publish(token, `pictures-${i}-${run}`, true))));
    const total = PUSHES * (SCREENSHOTS + 1);
    const warnings = load.result.flat().filter((w) => / was left out: /.test(w));
    const leftOut = warnings.length;
    const waited = warnings.filter((w) => /may wait/.test(w)).length;
    const overBound = warnings.filter((w) => /holding as many picture bytes/.test(w)).length;
    const size = (fs.statSync(picture).size / 1e6).toFixed(1);
    lines.push(
      `${PUSHES} pushes at once, ${SCREENSHOTS + 1} PNGs of ${size} MB each: all ${PUSHES} published in ${load.seconds.toFixed(1)} s; ${total - leftOut} of ${total} pictures kept, ${leftOut} left out with a warning (${waited} after waiting for their turn, ${overBound} over a bound on bytes held, ${leftOut - waited - overBound} other)`,
    );
    lines.push(
      `allocator: ${arenas ? `MALLOC_ARENA_MAX=${arenas}${process.env.MALLOC_ARENA_MAX === undefined ? ', as the Docker image sets it' : ''}` : "glibc's default arenas (MALLOC_ARENA_MAX unset)"}`,
    );
    const part = (name) => ((load.parts.peak[name] - load.parts.start[name]) / MiB).toFixed(1);
    lines.push(
      `of the growth at the peak: ${part('anon')} MiB anonymous (heaps, buffers), ${part('file')} MiB file-backed (libraries mapped in: sharp's libvips loads here)`,
    );
    lines.push(
      `picture ingest RSS growth           ${(load.growth / MiB).toFixed(1)} MiB (target <= 150), from ${(load.start / MiB).toFixed(0)} MiB`,
    );
    return lines;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    pictures.close();
    assets.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
};

if (require.main === module) {
  require('../scripts/build-if-stale');
  module.exports().then(
    (lines) => lines.forEach((l) => console.log(l)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
