'use strict';
// A server's resident memory read from /proc, and its peak growth while some work runs (publish and pictures benchmarks).
const fs = require('node:fs');

function rssBytes(pid) {
  return rssParts(pid).total;
}

/** VmRSS and its parts: anonymous (heaps, buffers) and file-backed (code and libraries mapped in). */
function rssParts(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { total: kB('VmRSS'), anon: kB('RssAnon'), file: kB('RssFile') };
}

/** Runs `work` while sampling the server's RSS every 20 ms; returns its RSS at the start, its peak and the growth between. */
async function peakGrowth(pid, work) {
  const startParts = rssParts(pid);
  const start = startParts.total;
  let peak = start;
  let peakParts = startParts;
  const sample = () => {
    const parts = rssParts(pid);
    if (parts.total > peak) {
      peak = parts.total;
      peakParts = parts;
    }
  };
  const timer = setInterval(() => {
    try {
      sample();
    } catch {
      // process gone
    }
  }, 20);
  const t0 = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clearInterval(timer);
  sample();
  return { growth: peak - start, start, peak, seconds, result, parts: { start: startParts, peak: peakParts } };
}

module.exports = { rssBytes, rssParts, peakGrowth };
