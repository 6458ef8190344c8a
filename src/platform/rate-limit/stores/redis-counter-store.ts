import type Redis from 'ioredis';
import type { CounterStore } from './counter-store';

/** INCR and, on the first hit, PEXPIRE in one atomic step: no counter is ever left without expiry. */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/** DECR only a counter that exists: a DECR on a missing key would create one without expiry. */
const RELEASE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * The cooldown's end is stored and compared in the caller's clock (as the windows are), so every
 * instance judges it alike; the key outlives the end by a little, for clocks that lag behind.
 */
const CLAIM_SCRIPT = `
local now = tonumber(ARGV[1])
local running = tonumber(redis.call('GET', KEYS[1]) or '0')
if running > now then return running - now end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 0`;

const CLOCK_SLACK_MS = 5_000;

type WithScripts = Redis & {
  registryRateLimitHit(key: string, ttlMs: number): Promise<number>;
  registryRateLimitRelease(key: string): Promise<number>;
  registryRateLimitClaim(key: string, nowMs: number, untilMs: number, ttlMs: number): Promise<number>;
};

/** Counters in Redis, shared by every instance of one registry (keys under its prefix). */
export class RedisCounterStore implements CounterStore {
  private readonly redis: WithScripts;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    // defineCommand sends EVALSHA and falls back to EVAL once after a Redis restart.
    if (!('registryRateLimitHit' in redis)) redis.defineCommand('registryRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    if (!('registryRateLimitRelease' in redis)) redis.defineCommand('registryRateLimitRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    if (!('registryRateLimitClaim' in redis)) redis.defineCommand('registryRateLimitClaim', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
    this.redis = redis as WithScripts;
  }

  async hit(key: string, ttlMs: number): Promise<number> {
    return Number(await this.redis.registryRateLimitHit(this.name(key), Math.max(1, Math.ceil(ttlMs))));
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.name(key))) ?? 0);
  }

  async release(key: string): Promise<void> {
    await this.redis.registryRateLimitRelease(this.name(key));
  }

  async claim(key: string, nowMs: number, untilMs: number): Promise<number> {
    const ttlMs = Math.max(1, Math.ceil(untilMs - nowMs + CLOCK_SLACK_MS));
    return Number(await this.redis.registryRateLimitClaim(this.name(key), nowMs, untilMs, ttlMs));
  }

  private name(key: string): string {
    return `${this.prefix}:${key}`;
  }
}
