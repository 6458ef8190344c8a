'use strict';
// Catalogue benchmark (issues "Catalogue" and 23). The compiled server in production mode,
// autocannon on loopback at 32 connections, on two stores in turn:
//  - PostgreSQL (DATABASE_URL): 100,000 plugins with 1,000,000 releases, seeded once into a
//    `registry_bench_catalogue` database on that server; REDIS_URL puts the response cache in Redis;
//  - the embedded default (PGlite, DATA_DIR only): 10,000 plugins, seeded once into a data
//    directory under the system's temp directory.
// On each:
//  - footprint: the server's resident memory idle on an empty store, and its peak under the run;
//  - the cache-hit scenarios (a-e): one URL asked again and again, so every answer after the
//    first comes from the response cache; each against a bare server running the same SQL;
//  - the one-row ceiling: a bare node:http + pg server (as many connections as the server's pool)
//    answering `SELECT * FROM plugin WHERE slug = $1` for random slugs; the yardstick of:
//  - the distinct scenarios, where no path is asked twice in a run: search (terms from the seed's
//    vocabulary; without filters, and with kind/ext.*/verified filters and every sort), detail
//    and `latest` of random slugs, list pages 1-500 in every sort and four page sizes. Each runs until its pool of
//    paths is spent or for the duration, whichever comes first, and prints its ratio to the
//    ceiling, p50/p99, failed requests and the server's event-loop delay meanwhile;
//  - facets: the same kinds of distinct searches with facets=1 (counts of kind, category, tags and
//    the seed's enum extension fields over each search), without and with filters (targets:
//    >= 0.2 of the one-row ceiling, p99 <= 150 ms on PostgreSQL).
//  - the changes feed (group `changes`): a page of 100 changes after a random cursor across the
//    seeded feed (one release.published a release), each cursor once.
//  - the crowd (group `crowd`), last, in the same server's life as every scenario before it:
//    distinct searches (with page sizes), plugin pages and `latest` interleaved about 60/30/10,
//    every path new. Every distinct scenario also prints the server's GC pauses (p99, total) and
//    heap used before and after, from perf_hooks inside it (bench/catalogue/probe.js).
//  - a restart under load (group `restart`, PostgreSQL only, after everything else): the crowd's
//    mix asked by 32 clients while the server is killed with SIGKILL and started again; how soon
//    it answers ready, how soon it is back at full speed, what failed (bench/catalogue/restart.js).
// Settings (environment):
//   BENCH_CATALOGUE_PLUGINS           PostgreSQL catalogue size (100000); smaller for a quick try
//   BENCH_CATALOGUE_EMBEDDED_PLUGINS  embedded catalogue size (10000, or the above if smaller)
//   BENCH_CATALOGUE_MODES             postgres,embedded (both), or one of them
//   BENCH_CATALOGUE_SCENARIOS         footprint,cache,search,facets,detail,latest,list,changes,crowd,restart (all), or some
//   BENCH_CATALOGUE_DURATION_S        seconds each measured run lasts at most (10)
//   BENCH_CATALOGUE_WARMUP_S          seconds of warm-up before each (3)
//   BENCH_CATALOGUE_BUDGET_S          the whole benchmark's time limit (1080): scenarios that
//                                     would start past it are skipped, and say so
//   BENCH_SERVER_NODE_ARGS            flags for the server's node process (--cpu-prof, say)
const fs = require('node:fs');
const { changesAtHeadRequests, changesRequests, distinctRequests, prng, SEED } = require('./catalogue/requests');
const { CONNECTIONS, PathLedger, run, runPool, scrape, probe, drained, quiet, memoryMiB, sleep } = require('./catalogue/load');
const { startOneRowCeiling, startSameSqlCeiling } = require('./catalogue/ceilings');
const stores = require('./catalogue/stores');
const { restartScenario } = require('./catalogue/restart');

const RELEASES = 10;
const MODES = ['postgres', 'embedded'];
const SCENARIO_GROUPS = ['footprint', 'cache', 'search', 'facets', 'detail', 'latest', 'list', 'changes', 'crowd', 'restart'];
/** Paths drawn for each search pool per second of the run: beyond a run at the target rate (0.3 of ~9,000 req/s). */
const SEARCH_PATHS_PER_SECOND = 4_000;
const WARMUP_PATHS = 1_000;
/** When the idle server's memory is read: early, and settled (the target's figure), after it answered ready. */
const IDLE_FIRST_READ_MS = 5_000;
const IDLE_SETTLE_MS = 30_000;

function settings() {
  const number = (name, fallback, min, max) => {
    const raw = process.env[name];
    const value = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max}`);
    return value;
  };
  const list = (name, allowed) => {
    const raw = process.env[name];
    const values = raw
      ? raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : allowed;
    const unknown = values.filter((v) => !allowed.includes(v));
    if (unknown.length) throw new Error(`${name}: unknown ${unknown.join(', ')} (choose from ${allowed.join(', ')})`);
    return values;
  };
  const plugins = number('BENCH_CATALOGUE_PLUGINS', 100_000, 100, 1_000_000);
  return {
    plugins,
    embeddedPlugins: number('BENCH_CATALOGUE_EMBEDDED_PLUGINS', Math.min(10_000, plugins), 100, 1_000_000),
    modes: list('BENCH_CATALOGUE_MODES', MODES),
    groups: list('BENCH_CATALOGUE_SCENARIOS', SCENARIO_GROUPS),
    durationS: number('BENCH_CATALOGUE_DURATION_S', 10, 1, 60),
    warmupS: number('BENCH_CATALOGUE_WARMUP_S', 3, 0, 30),
    budgetS: number('BENCH_CATALOGUE_BUDGET_S', 1080, 60, 7200),
  };
}

// The cache-hit scenarios: one URL each, asked again and again.
const CACHE_HIT = [
  { id: 'a', what: 'list, default sort', path: () => '/api/plugins', target: 1.0, p99: 50 },
  { id: 'b', what: 'search with a typo', path: () => '/api/plugins?search=mardown', target: 0.6, p99: 100 },
  { id: 'c', what: 'kind + two ext.* filters', path: () => '/api/plugins?kind=theme&ext.stars=3&ext.platforms=mac', target: 0.6, p99: 100 },
  { id: 'd', what: 'detail', path: (slug) => `/api/plugins/${slug}`, target: 1.0, p99: 50 },
  { id: 'e', what: 'latest for linux-x64', path: (slug) => `/api/plugins/${slug}/latest?os=linux&arch=x64`, target: 1.0, p99: 50 },
];

// The distinct scenarios (the catalogue's distinct-path targets, as ratios to the one-row ceiling;
// docs/performance.md).
const DISTINCT = [
  { key: 'searchPlain', group: 'search', what: 'search, distinct terms, no filters', target: 0.5, p99: 50 },
  {
    key: 'searchFiltered',
    group: 'search',
    what: 'search, distinct terms, with kind/ext.*/verified filters and every sort',
    target: 0.5,
    p99: 50,
  },
  { key: 'facetsPlain', group: 'facets', what: 'faceted search (facets=1), distinct terms, no filters', target: 0.2, p99: 150 },
  {
    key: 'facetsFiltered',
    group: 'facets',
    what: 'faceted search (facets=1), distinct terms, with kind/ext.*/verified filters and every sort',
    target: 0.2,
    p99: 150,
  },
  { key: 'detail', group: 'detail', what: 'detail, random slugs', target: 0.5, p99: 50 },
  { key: 'latest', group: 'latest', what: 'latest, random slugs and os/arch', target: 0.5, p99: 50 },
  { key: 'list', group: 'list', what: 'list, every sort, pages 1-N, page sizes 15-30', target: 0.5, p99: 50 },
  // A page of 100 changes is one range scan of the primary key and no plugin lookups: as cheap
  // for the database as a detail, dearer in JSON; the same bar as the other uncached reads.
  { key: 'changes', group: 'changes', what: 'changes feed, random cursors, pages of 100', target: 0.5, p99: 50 },
  // What a mirror does between releases: asks again from its cursor at the head and gets little or
  // nothing. Once a full scan of the log (the check for more), so a line of its own.
  {
    key: 'changesAtHead',
    group: 'changes',
    what: 'changes feed at the head (followers polling), distinct cursor and page size',
    target: 0.5,
    p99: 50,
  },
  // Last, in the same server's life as everything above ("the catalogue under a crowd"): what
  // one kind of request leaves behind (a full cache, a grown heap) must not slow the others.
  {
    key: 'crowd',
    group: 'crowd',
    what: 'crowd: distinct searches / plugin pages / latest, about 60/30/10, interleaved',
    target: 0.5,
    p99: 50,
  },
];

const FOOTPRINT_TARGETS = { embedded: { idle: 250, peak: 400 }, postgres: { idle: 150, peak: null } };
const SEARCH_INDEX_TARGET = 2048;

let startedAt = Date.now();
const progress = (text) => process.stderr.write(`  catalogue +${Math.round((Date.now() - startedAt) / 1000)} s: ${text}\n`);
const round = (n) => (Number.isFinite(n) ? Math.round(n) : 'n/a');
const ms = (n) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : Math.round(n)} ms` : 'n/a');

class Budget {
  constructor(seconds) {
    this.deadline = Date.now() + seconds * 1000;
  }

  allows(seconds) {
    return Date.now() + seconds * 1000 < this.deadline;
  }
}

/** Figures of one measured run, for its line. */
function figures(result, p99Target) {
  const failed = `${result.failed} failed (target 0)${result.failures ? ` [${result.failures}]` : ''}`;
  return `${round(result.rps)} req/s, p50 ${ms(result.p50)}, p99 ${ms(result.p99)}${p99Target ? ` (target <= ${p99Target} ms)` : ''}, ${failed}`;
}

/**
 * Idle memory of the server on an empty store: read shortly after start, and again once it has
 * sat idle for a while (the target's figure: V8 and the allocator hand start-up's garbage back
 * only after some quiet seconds).
 */
async function idleFootprint(mode, store, lines) {
  progress(`${mode}: idle footprint on an empty store`);
  const server = await stores.startServer(store);
  try {
    await sleep(IDLE_FIRST_READ_MS);
    const early = memoryMiB(server.pid);
    await sleep(IDLE_SETTLE_MS - IDLE_FIRST_READ_MS);
    const settled = memoryMiB(server.pid);
    const what = mode === 'embedded' ? 'embedded idle, empty database' : 'PostgreSQL mode idle, empty catalogue';
    lines.push(`${what}, after ${IDLE_SETTLE_MS / 1000} s idle: ${settled.rss} MiB (target <= ${FOOTPRINT_TARGETS[mode].idle})`);
    lines.push(`  ${IDLE_FIRST_READ_MS / 1000} s after it answered ready: ${early.rss} MiB; its peak while starting: ${early.peak} MiB`);
  } finally {
    await server.stop();
  }
}

/**
 * Measures `measure` with the server's event-loop delay around it (prom-client resets its
 * histogram at each scrape), and its response-cache hits and misses meanwhile.
 */
async function withEventLoop(server, measure) {
  const before = await scrape(server.base, server.metricsToken);
  const heapBefore = await probe(server);
  const result = await measure();
  const inside = await probe(server);
  const after = await scrape(server.base, server.metricsToken);
  const gc = inside && heapBefore ? { ...inside, heapBeforeMiB: heapBefore.heapUsedMiB } : null;
  return {
    result,
    eventLoop: { ...after, gc },
    cache: { hits: after.cacheHits - before.cacheHits, misses: after.cacheMisses - before.cacheMisses },
  };
}

const mib = (n) => `${Math.round(n)} MiB`;

/** The event-loop delay line, and the GC pauses and heap from perf_hooks inside the server (probe.js). */
function eventLoopLine(what, eventLoop) {
  const line = `event-loop delay p99 during ${what}: ${ms(eventLoop.eventLoopP99Ms)} (target <= 50); max ${ms(eventLoop.eventLoopMaxMs)}`;
  const { gc } = eventLoop;
  if (!gc) return line;
  const kinds = Object.entries(gc.gc.byKind)
    .map(([kind, k]) => `${kind} ${k.count}× ${ms(k.totalMs)} max ${ms(k.maxMs)}`)
    .join(', ');
  return (
    `${line}\n  GC pauses: p99 ${ms(gc.gc.p99Ms)}, max ${ms(gc.gc.maxMs)}, total ${ms(gc.gc.totalMs)} in ${gc.gc.count}${kinds ? ` (${kinds})` : ''}; ` +
    `heap used before ${mib(gc.heapBeforeMiB)}, after ${mib(gc.heapUsedMiB)} (of ${mib(gc.heapTotalMiB)})`
  );
}

/** A ratio to the one-row ceiling, written once the ceiling's second measurement is in. */
const ratioTo = (ceiling, rps) => () => (ceiling.rps > 0 ? (rps / ceiling.rps).toFixed(2) : 'n/a');

async function cacheHitScenarios({ server, sameSql, slug, ceiling, s, budget, lines, p99Targets }) {
  for (const c of CACHE_HIT) {
    const what = `(${c.id}) ${c.what} (cache hit)`;
    if (!budget.allows(2 * (s.warmupS + s.durationS) + 10)) {
      lines.push(`${what}: skipped, the time budget is spent`);
      continue;
    }
    progress(what);
    await drained(server.base, server.metricsToken);
    const url = `${server.base}${c.path(slug)}`;
    if (s.warmupS) await run({ url, durationS: s.warmupS });
    const { result: ours, eventLoop, cache } = await withEventLoop(server, () => run({ url, durationS: s.durationS }));
    await drained(server.base, server.metricsToken);
    const bareUrl = `${sameSql.url}/${c.id}/${slug}`;
    if (s.warmupS) await run({ url: bareUrl, durationS: s.warmupS });
    await quiet(sameSql.idle);
    const bare = await run({ url: bareUrl, durationS: s.durationS });
    await quiet(sameSql.idle);
    const bareFailed = bare.failed ? `, ${bare.failed} failed [${bare.failures}]` : '';
    const ratio = bare.rps > 0 ? (ours.rps / bare.rps).toFixed(2) : 'n/a';
    const vsCeiling = ratioTo(ceiling, ours.rps);
    lines.push(
      () =>
        `${what} ... ${figures(ours, p99Targets ? c.p99 : null)}, ${cache.hits} response-cache hits; same-SQL bare server ${round(bare.rps)} req/s, p99 ${ms(bare.p99)}${bareFailed} ... ratio ${ratio} (target >= ${c.target}); ${vsCeiling()} of the one-row ceiling`,
    );
    lines.push(eventLoopLine(what, eventLoop));
  }
}

/**
 * The one-row ceiling: random slugs (repeats do not matter, it caches nothing) for the full
 * duration. Measured at the start and at the end of a store's run; ratios use the mean, so a
 * shared machine's drift weighs on both sides alike.
 */
async function measureCeiling({ ceiling, slugs, poolSize, s, lines, when }) {
  progress(`one-row ceiling, ${when}`);
  const random = prng(SEED + 2);
  const next = () => `/${encodeURIComponent(slugs[random.int(slugs.length)])}`;
  if (s.warmupS) await run({ url: ceiling.url, next, durationS: s.warmupS });
  await quiet(ceiling.idle);
  const result = await run({ url: ceiling.url, next, durationS: s.durationS });
  await quiet(ceiling.idle);
  lines.push(
    `one-row ceiling, ${when} (bare node:http + pg, pool of ${poolSize}, SELECT * FROM plugin WHERE slug = $1, random slugs) ... ${figures(result)}`,
  );
  return result;
}

async function distinctScenarios({ server, requests, ceiling, ledger, s, budget, lines, p99Targets }) {
  for (const d of DISTINCT.filter((x) => s.groups.includes(x.group))) {
    const pool = requests[d.key];
    const what = d.what.replace('1-N', `1-${requests.deepestPage}`);
    if (pool.paths.length === 0) {
      lines.push(`${what}: skipped, no paths (the catalogue is too small)`);
      continue;
    }
    if (!budget.allows(s.warmupS + s.durationS + 35)) {
      lines.push(`${what}: skipped, the time budget is spent`);
      continue;
    }
    progress(what);
    if (!(await drained(server.base, server.metricsToken))) progress('the server was still busy with the last run after 30 s; going on');
    if (s.warmupS) await runPool({ url: server.base, paths: pool.warmup, ledger, durationS: s.warmupS });
    await drained(server.base, server.metricsToken);
    const { result, eventLoop, cache } = await withEventLoop(server, () =>
      runPool({ url: server.base, paths: pool.paths, ledger, durationS: s.durationS }),
    );
    const ratio = ratioTo(ceiling, result.rps);
    lines.push(() => `${what} ... ${figures(result, p99Targets ? d.p99 : null)} ... ratio ${ratio()} (target >= ${d.target})`);
    const spent = result.handedOut >= pool.paths.length ? `, the whole pool of ${pool.paths.length}` : ` of a pool of ${pool.paths.length}`;
    const mix = pool.describe(result.handedOut);
    // The server's own count: a response-cache hit here would mean a repeated request (or a cache key wider than a URL).
    const cached = `response cache: ${cache.hits} hits, ${cache.misses} misses`;
    lines.push(
      `  ${result.handedOut} requests in ${result.seconds.toFixed(1)} s${spent}, each path once (${cached})${mix ? `; ${d.key === 'crowd' ? 'mix' : 'terms'}: ${mix}` : ''}`,
    );
    lines.push(eventLoopLine(what, eventLoop));
  }
}

/** The in-memory search index's size, when the server exposes it as registry_search_index_bytes. */
async function searchIndexLine(server, plugins) {
  const { searchIndexBytes } = await scrape(server.base, server.metricsToken);
  if (searchIndexBytes === null) return 'catalogue in memory: not exposed (the server has no registry_search_index_bytes metric)';
  return `catalogue in memory (search index and list items): ${Math.round(searchIndexBytes / plugins)} bytes a plugin at ${plugins} plugins (target <= ${SEARCH_INDEX_TARGET})`;
}

/** One store's part: footprint, catalogue, server, ceilings, scenarios. */
async function benchMode(mode, s, budget, lines) {
  const plugins = mode === 'postgres' ? s.plugins : s.embeddedPlugins;
  let store;
  let connection;
  let releaseStore = async () => undefined;
  if (mode === 'postgres') {
    if (!process.env.DATABASE_URL) {
      lines.push('skipped: set DATABASE_URL to a PostgreSQL server (this part seeds 100k plugins there)');
      return;
    }
    if (s.groups.includes('footprint')) {
      const empty = `registry_bench_empty_${process.pid}`;
      const emptyUrl = await stores.postgresDatabase(process.env.DATABASE_URL, empty, { fresh: true });
      try {
        await idleFootprint(mode, { DATABASE_URL: emptyUrl }, lines);
      } finally {
        await stores.dropPostgresDatabase(process.env.DATABASE_URL, empty);
      }
    }
    // One database for each size, so a quick small run leaves the full seed alone.
    const url = await stores.postgresDatabase(
      process.env.DATABASE_URL,
      plugins === 100_000 ? 'registry_bench_catalogue' : `registry_bench_catalogue_${plugins}`,
    );
    store = { DATABASE_URL: url };
    connection = { connectionString: url };
  } else {
    if (s.groups.includes('footprint')) {
      const empty = `${stores.embeddedDataDir(0)}-${process.pid}`;
      try {
        await idleFootprint(mode, { DATA_DIR: empty }, lines);
      } finally {
        fs.rmSync(empty, { recursive: true, force: true });
      }
    }
    store = { DATA_DIR: stores.embeddedDataDir(plugins) };
    progress(`embedded: opening ${store.DATA_DIR}`);
    const engine = await stores.openEmbedded(store.DATA_DIR);
    connection = engine.connection;
    releaseStore = engine.stop;
  }

  progress(`${mode}: preparing ${plugins} plugins`);
  let catalogue;
  try {
    catalogue = await stores.prepareCatalogue({ connection, seedEnv: stores.seedEnvironment(store), plugins, releases: RELEASES });
  } finally {
    await releaseStore();
  }
  lines.push(...catalogue.lines);
  const slugs = catalogue.slugs;
  const requests = distinctRequests(slugs, { searchPaths: SEARCH_PATHS_PER_SECOND * s.durationS, warmupPaths: WARMUP_PATHS });
  requests.changes = changesRequests(catalogue.events, { paths: SEARCH_PATHS_PER_SECOND * s.durationS, warmupPaths: WARMUP_PATHS });
  requests.changesAtHead = changesAtHeadRequests(catalogue.events, { warmupPaths: WARMUP_PATHS });
  if (s.groups.includes('changes')) lines.push(`changes feed: ${catalogue.events} changes seeded`);
  const poolSize = stores.serverPoolSize(mode);

  progress(`${mode}: starting the server`);
  const server = await stores.startServer(store);
  // The server builds its catalogue index after it answers ready: measured meanwhile, the
  // ceiling shares the machine with that build (the first ceiling ran at 1,291-1,346 req/s, the
  // last at 1,785-2,214). Every run starts once it is built.
  const built = await quiet(
    async () => (await scrape(server.base, server.metricsToken).catch(() => null))?.searchIndexPlugins === plugins,
    180_000,
  );
  if (!built) progress(`${mode}: the catalogue index did not reach ${plugins} plugins in 180 s; going on`);
  // The seed writes by SQL, so at the first start after it every plugin's stored page is built at
  // once (a registry builds each a second after the write that changed it): runs start after.
  const pagesSince = Date.now();
  const atStart = (await scrape(server.base, server.metricsToken).catch(() => null))?.pluginPagesStale;
  const pagesBuilt = await quiet(
    async () => (await scrape(server.base, server.metricsToken).catch(() => null))?.pluginPagesStale === 0,
    600_000,
  );
  const pagesWhat =
    mode === 'postgres' ? 'stored plugin pages' : 'plugin pages (not stored on the embedded default; its change log cleared)';
  const pagesLine = pagesBuilt
    ? `${pagesWhat}: ${atStart ?? 'n/a'} waiting when the catalogue index was built, none ${Math.round((Date.now() - pagesSince) / 1000)} s later`
    : `${pagesWhat}: still waiting after 600 s; going on`;
  // The embedded engine is the server's now: the bare servers reach it through its socket, as the operator CLI does.
  const oneRow = await startOneRowCeiling(connection, poolSize, await stores.freePort());
  const sameSql = s.groups.includes('cache') ? await startSameSqlCeiling(connection, poolSize, await stores.freePort()) : null;
  const modeLines = [];
  try {
    modeLines.push(
      `server: production build, ${mode === 'postgres' ? `PostgreSQL, response cache in ${process.env.REDIS_URL ? 'Redis' : 'memory'}` : 'embedded PGlite'}, ${plugins} plugins; ` +
        `${CONNECTIONS} connections, runs of at most ${s.durationS} s after ${s.warmupS} s warm-up; ` +
        'event-loop delay from prom-client (sampled every 10 ms, which it includes)',
    );
    // The p99 targets are for PostgreSQL; on the embedded engine, only the ratios. Its one
    // engine thread answers 32 connections in turn, so its p99 is about 32 / throughput.
    modeLines.push(pagesLine);
    const p99Targets = mode === 'postgres';
    if (!p99Targets)
      modeLines.push(
        'embedded: ratio targets only (one engine thread queues all 32 connections: p99 ~ 32 / throughput); p99 printed without a target',
      );
    const ceilingArgs = { ceiling: oneRow, slugs, poolSize, s, lines: modeLines };
    const first = await measureCeiling({ ...ceilingArgs, when: 'at the start' });
    const ceiling = { rps: first.rps };
    if (sameSql)
      await cacheHitScenarios({
        server,
        sameSql,
        slug: slugs[Math.min(4321, slugs.length - 1)],
        ceiling,
        s,
        budget,
        lines: modeLines,
        p99Targets,
      });
    const ledger = new PathLedger();
    await distinctScenarios({ server, requests, ceiling, ledger, s, budget, lines: modeLines, p99Targets });
    if (ledger.size) modeLines.push(`distinct scenarios: ${ledger.size} paths requested (warm-up included), none twice`);
    if (budget.allows(s.warmupS + s.durationS + 10)) {
      const last = await measureCeiling({ ...ceilingArgs, when: 'at the end' });
      ceiling.rps = (first.rps + last.rps) / 2;
      modeLines.push(`ratios are to the mean of the two: ${round(ceiling.rps)} req/s`);
    } else {
      modeLines.push('one-row ceiling, at the end: skipped, the time budget is spent; ratios are to the first');
    }
    modeLines.push(await searchIndexLine(server, plugins));
    if (s.groups.includes('footprint')) {
      const memory = memoryMiB(server.pid);
      const target = FOOTPRINT_TARGETS[mode].peak;
      const what =
        mode === 'embedded'
          ? `embedded peak under the benchmark, ${plugins} plugins`
          : `PostgreSQL mode peak under the benchmark, ${plugins} plugins`;
      modeLines.push(
        `${what}: ${memory.peak} MiB${target ? ` (target <= ${target})` : ''}; ${memory.rss} MiB at the end (the peak is VmHWM, start included)`,
      );
    }
    // Last: it ends the server's life (a new process serves after it).
    if (s.groups.includes('restart') && mode === 'postgres') {
      if (budget.allows(70)) {
        progress('restart under load');
        modeLines.push(...(await restartScenario({ server, pool: requests.restart, ledger, plugins })));
      } else {
        modeLines.push('restart under load: skipped, the time budget is spent');
      }
    }
  } finally {
    lines.push(...modeLines.map((line) => (typeof line === 'function' ? line() : line)));
    await oneRow.close();
    await sameSql?.close();
    await server.stop();
  }
}

module.exports = async function catalogueBenchmark() {
  const s = settings();
  startedAt = Date.now();
  const budget = new Budget(s.budgetS);
  const lines = [];
  for (const mode of s.modes) {
    lines.push(
      mode === 'postgres' ? `### PostgreSQL, ${s.plugins} plugins` : `### embedded (PGlite, DATA_DIR only), ${s.embeddedPlugins} plugins`,
    );
    try {
      await benchMode(mode, s, budget, lines);
    } catch (error) {
      lines.push(`${mode}: failed: ${error && error.stack ? error.stack : error}`);
    }
  }
  return lines;
};

if (require.main === module) {
  module.exports().then(
    (lines) => lines.forEach((line) => console.log(line)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
