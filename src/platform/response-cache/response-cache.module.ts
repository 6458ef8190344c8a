import { Global, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Clock } from '../../common/clock';
import { RedisModule } from '../../common/redis/redis.module';
import { SharedRedis } from '../../common/redis/shared-redis';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { CatalogueWriteInterceptor } from './catalogue-write.interceptor';
import { ResponseCache } from './response-cache';
import { MemoryResponseStore } from './stores/memory-store';
import { RedisResponseStore } from './stores/redis-store';

/** An instance's own cache holds at most this many answers (and RESPONSE_CACHE_MEMORY_MB). */
const MEMORY_MAX_ENTRIES = 10_000;

function openResponseCache(config: AppConfig, redis: SharedRedis, clock: Clock): ResponseCache {
  const log = new Logger('ResponseCache');
  const now = () => clock.nowMs();
  if (config.responseCacheTtlSeconds === 0) return new ResponseCache(null, 0, log, now);
  const ttlMs = config.responseCacheTtlSeconds * 1000;
  if (!redis.client)
    return new ResponseCache(
      new MemoryResponseStore({ maxEntries: MEMORY_MAX_ENTRIES, maxBytes: config.responseCacheMemoryMb * 1024 * 1024 }),
      ttlMs,
      log,
      now,
    );
  return new ResponseCache(new RedisResponseStore(redis.client, `${redis.prefix}:responses`), ttlMs, log, now);
}

/**
 * The catalogue's response cache (issue "Catalogue", spec "Limits"): anonymous list, detail,
 * latest and release answers, in memory or in Redis when REDIS_URL is set, emptied by every
 * successful write through the API (the global interceptor) and by background changes.
 */
@Global()
@Module({
  imports: [RedisModule],
  providers: [
    { provide: ResponseCache, inject: [APP_CONFIG, SharedRedis, Clock], useFactory: openResponseCache },
    { provide: APP_INTERCEPTOR, useClass: CatalogueWriteInterceptor },
  ],
  exports: [ResponseCache],
})
export class ResponseCacheModule implements OnApplicationShutdown {
  constructor(private readonly cache: ResponseCache) {}

  async onApplicationShutdown(): Promise<void> {
    await this.cache.close();
  }
}
