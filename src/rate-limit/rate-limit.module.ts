import { Logger, Module } from '@nestjs/common';
import { Clock } from '../common/clock';
import { SharedRedis } from '../common/redis/shared-redis';
import { SettingsModule } from '../settings/settings.module';
import { SettingsService } from '../settings/settings.service';
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
 * Request rate limits (DECISIONS 10): counters in Redis when REDIS_URL is set, so instances share
 * them, else in memory; limits from the `ratelimit.*` settings. The middleware is mounted by
 * app.factory ahead of the response cache.
 */
@Module({
  imports: [SettingsModule],
  providers: [{ provide: RateLimiter, inject: [SharedRedis, SettingsService, Clock], useFactory: openRateLimiter }],
  exports: [RateLimiter],
})
export class RateLimitModule {}
