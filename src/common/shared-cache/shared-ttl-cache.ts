import type { Clock } from '../clock';
import { OccasionalWarning } from '../logging/occasional-warning';
import type { TtlStore } from './ttl-store';

export interface SharedCacheLog {
  warn(message: string): void;
}

/**
 * Values computed at most once per TTL for every instance that shares the store. An entry carries
 * the clock time it expires at (instances' clocks are kept by NTP), so all instances agree when it
 * is stale. Callers in this process that arrive while a value is computed share that computation.
 * A store that fails is a miss: the value is computed and answered, never an error.
 */
export class SharedTtlCache<T> {
  private readonly inFlight = new Map<string, Promise<T>>();
  private readonly failures: OccasionalWarning;

  constructor(
    private readonly store: TtlStore,
    private readonly name: string,
    private readonly ttlMs: number,
    private readonly clock: Clock,
    log: SharedCacheLog,
  ) {
    this.failures = new OccasionalWarning((message) => log.warn(message));
  }

  async get(key: string, compute: () => Promise<T>): Promise<T> {
    const stored = await this.read(key);
    if (stored !== undefined) return stored;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.computeAndStore(key, compute);
      this.inFlight.set(key, pending);
      const clear = () => void this.inFlight.delete(key);
      pending.then(clear, clear);
    }
    return pending;
  }

  private async read(key: string): Promise<T | undefined> {
    try {
      const text = await this.store.get(`${this.name}:${key}`);
      if (text === null) return undefined;
      const entry = JSON.parse(text) as { expiresAt: number; value: T };
      return entry.expiresAt > this.clock.nowMs() ? entry.value : undefined;
    } catch (error) {
      this.reportFailure('read', error);
      return undefined;
    }
  }

  private async computeAndStore(key: string, compute: () => Promise<T>): Promise<T> {
    const value = await compute();
    try {
      await this.store.set(`${this.name}:${key}`, JSON.stringify({ expiresAt: this.clock.nowMs() + this.ttlMs, value }), this.ttlMs);
    } catch (error) {
      this.reportFailure('write', error);
    }
    return value;
  }

  private reportFailure(operation: string, error: unknown): void {
    this.failures.say(`${this.name} cache ${operation} failed, computing the value here: ${(error as Error).message}`);
  }
}
