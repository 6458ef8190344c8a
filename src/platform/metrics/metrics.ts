import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** `abandoned`: its client disconnected before it finished, so it stopped and recorded nothing. */
export type IngestOutcome = 'published' | 'rejected' | 'failed' | 'abandoned';

/** Values read at scrape time (queue depth, pool use): each gauge asks for its numbers then. */
export interface ScrapeSources {
  deliveriesByStatus(): Promise<Record<string, number>>;
  pool(): { total: number; idle: number; waiting: number; max: number } | null;
}

/**
 * The instance's Prometheus instruments, in a registry of its own (several apps may share a
 * process in tests). Labels stay bounded: routes are templates (`/api/plugins/:slug`), never
 * paths, and anything that matched no route is `unmatched`.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'registry_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly ingestDuration = new Histogram({
    name: 'registry_ingest_duration_seconds',
    help: 'Release ingest time (validate, fetch and hash, render, sign, record) by source and outcome',
    labelNames: ['source', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [this.registry],
  });
  private readonly cacheRequests = new Counter({
    name: 'registry_response_cache_requests_total',
    help: 'Anonymous catalogue reads answered from the response cache (hit) or not (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly strayErrors = new Counter({
    name: 'registry_stray_errors_total',
    help: 'Errors thrown outside any request handler (a response hook, a timer, an event listener, a promise nobody awaited) that were logged and survived',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  private readonly mirrorRefusals = new Counter({
    name: 'registry_mirror_refusals_total',
    help: "Upstream releases a mirror (MIRROR_OF) refused because their signature, manifest or an asset did not verify, by the verifier's code",
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  private readonly searchIndexBytes = new Gauge({
    name: 'registry_search_index_bytes',
    help: "The in-memory catalogue's approximate size: the index (search, filters, sorts) and the list items",
    registers: [this.registry],
  });
  private readonly searchIndexPlugins = new Gauge({
    name: 'registry_search_index_plugins',
    help: 'Plugins in the in-memory catalogue index',
    registers: [this.registry],
  });
  private readonly pluginPagesStale = new Gauge({
    name: 'registry_plugin_pages_stale',
    help: 'Plugins whose stored page waits to be built again after a write (all instances); their pages are read as they are meanwhile',
    registers: [this.registry],
  });
  private sources: ScrapeSources | null = null;

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'registry_' });
    // Unknown until the builder's first count: never a 0 that only means "not looked yet".
    this.pluginPagesStale.set(NaN);
    const sources = () => this.sources;
    // Read first, before the scrape's own query takes a connection.
    new Gauge({
      name: 'registry_db_pool_connections',
      help: "This instance's database connections: total, idle, waiting (requests queued for one) and max",
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const pool = sources()?.pool();
        if (!pool) return;
        for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, pool[state]);
      },
    });
    new Gauge({
      name: 'registry_webhook_deliveries',
      help: 'Webhook deliveries by status; queued and processing are the queue depth (all instances)',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        const counts = (await sources()?.deliveriesByStatus()) ?? {};
        for (const [status, count] of Object.entries(counts)) this.set({ status }, count);
      },
    });
  }

  scrapeFrom(sources: ScrapeSources): void {
    this.sources = sources;
  }

  observeHttp(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  observeIngest(source: string, outcome: IngestOutcome, seconds: number): void {
    this.ingestDuration.observe({ source, outcome }, seconds);
  }

  observeCache(result: 'hit' | 'miss'): void {
    this.cacheRequests.inc({ result });
  }

  observeSearchIndex(bytes: number, plugins: number): void {
    this.searchIndexBytes.set(bytes);
    this.searchIndexPlugins.set(plugins);
  }

  observePluginPagesStale(plugins: number): void {
    this.pluginPagesStale.set(plugins);
  }

  observeMirrorRefusal(code: string): void {
    this.mirrorRefusals.inc({ code });
  }

  observeStrayError(source: string): void {
    this.strayErrors.inc({ source });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
