'use strict';
// Asset fetcher benchmark: throughput of the compiled fetchAndHashAsset against a
// `curl | openssl dgst -sha256` pipeline on the same loopback URL, and peak RSS growth while
// hashing (one 256 MiB asset, one 1 GiB asset over the budget, four 256 MiB assets at once).
// Each fetcher measurement runs in a child process so its RSS is its own. Needs the build:
// `npx tsc -p tsconfig.build.json` (npm run bench does it).
const { spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const FETCHER = path.join(__dirname, '..', 'dist', 'common', 'fetch', 'asset-fetcher.js');
const MiB = 1024 * 1024;
const REPEATS = 3;
const SAMPLE_MS = 20;

/** Deterministic content, written a MiB at a time so the file never sits in memory. */
async function writeAsset(file, bytes) {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < MiB; i++) block[i] = (i * 131 + (i >> 8)) & 0xff;
  const out = fs.createWriteStream(file);
  for (let offset = 0; offset < bytes; offset += MiB) {
    block.writeUInt32BE(offset / MiB, 0); // no two MiB alike
    if (!out.write(Buffer.from(block))) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

function startStaticServer(dir) {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.basename(new URL(req.url, 'http://x').pathname));
    fs.stat(file, (error, stat) => {
      if (error) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': stat.size });
      fs.createReadStream(file, { highWaterMark: MiB }).pipe(res);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function runProcess(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], ...options });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}`))));
  });
}

async function curlPipeline(url) {
  const started = process.hrtime.bigint();
  const out = await runProcess('bash', ['-c', `set -o pipefail; curl -sf '${url}' | openssl dgst -sha256`]);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, sha256: out.trim().split(/\s+/).pop() };
}

/** Runs this file as a child (`--child <json>`) and returns what it measured. */
async function inChild(task) {
  return JSON.parse(await runProcess(process.execPath, [__filename, '--child', JSON.stringify(task)]));
}

async function childMain(task) {
  const { fetchAndHashAsset } = require(FETCHER);
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), SAMPLE_MS);
  const options = {
    budgetBytes: task.budgetBytes,
    maxBytes: 8 * 1024 * MiB,
    allowHosts: [task.allowHost],
    connectTimeoutMs: 10_000,
    idleTimeoutMs: 10_000,
    totalTimeoutMs: 600_000,
    maxRedirects: 5,
  };
  const fetchOne = task.naive ? naiveFetch : (url) => fetchAndHashAsset(url, options);
  const started = process.hrtime.bigint();
  const results = await Promise.all(task.urls.map(fetchOne));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  process.stdout.write(JSON.stringify({ seconds, peakGrowth: peak - baseline, results }));
}

/** The obvious node:http + createHash pipeline, as the "before" for the fetcher's figures. */
function naiveFetch(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        const hash = createHash('sha256');
        let size = 0;
        res.on('data', (chunk) => {
          size += chunk.length;
          hash.update(chunk);
        });
        res.on('end', () => resolve({ size, sha256: hash.digest('hex'), hashed: true }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const gbps = (bytes, seconds) => bytes / seconds / 1e9;
const mib = (bytes) => (bytes / MiB).toFixed(1);
const line = (label, figure) => `${label.padEnd(48)} ${figure}`;

async function measure(task, repeats = REPEATS) {
  const runs = [];
  for (let i = 0; i < repeats; i++) runs.push(await inChild(task));
  return { seconds: median(runs.map((r) => r.seconds)), peakGrowth: Math.max(...runs.map((r) => r.peakGrowth)), results: runs[0].results };
}

function check(condition, message) {
  if (!condition) throw new Error(`benchmark sanity check failed: ${message}`);
}

module.exports = async function run() {
  if (!fs.existsSync(FETCHER)) throw new Error(`${FETCHER} is missing: run npx tsc -p tsconfig.build.json first`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asset-fetch-bench-'));
  let server;
  try {
    const small = 256 * MiB;
    const large = 1024 * MiB;
    await writeAsset(path.join(dir, 'asset-256m.bin'), small);
    await writeAsset(path.join(dir, 'asset-1g.bin'), large);
    server = await startStaticServer(dir);
    const { port } = server.address();
    const url = (name) => `http://127.0.0.1:${port}/${name}`;
    const base = { allowHost: `127.0.0.1:${port}`, budgetBytes: 500 * 1000 * 1000 };
    const lines = [];

    await curlPipeline(url('asset-256m.bin')); // warm the page cache
    const curlRuns = [];
    for (let i = 0; i < REPEATS; i++) curlRuns.push(await curlPipeline(url('asset-256m.bin')));
    const curlSeconds = median(curlRuns.map((r) => r.seconds));
    const curlRate = gbps(small, curlSeconds);
    lines.push(line('curl | openssl dgst -sha256, 256 MiB', `${curlRate.toFixed(2)} GB/s (median of ${REPEATS})`));

    const naive = await measure({ ...base, naive: true, urls: [url('asset-256m.bin')] });
    check(naive.results[0].sha256 === curlRuns[0].sha256, 'naive hash differs from openssl');
    const naiveRate = gbps(small, naive.seconds);
    lines.push(
      line(
        'naive http.get + createHash (no policy), 256 MiB',
        `${naiveRate.toFixed(2)} GB/s, ratio ${(naiveRate / curlRate).toFixed(2)}, peak RSS +${mib(naive.peakGrowth)} MiB`,
      ),
    );

    const one = await measure({ ...base, urls: [url('asset-256m.bin')] });
    check(one.results[0].sha256 === curlRuns[0].sha256 && one.results[0].size === small, 'fetcher hash or size differs from openssl');
    const oneRate = gbps(small, one.seconds);
    lines.push(line('fetchAndHashAsset, 256 MiB', `${oneRate.toFixed(2)} GB/s (median of ${REPEATS})`));
    lines.push(line('  ratio to curl | openssl', `${(oneRate / curlRate).toFixed(2)} (target >= 0.75)`));
    lines.push(line('  peak RSS growth', `${mib(one.peakGrowth)} MiB (target < 64 MiB; worst of ${REPEATS})`));

    const over = await measure({ ...base, urls: [url('asset-1g.bin')] });
    check(over.results[0].hashed === false && over.results[0].size === large, 'the 1 GiB asset should be sized, not hashed');
    lines.push(
      line(
        'fetchAndHashAsset, 1 GiB over a 500 MB budget',
        `${gbps(large, over.seconds).toFixed(2)} GB/s, hashed=false, size ${over.results[0].size}`,
      ),
    );
    lines.push(line('  peak RSS growth', `${mib(over.peakGrowth)} MiB (target < 64 MiB; worst of ${REPEATS})`));

    const four = await measure({ ...base, urls: Array.from({ length: 4 }, () => url('asset-256m.bin')) });
    check(
      four.results.every((r) => r.sha256 === curlRuns[0].sha256),
      'a concurrent fetch hashed differently',
    );
    lines.push(line('fetchAndHashAsset, 4 x 256 MiB at once', `${gbps(4 * small, four.seconds).toFixed(2)} GB/s aggregate`));
    lines.push(
      line(
        '  peak RSS growth',
        `${mib(four.peakGrowth)} MiB (${(four.peakGrowth / Math.max(one.peakGrowth, 1)).toFixed(1)}x the single fetch)`,
      ),
    );
    return lines;
  } finally {
    if (server) await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

if (require.main === module) {
  const main =
    process.argv[2] === '--child'
      ? () => childMain(JSON.parse(process.argv[3]))
      : async () => (await module.exports()).forEach((l) => console.log(l));
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
