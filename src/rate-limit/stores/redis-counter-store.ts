import type Redis from 'ioredis';
import type { CounterStore } from './counter-store';

/** INCR and, on the first hit, PEXPIRE in one atomic step: no counter is ever left without expiry. */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

type WithHit = Redis & { registryRateLimitHit(key: string, ttlMs: number): Promise<number> };

/** Counters in Redis, shared by every instance of one registry (keys under its prefix). */
export class RedisCounterStore implements CounterStore {
  private readonly redis: WithHit;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    // defineCommand sends EVALSHA and falls back to EVAL once after a Redis restart.
    if (!('registryRateLimitHit' in redis)) redis.defineCommand('registryRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as WithHit;
  }

  async hit(key: string, ttlMs: number): Promise<number> {
    return Number(await this.redis.registryRateLimitHit(`${this.prefix}:${key}`, Math.max(1, Math.ceil(ttlMs))));
  }
}
