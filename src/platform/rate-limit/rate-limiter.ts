import type { Clock } from '../../common/clock';
import { OccasionalWarning } from '../../common/logging/occasional-warning';
import type { SettingValues } from '../settings/setting-definitions';
import {
  COOLDOWN_SETTINGS,
  type CooldownName,
  type CooldownSetting,
  LIMIT_WINDOWS_MS,
  type RateLimitRule,
  type RateLimitSetting,
} from './rate-limit-rules';
import type { CounterStore } from './stores/counter-store';

/** How long limits read from the settings are reused before being read again. */
export const LIMITS_MAX_AGE_MS = 5_000;

/**
 * A publish request counted against its client address while its bearer token is unverified;
 * `tokenVerified` moves it to the token's own bucket.
 */
export interface ProvisionalCharge {
  rule: RateLimitRule & { tokenSubject: string };
  /** The address counter it was added to (its window included). */
  key: string;
}

export type RateLimitDecision =
  | { outcome: 'allowed'; provisional?: ProvisionalCharge }
  | { outcome: 'limited'; limit: number; windowMs: number; retryAfterSeconds: number }
  /** The counter store failed and the rule fails closed. */
  | { outcome: 'unavailable'; retryAfterSeconds: number };

export type CooldownDecision =
  | { outcome: 'allowed' }
  | { outcome: 'cooling-down'; cooldownSeconds: number; retryAfterSeconds: number }
  | { outcome: 'unavailable'; retryAfterSeconds: number };

export interface RateLimitLog {
  warn(message: string): void;
}

type Limits = Pick<SettingValues, RateLimitSetting | CooldownSetting>;

const STORE_FAILURE_RETRY_AFTER_S = 5;
/** Counters outlive their window by a little, for instances whose clocks lag behind. */
const CLOCK_SLACK_MS = 5_000;

/**
 * Fixed windows aligned to the clock (a minute or an hour, by setting): a subject's counter for
 * the window holding "now" is incremented, and once it passes the limit the request is refused
 * until the window ends (Retry-After). Fixed windows cost one atomic round trip a request; the
 * price is that a subject may spend two windows' worth across a window boundary. Every instance
 * computes the same window from its clock, so instances sharing Redis share each counter (clocks
 * kept by NTP). Cooldowns (one action, then none for N seconds) are kept in the same store.
 */
export class RateLimiter {
  private limits: { values: Limits; loadedAtMs: number } | null = null;
  private readonly failures: OccasionalWarning;
  /** Moves on every change, so a read begun before it cannot store the old limits. */
  private generation = 0;
  private loading: Promise<Limits> | null = null;

  constructor(
    private readonly store: CounterStore,
    private readonly readLimits: () => Promise<SettingValues>,
    private readonly clock: Clock,
    log: RateLimitLog,
  ) {
    this.failures = new OccasionalWarning(
      (message) => log.warn(message),
      () => clock.nowMs(),
    );
  }

  /** Forget the cached limits (a settings change through this instance). */
  limitsChanged(): void {
    this.generation += 1;
    this.limits = null;
    this.loading = null;
  }

  /**
   * Counts the request against its rule. A rule with a `tokenSubject` whose token has been
   * counted in this window already (it verified) is counted there; otherwise it is counted
   * against the subject (the address), provisionally: see `tokenVerified`.
   */
  async check(rule: RateLimitRule): Promise<RateLimitDecision> {
    const limits = await this.currentLimits();
    try {
      if (rule.tokenSubject) {
        const tokenKey = this.key(rule, rule.tokenSubject);
        if ((await this.store.count(tokenKey)) > 0) return this.judge(rule, limits, await this.hit(rule, tokenKey));
      }
      const key = this.key(rule, rule.subject);
      const decision = this.judge(rule, limits, await this.hit(rule, key));
      if (decision.outcome === 'allowed' && rule.tokenSubject)
        return { outcome: 'allowed', provisional: { rule: { ...rule, tokenSubject: rule.tokenSubject }, key } };
      return decision;
    } catch (error) {
      return this.storeFailed(rule, error);
    }
  }

  /** The provisionally counted request's token verified: the address gets its count back, the token's bucket is charged. */
  async tokenVerified(charge: ProvisionalCharge): Promise<RateLimitDecision> {
    const { rule } = charge;
    const limits = await this.currentLimits();
    try {
      await this.store.release(charge.key);
      return this.judge(rule, limits, await this.hit(rule, this.key(rule, rule.tokenSubject)));
    } catch (error) {
      return this.storeFailed(rule, error);
    }
  }

  /**
   * Judges one more event against the rule without counting it: a look before work that must not
   * count when refused for another reason (a password attempt that finds no free hashing slot).
   */
  async peek(rule: RateLimitRule): Promise<RateLimitDecision> {
    const limits = await this.currentLimits();
    try {
      return this.judge(rule, limits, (await this.store.count(this.key(rule, rule.subject))) + 1);
    } catch (error) {
      return this.storeFailed(rule, error);
    }
  }

  /**
   * Counts one event against the rule and judges it, in one step, before the work it guards is
   * done (a password verification): concurrent events each see the others' counts, so no more
   * than the limit get through at once. `refund` hands the count back when the event turned out
   * not to count (a sign-in that succeeded). Reservations fail closed unless the rule fails open.
   */
  async reserve(rule: RateLimitRule): Promise<{ decision: RateLimitDecision; key: string | null }> {
    const limits = await this.currentLimits();
    const key = this.key(rule, rule.subject);
    try {
      return { decision: this.judge(rule, limits, await this.hit(rule, key)), key };
    } catch (error) {
      return { decision: this.storeFailed(rule, error), key: null };
    }
  }

  /** Hands back a count `reserve` took (null: nothing was counted). */
  async refund(key: string | null): Promise<void> {
    if (key === null) return;
    try {
      await this.store.release(key);
    } catch (error) {
      this.reportFailure(error);
    }
  }

  /** Starts the cooldown `name` for `subject`, unless one is running; cooldowns fail closed. */
  async startCooldown(name: CooldownName, subject: string): Promise<CooldownDecision> {
    const cooldownSeconds = (await this.currentLimits())[COOLDOWN_SETTINGS[name]];
    const now = this.clock.nowMs();
    try {
      const leftMs = await this.store.claim(`cooldown:${name}:${subject}`, now, now + cooldownSeconds * 1000);
      if (leftMs <= 0) return { outcome: 'allowed' };
      return { outcome: 'cooling-down', cooldownSeconds, retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
    } catch (error) {
      this.reportFailure(error);
      return { outcome: 'unavailable', retryAfterSeconds: STORE_FAILURE_RETRY_AFTER_S };
    }
  }

  private key(rule: RateLimitRule, subject: string): string {
    return `${rule.bucket}:${Math.floor(this.clock.nowMs() / LIMIT_WINDOWS_MS[rule.setting])}:${subject}`;
  }

  private hit(rule: RateLimitRule, key: string): Promise<number> {
    const windowMs = LIMIT_WINDOWS_MS[rule.setting];
    const now = this.clock.nowMs();
    return this.store.hit(key, windowMs - (now % windowMs) + CLOCK_SLACK_MS);
  }

  private judge(rule: RateLimitRule, limits: Limits, count: number): RateLimitDecision {
    const limit = limits[rule.setting];
    if (count <= limit) return { outcome: 'allowed' };
    const windowMs = LIMIT_WINDOWS_MS[rule.setting];
    const now = this.clock.nowMs();
    return { outcome: 'limited', limit, windowMs, retryAfterSeconds: Math.max(1, Math.ceil((windowMs - (now % windowMs)) / 1000)) };
  }

  private storeFailed(rule: RateLimitRule, error: unknown): RateLimitDecision {
    this.reportFailure(error);
    return rule.failOpen ? { outcome: 'allowed' } : { outcome: 'unavailable', retryAfterSeconds: STORE_FAILURE_RETRY_AFTER_S };
  }

  private currentLimits(): Promise<Limits> {
    const now = this.clock.nowMs();
    if (this.limits && now - this.limits.loadedAtMs < LIMITS_MAX_AGE_MS && now >= this.limits.loadedAtMs)
      return Promise.resolve(this.limits.values);
    // One read at a time, however many requests arrive while it runs.
    this.loading ??= this.reload(now).finally(() => (this.loading = null));
    return this.loading;
  }

  private async reload(now: number): Promise<Limits> {
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
    this.failures.say(
      `rate-limit counters unavailable (reads and webhooks pass; publish, sign-in and signed-in actions are refused): ${(error as Error).message}`,
    );
  }
}
