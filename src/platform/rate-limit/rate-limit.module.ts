import { Logger, Module } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { SharedRedis } from '../../common/redis/shared-redis';
import { SettingsModule } from '../settings/settings.module';
import { SettingsService } from '../settings/settings.service';
import { RateLimitGate } from './rate-limit-gate';
import { RateLimiter } from './rate-limiter';
import { MemoryCounterStore } from './stores/memory-counter-store';
import { RedisCounterStore } from './stores/redis-counter-store';

function openRateLimiter(redis: SharedRedis, settings: SettingsService, clock: Clock): RateLimiter {
  const store = redis.client ? new RedisCounterStore(redis.client, `${redis.prefix}:ratelimit`) : new MemoryCounterStore(clock);
  const limiter = new RateLimiter(store, () => settings.all(), clock, new Logger('RateLimit'));
  settings.onChange(() => limiter.limitsChanged());
  return limiter;
}

/**
 * Request rate limits (docs/decisions.md#wishlist-pages-site-settings-and-rate-limits): counters in
 * Redis when REDIS_URL is set, so instances share them, else in memory; limits from the
 * `ratelimit.*` settings. The middleware is mounted by app.factory ahead of the response cache;
 * RateLimitGate judges the limits that need to know who is asking (a verified publisher token, a
 * signed-in user, a plugin's cooldown).
 */
@Module({
  imports: [SettingsModule],
  providers: [{ provide: RateLimiter, inject: [SharedRedis, SettingsService, Clock], useFactory: openRateLimiter }, RateLimitGate],
  exports: [RateLimiter, RateLimitGate],
})
export class RateLimitModule {}
