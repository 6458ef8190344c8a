import type { Clock } from '../../common/clock';

/** Where the cache gets its data: a cheap version probe and a full load labelled with its version. */
export interface VersionedSource<T> {
  version(): Promise<string>;
  load(): Promise<{ version: string; value: T }>;
}

export const SETTINGS_CACHE_MAX_AGE_MS = 5_000;

interface Snapshot<T> {
  version: string;
  loadedAtMs: number;
  value: T;
}

/**
 * A value cached in process for a few seconds that every instance invalidates: each read first
 * compares the source's version with the cached one (one primary-key lookup), so a change
 * committed anywhere is seen by the next read. The age limit only bounds how long a change the
 * version cannot see (a restored backup that rewinds it) stays hidden.
 */
export class VersionedCache<T> {
  private snapshot: Snapshot<T> | null = null;
  private loading: Promise<T> | null = null;
  /** Moves on `invalidate`, so a load begun before a local write can neither be joined nor kept. */
  private generation = 0;

  constructor(
    private readonly source: VersionedSource<T>,
    private readonly clock: Clock,
    private readonly maxAgeMs = SETTINGS_CACHE_MAX_AGE_MS,
  ) {}

  async get(): Promise<T> {
    const cached = this.snapshot;
    if (cached && this.clock.nowMs() - cached.loadedAtMs < this.maxAgeMs && (await this.source.version()) === cached.version) {
      return cached.value;
    }
    return this.reload();
  }

  /** Forget the cached value now (after a write through this instance). */
  invalidate(): void {
    this.generation += 1;
    this.snapshot = null;
    this.loading = null;
  }

  private reload(): Promise<T> {
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = Promise.resolve()
      .then(() => this.source.load())
      .then((loaded) => {
        if (generation === this.generation)
          this.snapshot = { version: loaded.version, loadedAtMs: this.clock.nowMs(), value: loaded.value };
        return loaded.value;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
    this.loading = loading;
    return loading;
  }
}
