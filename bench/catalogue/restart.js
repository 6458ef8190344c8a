'use strict';
// A restart under load: the crowd's mix asked by 32 clients without pause;
// the server is killed with SIGKILL and started again as it was, while they keep asking. Measured:
// how long after the kill it answers ready (target <= 3 s), how long after that it serves at full
// speed again (target <= 30 s: every one-second window from then on at >= 90% of the rate before
// the kill, with a p99 at most 1.5 times the p99 before it), requests that failed once it was
// ready (target 0), and whether
// searches answered from the database while the catalogue index was still being built agree with
// the index's answers once it is built.
const http = require('node:http');
const { scrape, sleep } = require('./load');

const CLIENTS = 32;
/** How long a client whose request failed waits before its next (a retrying client, not a tight loop that takes the CPU a starting server needs). */
const RETRY_MS = 100;
/** Seconds of load before the rate it is measured by: a new server's first seconds are slower. */
const WARM_S = 8;
const BEFORE_S = 8;
const AFTER_S = 40;
const WINDOW_MS = 1000;
const FULL_SPEED = 0.9;
/** A one-second window's p99 is noisy: full speed allows it half again the p99 of the eight seconds before the kill. */
const P99_SLACK = 1.5;
const CHECKED_SEARCHES = 20;

function get(base, path, agent) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

function getJson(base, path) {
  return fetch(`${base}${path}`).then(async (res) => ({ status: res.status, body: res.ok ? await res.json() : null }));
}

/** 32 clients asking the pool's paths in turn (each once, skipping any the ledger has seen) until stopped; every answer and failure, timed. */
function crowd(base, paths, ledger) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const samples = [];
  let at = 0;
  let stopped = false;
  const nextPath = () => {
    while (at < paths.length) {
      const path = paths[at++];
      if (!ledger.seen.has(path)) return ledger.take(path);
    }
    return null;
  };
  const client = async () => {
    for (let path = nextPath(); !stopped && path !== null; path = nextPath()) {
      const started = performance.now();
      try {
        const status = await get(base, path, agent);
        samples.push({ at: performance.now(), ms: performance.now() - started, status });
      } catch (error) {
        samples.push({ at: performance.now(), ms: performance.now() - started, status: 0, error: error.code ?? error.message });
        // The server is down: the client tries again a little later.
        await sleep(RETRY_MS);
      }
    }
  };
  const running = Promise.all(Array.from({ length: CLIENTS }, client));
  return {
    samples,
    get exhausted() {
      return at >= paths.length;
    },
    async stop() {
      stopped = true;
      await running;
      agent.destroy();
    },
  };
}

function p99(values) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
}

/** Answers (2xx) in [from, to): their rate and p99. */
function windowOf(samples, from, to) {
  const ok = samples.filter((s) => s.at >= from && s.at < to && s.status >= 200 && s.status < 300);
  return { rps: (ok.length * 1000) / (to - from), p99: p99(ok.map((s) => s.ms)) };
}

/** Searches whose answers are compared: asked while the index is building, then again (another cache key) once built. */
function checkedSearches(paths) {
  return paths.filter((p) => p.startsWith('/api/plugins?search=') && !p.includes('page=')).slice(0, CHECKED_SEARCHES);
}

async function restartScenario({ server, pool, ledger, plugins }) {
  const lines = [];
  const load = crowd(server.base, pool.paths, ledger);
  await sleep(WARM_S * 1000);
  const beforeFrom = performance.now();
  await sleep(BEFORE_S * 1000);
  const before = windowOf(load.samples, beforeFrom, performance.now());

  const { killedAt, readyAt } = await server.restart();
  const readyS = (readyAt - killedAt) / 1000;
  // Right after ready: is the index still being built? Then these searches come from the database.
  const building = ((await scrape(server.base, server.metricsToken).catch(() => null))?.searchIndexPlugins ?? 0) < plugins;
  const searches = checkedSearches(pool.warmup.length ? pool.warmup : pool.paths.slice(-2000).reverse()).filter((p) => !ledger.seen.has(p));
  const early = await Promise.all(searches.map((p) => getJson(server.base, ledger.take(p))));
  let builtAt = null;
  const watchBuild = (async () => {
    while (performance.now() - readyAt < AFTER_S * 1000) {
      if ((await scrape(server.base, server.metricsToken).catch(() => null))?.searchIndexPlugins === plugins)
        return (builtAt = performance.now());
      await sleep(100);
    }
    return null;
  })();
  await sleep(Math.max(0, AFTER_S * 1000 - (performance.now() - readyAt)));
  await watchBuild;
  await load.stop();
  const late = await Promise.all(searches.map((p) => getJson(server.base, ledger.take(`${p}&page=1`))));

  // Up to the last answer: a pool spent early ends the run there, not in empty windows. (Not
  // Math.max(...samples): a fast run's hundreds of thousands of arguments overflow the stack.)
  const lastAt = Math.min(
    readyAt + AFTER_S * 1000,
    load.samples.reduce((latest, s) => Math.max(latest, s.at), -Infinity),
  );
  const windows = [];
  for (let from = readyAt; from + WINDOW_MS <= lastAt; from += WINDOW_MS) windows.push(windowOf(load.samples, from, from + WINDOW_MS));
  const holds = (w) => w.rps >= FULL_SPEED * before.rps && w.p99 <= P99_SLACK * before.p99;
  let fullFrom = windows.length;
  while (fullFrom > 0 && holds(windows[fullFrom - 1])) fullFrom--;
  const afterReady = load.samples.filter((s) => s.at >= readyAt);
  const failedAfterReady = afterReady.filter((s) => !(s.status >= 200 && s.status < 300));
  const failedBefore = load.samples.filter((s) => s.at >= killedAt && s.at < readyAt && !(s.status >= 200 && s.status < 300)).length;
  const failures = [...new Set(failedAfterReady.map((s) => s.error ?? String(s.status)))].join(', ');
  const agree = early.filter((e, i) => {
    const l = late[i];
    return (
      e.status === 200 &&
      l.status === 200 &&
      e.body.total === l.body.total &&
      e.body.plugins.map((x) => x.slug).join() === l.body.plugins.map((x) => x.slug).join()
    );
  }).length;
  const round = (n) => Math.round(n);
  lines.push(
    `restart under load: kill -9 while 32 clients ask the crowd's mix (${round(before.rps)} req/s before it, p99 ${before.p99.toFixed(1)} ms), started again at once, ${plugins} plugins`,
  );
  lines.push(
    `restart: ready ${readyS.toFixed(2)} s after kill -9 (target <= 3); ${failedBefore} requests failed while it was down (expected)`,
  );
  lines.push(
    fullFrom < windows.length
      ? `restart: full speed ${fullFrom} s after ready (target <= 30): every second from then on at >= ${FULL_SPEED * 100}% of the rate before, p99 <= ${P99_SLACK}x the p99 before`
      : `restart: not at full speed within ${AFTER_S} s after ready (target <= 30)`,
  );
  lines.push(`  answers per second after ready: ${windows.map((w) => round(w.rps)).join(' ')}`);
  lines.push(`  p99 per second after ready (ms): ${windows.map((w) => (Number.isFinite(w.p99) ? round(w.p99) : '-')).join(' ')}`);
  lines.push(
    `restart: ${failedAfterReady.length} requests failed after ready (target 0)${failures ? ` [${failures}]` : ''}; ${afterReady.length} asked`,
  );
  lines.push(
    `restart: catalogue index ${builtAt === null ? `not built within ${AFTER_S} s` : `built ${((builtAt - readyAt) / 1000).toFixed(1)} s after ready`}; ` +
      `${agree} of ${searches.length} searches asked right after ready${building ? ' (while the index was building: each waits for it up to CATALOGUE_INDEX_WAIT_MS, then SQL answers)' : ' (the index was already built)'} agree with the answers once it was built (target: all)`,
  );
  if (load.exhausted) lines.push('restart: the pool of paths ran out before the end; figures cover less than the whole run');
  return lines;
}

module.exports = { restartScenario };
