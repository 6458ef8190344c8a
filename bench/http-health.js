'use strict';
// Foundation benchmark: requests per second and latency of the compiled server (start:prod) on
// the embedded database, for /health/live (no database) and /health/ready (one query).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

async function waitReady(url, deadline) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become ready: ${url}`);
}

function load(url, { requests, concurrency }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let issued = 0;
  const started = process.hrtime.bigint();
  const one = () =>
    new Promise((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
            latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
            resolve();
          });
        })
        .on('error', reject);
    });
  const worker = async () => {
    while (issued < requests) {
      issued++;
      await one();
    }
  };
  return Promise.all(Array.from({ length: concurrency }, worker)).then(() => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
    return { rps: Math.round(requests / seconds), p50: pct(50), p99: pct(99) };
  });
}

module.exports = async function run() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-'));
  const port = 3900 + Math.floor(Math.random() * 90);
  const server = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/health/ready`, Date.now() + 60_000);
    const results = [];
    for (const route of ['/health/live', '/health/ready']) {
      const url = `http://127.0.0.1:${port}${route}`;
      await load(url, { requests: 500, concurrency: 8 });
      const r = await load(url, { requests: 5000, concurrency: 16 });
      results.push({ name: `GET ${route}`, ...r });
    }
    return results.map((r) => `${r.name.padEnd(20)} ${String(r.rps).padStart(7)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};
