import type { Clock } from '../common/clock';
import { OccasionalWarning } from '../common/logging/occasional-warning';
import type { SettingValues } from '../settings/setting-definitions';
import type { RateLimitRule } from './rate-limit-rules';
import type { CounterStore } from './stores/counter-store';

export const RATE_LIMIT_WINDOW_MS = 60_000;
/** How long limits read from the settings are reused before being read again. */
export const LIMITS_MAX_AGE_MS = 5_000;

export type RateLimitDecision =
  | { outcome: 'allowed' }
  | { outcome: 'limited'; limit: number; retryAfterSeconds: number }
  /** The counter store failed and the rule fails closed. */
  | { outcome: 'unavailable'; retryAfterSeconds: number };

export interface RateLimitLog {
  warn(message: string): void;
}

const STORE_FAILURE_RETRY_AFTER_S = 5;

/**
 * Fixed one-minute windows aligned to the clock: a subject's counter for the window holding "now"
 * is incremented, and once it passes the limit the request is refused until the window ends
 * (Retry-After). Fixed windows cost one atomic round trip a request; the price is that a subject
 * may spend two windows' worth across a window boundary. Every instance computes the same window
 * from its clock, so instances sharing Redis share each counter (clocks kept by NTP).
 */
export class RateLimiter {
  private limits: { values: Pick<SettingValues, RateLimitRule['setting']>; loadedAtMs: number } | null = null;
  private readonly failures: OccasionalWarning;
  /** Moves on every change, so a read begun before it cannot store the old limits. */
  private generation = 0;
  private loading: Promise<Pick<SettingValues, RateLimitRule['setting']>> | null = null;

  constructor(
    private readonly store: CounterStore,
    private readonly readLimits: () => Promise<SettingValues>,
    private readonly clock: Clock,
    log: RateLimitLog,
  ) {
    this.failures = new OccasionalWarning((message) => log.warn(message), () => clock.nowMs());
  }

  /** Forget the cached limits (a settings change through this instance). */
  limitsChanged(): void {
    this.generation += 1;
    this.limits = null;
    this.loading = null;
  }

  async check(rule: RateLimitRule): Promise<RateLimitDecision> {
    const limit = (await this.currentLimits())[rule.setting];
    const now = this.clock.nowMs();
    const window = Math.floor(now / RATE_LIMIT_WINDOW_MS);
    const windowEndMs = (window + 1) * RATE_LIMIT_WINDOW_MS;
    let count: number;
    try {
      // The counter outlives its window by a little, for instances whose clocks lag behind.
      count = await this.store.hit(`${rule.bucket}:${window}:${rule.subject}`, windowEndMs - now + 5_000);
    } catch (error) {
      this.reportFailure(error);
      return rule.failOpen ? { outcome: 'allowed' } : { outcome: 'unavailable', retryAfterSeconds: STORE_FAILURE_RETRY_AFTER_S };
    }
    if (count <= limit) return { outcome: 'allowed' };
    return { outcome: 'limited', limit, retryAfterSeconds: Math.max(1, Math.ceil((windowEndMs - now) / 1000)) };
  }

  private currentLimits(): Promise<Pick<SettingValues, RateLimitRule['setting']>> {
    const now = this.clock.nowMs();
    if (this.limits && now - this.limits.loadedAtMs < LIMITS_MAX_AGE_MS && now >= this.limits.loadedAtMs) return Promise.resolve(this.limits.values);
    // One read at a time, however many requests arrive while it runs.
    this.loading ??= this.reload(now).finally(() => (this.loading = null));
    return this.loading;
  }

  private async reload(now: number): Promise<Pick<SettingValues, RateLimitRule['setting']>> {
    const generation = this.generation;
    try {
      const values = await this.readLimits();
      if (generation === this.generation) this.limits = { values, loadedAtMs: now };
      return values;
    } catch (error) {
      // The database is away: the last limits known stay in force for another while, so answers
      // the response cache can still give are not lost to (or held up by) a settings read.
      if (!this.limits) throw error;
      this.limits = { values: this.limits.values, loadedAtMs: now };
      return this.limits.values;
    }
  }

  private reportFailure(error: unknown): void {
    this.failures.say(`rate-limit counters unavailable (reads and webhooks pass, publish and sign-in are refused): ${(error as Error).message}`);
  }
}
