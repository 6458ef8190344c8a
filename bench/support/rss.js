'use strict';
// A server's resident memory read from /proc, and its peak growth while some work runs (publish and pictures benchmarks).
const fs = require('node:fs');

function rssBytes(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** Runs `work` while sampling the server's RSS every 20 ms; returns its RSS at the start, its peak and the growth between. */
async function peakGrowth(pid, work) {
  const start = rssBytes(pid);
  let peak = start;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // process gone
    }
  }, 20);
  const t0 = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(timer);
  peak = Math.max(peak, rssBytes(pid));
  return { growth: peak - start, start, peak, seconds, result };
}

module.exports = { rssBytes, peakGrowth };
