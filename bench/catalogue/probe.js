'use strict';
// Preloaded into the benchmark's server (NODE_OPTIONS=--require) and nowhere else: the figures
// the server's /metrics gives too coarsely. prom-client's GC histogram has buckets of 1, 10 and
// 100 ms, too wide to tell a 3 ms scavenge from a 40 ms mark-compact, and it has no heap figure
// taken at a chosen moment. perf_hooks gives every pause exactly. Served on a loopback port of its
// own (BENCH_PROBE_PORT), so the registry's code and routes are untouched.
const http = require('node:http');
const { constants, monitorEventLoopDelay } = require('node:perf_hooks');
const v8 = require('node:v8');
const { isMainThread } = require('node:worker_threads');

// Worker threads and child processes (the embedded database's, the README renderers') load
// NODE_OPTIONS' preloads too: only the server's main thread listens, or the second listen on the
// port stops the server.
const port = isMainThread ? Number(process.env.BENCH_PROBE_PORT) : 0;
if (isMainThread) delete process.env.BENCH_PROBE_PORT;
if (port > 0) {
  const KINDS = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  let pauses = [];
  const observer = new globalThis.PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ ms: entry.duration, kind: KINDS[entry.detail?.kind] ?? 'other' });
  });
  observer.observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();

  const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0);
  // GET /reset: figures since the previous /reset (pauses, event-loop delay), and the heap now.
  const server = http.createServer((req, res) => {
    const taken = pauses;
    pauses = [];
    const ms = taken.map((p) => p.ms).sort((a, b) => a - b);
    const byKind = {};
    for (const p of taken) {
      const k = (byKind[p.kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
      k.count += 1;
      k.totalMs += p.ms;
      k.maxMs = Math.max(k.maxMs, p.ms);
    }
    // GET /gc (a server started with --expose-gc, for an investigation): the live heap after a full collection.
    if (req.url === '/gc' && typeof global.gc === 'function') global.gc();
    const heap = v8.getHeapStatistics();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, Math.round(x.space_used_size / 1048576)]));
    const body = JSON.stringify({
      gc: { count: ms.length, p99Ms: quantile(ms, 0.99), maxMs: ms.at(-1) ?? 0, totalMs: ms.reduce((a, b) => a + b, 0), byKind },
      eventLoop: { p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 },
      heapUsedMiB: heap.used_heap_size / 1048576,
      heapTotalMiB: heap.total_heap_size / 1048576,
      externalMiB: heap.external_memory / 1048576,
      spacesMiB: spaces,
    });
    if (req.url === '/reset') delay.reset();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  server.listen(port, '127.0.0.1');
  server.unref();
}
