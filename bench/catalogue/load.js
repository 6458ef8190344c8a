'use strict';
// Load for the catalogue benchmark: autocannon runs where each request takes the next path of
// a pool (never one twice), the server's event-loop delay around each run from its /metrics,
// and the resident memory of a process and its children from /proc.
const fs = require('node:fs');
const autocannon = require('autocannon');

const CONNECTIONS = 32;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every path handed to a request in one mode's run. A path handed out twice is an error of the
 * benchmark (its figures would include a response-cache hit), so it throws.
 */
class PathLedger {
  constructor() {
    this.seen = new Set();
  }

  take(path) {
    if (this.seen.has(path)) throw new Error(`benchmark bug: ${path} would be requested twice in one run`);
    this.seen.add(path);
    return path;
  }

  get size() {
    return this.seen.size;
  }
}

/**
 * One autocannon run of `durationS` at most. Each request asks `next()` for its path
 * (setupRequest runs once for every request sent); with `amount`, the run also ends after that
 * many requests, so a pool of that many paths is never asked past its end. Without `next` every
 * request asks `url`. Requests a second are counted from the start to the last answer
 * (autocannon's own clock ticks each second, too coarse for a pool spent in under one).
 */
function run({ url, next = null, amount = 0, durationS, connections = CONNECTIONS }) {
  return new Promise((resolve, reject) => {
    let handedOut = 0;
    const options = { url, connections: amount ? Math.min(connections, amount) : connections, timeout: 10 };
    if (next) {
      options.requests = [
        {
          setupRequest(request) {
            handedOut++;
            return { ...request, path: next() };
          },
        },
      ];
    }
    if (amount) options.amount = amount;
    else options.duration = durationS;
    const started = process.hrtime.bigint();
    let lastAnswer = started;
    const instance = autocannon(options, (error, result) => {
      if (timer) clearTimeout(timer);
      if (error) return reject(error);
      const seconds = Number(lastAnswer - started) / 1e9;
      const ok = result['2xx'];
      resolve({
        ok,
        failed: result.non2xx + result.errors,
        // What the failures were: status codes other than 2xx, and errors (timeouts among them).
        failures: [
          ...Object.entries(result.statusCodeStats)
            .filter(([code]) => !code.startsWith('2'))
            .map(([code, { count }]) => `${count}× ${code}`),
          ...(result.errors ? [`${result.errors} errors (${result.timeouts} timeouts)`] : []),
        ].join(', '),
        rps: seconds > 0 ? ok / seconds : 0,
        p50: result.latency.p50,
        p99: result.latency.p99,
        seconds,
        handedOut,
      });
    });
    instance.on('response', () => {
      lastAnswer = process.hrtime.bigint();
    });
    // With an amount autocannon ignores its duration; the run is cut here instead.
    const timer = amount ? setTimeout(() => instance.stop(), durationS * 1000) : null;
  });
}

/** Runs through `paths` in order, each at most once (the ledger checks across the whole mode), for `durationS` at most. */
function runPool({ url, paths, ledger, durationS }) {
  let at = 0;
  const next = () => {
    if (at >= paths.length) throw new Error('benchmark bug: autocannon asked for more paths than its amount');
    return ledger.take(paths[at++]);
  };
  return paths.length === 0 ? null : run({ url, next, amount: paths.length, durationS });
}

/** The server's own figures from GET /metrics (loopback, or the bearer token the benchmark gave it). */
async function scrape(base, token) {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  const text = await response.text();
  const value = (name, labels = '') => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name}{`)));
    return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return {
    /** prom-client resets its event-loop histogram at every scrape: these cover the time since the previous one. */
    eventLoopP99Ms: (value('registry_nodejs_eventloop_lag_p99_seconds') ?? NaN) * 1000,
    eventLoopMaxMs: (value('registry_nodejs_eventloop_lag_max_seconds') ?? NaN) * 1000,
    poolWaiting: value('registry_db_pool_connections', '{state="waiting"}'),
    poolIdle: value('registry_db_pool_connections', '{state="idle"}'),
    poolTotal: value('registry_db_pool_connections', '{state="total"}'),
    searchIndexBytes: value('registry_search_index_bytes'),
    searchIndexPlugins: value('registry_search_index_plugins'),
    pluginPagesStale: value('registry_plugin_pages_stale'),
    cacheHits: value('registry_response_cache_requests_total', '{result="hit"}') ?? 0,
    cacheMisses: value('registry_response_cache_requests_total', '{result="miss"}') ?? 0,
  };
}

/**
 * The server's GC pauses and event-loop delay since the previous call, and its heap now, from
 * perf_hooks inside it (probe.js); null when the probe does not answer.
 */
async function probe(server) {
  if (!server.probe) return null;
  const response = await fetch(`${server.probe}/reset`).catch(() => null);
  return response?.ok ? response.json() : null;
}

/**
 * Waits until the server has finished what the last run left behind (requests autocannon
 * abandoned keep their queries running): no query waiting for a connection and every
 * connection idle, twice in a row, or `capMs`.
 */
async function drained(base, token, capMs = 30_000) {
  return quiet(async () => {
    const m = await scrape(base, token).catch(() => null);
    return Boolean(m && (m.poolTotal === null || (m.poolWaiting === 0 && m.poolIdle === m.poolTotal)));
  }, capMs);
}

/** Polls `isIdle` until it holds twice in a row, or `capMs`; whether it did. */
async function quiet(isIdle, capMs = 30_000) {
  const deadline = Date.now() + capMs;
  let streak = 0;
  while (Date.now() < deadline) {
    await sleep(250);
    streak = (await isIdle()) ? streak + 1 : 0;
    if (streak >= 2) return true;
  }
  return false;
}

/** A process and every process under it, from /proc (worker threads are already in their process's figures). */
function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    let tasks = [];
    try {
      tasks = fs.readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = fs.readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return pids;
}

/** Resident MiB now (VmRSS) and at the peak so far (VmHWM), summed over the process tree. */
function memoryMiB(pid) {
  let rss = 0;
  let peak = 0;
  for (const p of processTree(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return { rss: Math.round(rss / 1024), peak: Math.round(peak / 1024) };
}

module.exports = { CONNECTIONS, PathLedger, run, runPool, scrape, probe, drained, quiet, memoryMiB, sleep };
