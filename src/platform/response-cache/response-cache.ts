import { OccasionalWarning } from '../../common/logging/occasional-warning';
import { statementReuseUntilMs } from '../../lib/freshness';
import { Doorkeeper } from '../../common/doorkeeper';
import type { CachedResponse, ResponseCacheStore } from './stores/store';

export interface ResponseCacheLog {
  warn(message: string): void;
}

/**
 * The catalogue's response cache over a store (memory or Redis). Never the reason a request
 * fails: a store that errors is a miss, and the database answers. An answer is stored on its
 * second ask (the doorkeeper, one per instance): the first miss of a key is answered and marked.
 */
export class ResponseCache {
  private readonly failures: OccasionalWarning;
  private readonly doorkeeper = new Doorkeeper();

  constructor(
    private readonly store: ResponseCacheStore | null,
    private readonly ttlMs: number,
    log: ResponseCacheLog,
    private readonly now: () => number = Date.now,
  ) {
    this.failures = new OccasionalWarning((message) => log.warn(message));
  }

  get enabled(): boolean {
    return this.store !== null;
  }

  /** The entry for `key`, and the generation to store a miss's answer under (null: store nothing, a marked write is under way). */
  async lookup(key: string): Promise<{ generation: string | null; entry: CachedResponse | null } | null> {
    if (!this.store) return null;
    try {
      const found = await this.store.read(key);
      // The store's TTL runs on its own clock (Redis's); the bound runs on ours.
      if (found.entry?.notAfter !== undefined && found.entry.notAfter <= this.now()) return { generation: found.generation, entry: null };
      return found;
    } catch (error) {
      this.reportFailure('read', error);
      return null;
    }
  }

  async remember(key: string, generation: string | null, entry: CachedResponse): Promise<void> {
    if (!this.store || generation === null || !this.doorkeeper.admits(key)) return;
    const bounded = this.bounded(entry);
    if (!bounded) return;
    try {
      await this.store.write(key, generation, bounded.entry, bounded.ttlMs);
    } catch (error) {
      this.reportFailure('write', error);
    }
  }

  /**
   * An answer carrying a freshness statement is kept no longer than the statement may be served
   * (the end of its reissue period, when every instance issues the next): a hit never replays an expired statement,
   * nor one older than an instance has served since. Null when that moment has passed.
   */
  private bounded(entry: CachedResponse): { entry: CachedResponse; ttlMs: number } | null {
    const statement = entry.headers?.['Registry-Freshness'];
    if (statement === undefined) return { entry, ttlMs: this.ttlMs };
    const notAfter = statementReuseUntilMs(statement);
    if (notAfter === null) return null;
    const left = Math.floor(notAfter - this.now());
    return left > 0 ? { entry: { ...entry, notAfter }, ttlMs: Math.min(this.ttlMs, left) } : null;
  }

  /**
   * Runs a catalogue write whose changes commit when `work` resolves (its transaction), so that
   * readers never get an answer from before it once it may be visible: from before it starts
   * until the cache is emptied after it ends, no hit is served and no miss is stored (the
   * database answers). Emptying the cache after the commit alone left a moment in which a hit
   * still replayed the answer from before a publish that a miss, or a caller with credentials,
   * had already been answered after. Keep `work` short: the cache is off for
   * every reader meanwhile.
   */
  async writing<T>(work: () => Promise<T>): Promise<T> {
    const end = await this.beginWrite();
    try {
      return await work();
    } finally {
      await end();
    }
  }

  /**
   * `writing` for a write that learns only inside its transaction whether it changes anything (a
   * background pass that usually finds nothing to do, and must not empty the cache then): marks
   * the write now, before the commit; the function returned ends the mark once the transaction has
   * ended, committed or not.
   */
  async beginWrite(): Promise<() => Promise<void>> {
    const store = this.store;
    if (!store) return () => Promise.resolve();
    let marked = true;
    try {
      await store.beginWrite();
    } catch (error) {
      marked = false;
      this.reportFailure('invalidate', error);
    }
    return async () => {
      try {
        await (marked ? store.endWrite() : store.bump());
      } catch (error) {
        this.reportFailure('invalidate', error);
      }
    };
  }

  /** Retires every stored answer, on every instance sharing the store. Awaited before a write answers. */
  async invalidate(): Promise<void> {
    try {
      await this.store?.bump();
    } catch (error) {
      // Entries still expire after the TTL; the failure is said so an operator can see the window.
      this.reportFailure('invalidate', error);
    }
  }

  close(): Promise<void> {
    return this.store?.close() ?? Promise.resolve();
  }

  private reportFailure(operation: string, error: unknown): void {
    this.failures.say(`response cache ${operation} failed, answering from the database: ${(error as Error).message}`);
  }
}
