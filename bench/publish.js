'use strict';
// Publish benchmark (issue: Publish and ingest). Against the compiled server on the embedded
// database, with assets served by a static file server on loopback:
//  - hashing throughput of a 256 MiB publish, as a ratio to `curl -s URL | openssl dgst -sha256`
//    on the same asset in the same run (target >= 0.75);
//  - the server's peak RSS growth during that publish (target < 64 MiB), during a 1 GiB publish
//    over the hash budget (target < 64 MiB), and during four 256 MiB publishes at once (must not
//    multiply the memory).
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { peakGrowth } = require('./support/rss');

const ROOT = path.join(__dirname, '..');
const MiB = 1024 * 1024;

function writeAsset(file, size) {
  const chunk = Buffer.alloc(4 * MiB);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) & 0xff;
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < size; written += chunk.length) {
    chunk[0] = (written / chunk.length) & 0xff;
    fs.writeSync(fd, chunk, 0, Math.min(chunk.length, size - written));
  }
  fs.closeSync(fd);
}

function staticServer(dir) {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.basename(decodeURIComponent(req.url.split('?')[0])));
    if (!fs.existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': fs.statSync(file).size });
    fs.createReadStream(file, { highWaterMark: MiB }).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function waitReady(url) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready');
}

function cli(args, env) {
  return execFileSync(process.execPath, [path.join(ROOT, 'bin', 'registry.js'), ...args], { env, encoding: 'utf8' }).trim();
}

module.exports = async function run() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-publish-'));
  const assets = path.join(work, 'assets');
  fs.mkdirSync(assets);
  writeAsset(path.join(assets, 'big-linux-x64.bin'), 256 * MiB);
  for (let i = 1; i <= 4; i++) fs.linkSync(path.join(assets, 'big-linux-x64.bin'), path.join(assets, `big-${i}.bin`));
  writeAsset(path.join(assets, 'huge.bin'), 1024 * MiB);
  const files = await staticServer(assets);
  const filesUrl = `http://127.0.0.1:${files.address().port}`;

  const port = 3800 + Math.floor(Math.random() * 100);
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    SESSION_SECRET: 'b'.repeat(48),
    KEY_ENCRYPTION_KEY: 'c'.repeat(64),
    DATA_DIR: path.join(work, 'data'),
    PORT: String(port),
    LOG_LEVEL: 'warn',
    FETCH_ALLOW_HOSTS: `127.0.0.1:${files.address().port}`,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  };
  const server = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const lines = [];
  try {
    await waitReady(url);
    const login = `bench-${Date.now()}`;
    cli(['users', 'create', login], env);
    const jwt = cli(['sessions', 'issue', login], env);
    const tokenRes = await fetch(`${url}/api/auth/me/tokens`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', scopes: ['publish:*'] }),
    });
    const { token } = await tokenRes.json();
    const publish = async (slug, assetName) => {
      const res = await fetch(`${url}/api/publish/${slug}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          manifest: `name: ${slug}\nversion: "1.0.0"\nreadme: https://127.0.0.1:1/none.md\n`,
          manifestSource: 'plugin.yaml',
          version: '1.0.0',
          assets: [{ name: assetName, url: `${filesUrl}/${assetName}` }],
          repoUrl: `https://example.invalid/bench/${slug}`,
        }),
      });
      if (res.status !== 201) throw new Error(`publish ${slug}: ${res.status} ${await res.text()}`);
    };

    // Reference: the curl | openssl pipeline on the same asset (best of 3).
    let pipeline = Infinity;
    for (let i = 0; i < 3; i++) {
      const t0 = process.hrtime.bigint();
      // Asynchronous: the file server runs in this process and must keep serving meanwhile.
      const code = await new Promise((resolve) => {
        const child = spawn('bash', ['-c', `curl -s ${filesUrl}/big-linux-x64.bin | openssl dgst -sha256 > /dev/null`], {
          stdio: 'ignore',
        });
        child.once('exit', resolve);
      });
      if (code !== 0) throw new Error(`curl | openssl failed with ${code}`);
      pipeline = Math.min(pipeline, Number(process.hrtime.bigint() - t0) / 1e9);
    }
    const size = 256 * MiB;
    const gbps = (s) => (size / s / 1e9).toFixed(3);

    const cold = await peakGrowth(server.pid, () => publish('warmup', 'big-1.bin'));
    let best = null;
    for (let i = 0; i < 2; i++) {
      const m = await peakGrowth(server.pid, () => publish(`one-${i}`, 'big-linux-x64.bin'));
      if (!best || m.seconds < best.seconds) best = m;
    }
    lines.push(`curl | openssl dgst, 256 MiB        ${gbps(pipeline)} GB/s (${pipeline.toFixed(2)} s)`);
    lines.push(
      `publish, 256 MiB asset              ${gbps(best.seconds)} GB/s (${best.seconds.toFixed(2)} s)  ratio ${(pipeline / best.seconds).toFixed(2)} (target >= 0.75)`,
    );
    lines.push(
      `  peak server RSS growth            ${(best.growth / MiB).toFixed(1)} MiB (target < 64); first, cold publish: ${(cold.growth / MiB).toFixed(1)} MiB`,
    );

    const huge = await peakGrowth(server.pid, () => publish('huge', 'huge.bin'));
    lines.push(
      `publish, 1 GiB over the budget      ${huge.seconds.toFixed(2)} s, peak server RSS growth ${(huge.growth / MiB).toFixed(1)} MiB (target < 64)`,
    );

    const four = await peakGrowth(server.pid, () => Promise.all([2, 3, 4, 1].map((i) => publish(`four-${i}`, `big-${i}.bin`))));
    lines.push(
      `four 256 MiB publishes at once      ${four.seconds.toFixed(2)} s, peak server RSS growth ${(four.growth / MiB).toFixed(1)} MiB`,
    );
    return lines;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    files.close();
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
