import { Global, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { CatalogueWriteInterceptor } from './catalogue-write.interceptor';
import { RegistryIdentityRepository } from './registry-identity.repository';
import { ResponseCache } from './response-cache';
import { MemoryResponseStore } from './stores/memory-store';
import { RedisResponseStore } from './stores/redis-store';

/** An instance's own cache holds at most this much (each entry is one catalogue answer). */
const MEMORY_LIMITS = { maxEntries: 10_000, maxBytes: 64 * 1024 * 1024 };

async function openResponseCache(config: AppConfig, dataSource: DataSource): Promise<ResponseCache> {
  const log = new Logger('ResponseCache');
  if (config.responseCacheTtlSeconds === 0) return new ResponseCache(null, 0, log);
  const ttlMs = config.responseCacheTtlSeconds * 1000;
  if (!config.redisUrl) return new ResponseCache(new MemoryResponseStore(MEMORY_LIMITS), ttlMs, log);
  const namespace = await new RegistryIdentityRepository(dataSource).namespace();
  // A Redis that does not answer must cost a request milliseconds, never its answer.
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 500, enableOfflineQueue: false, lazyConnect: false });
  redis.on('error', () => undefined);
  return new ResponseCache(new RedisResponseStore(redis, `registry:${namespace}:responses`), ttlMs, log);
}

/**
 * The catalogue's response cache (issue "Catalogue", spec "Limits"): anonymous list, detail,
 * latest and release answers, in memory or in Redis when REDIS_URL is set, emptied by every
 * successful write through the API (the global interceptor) and by background changes.
 */
@Global()
@Module({
  providers: [
    { provide: ResponseCache, inject: [APP_CONFIG, DataSource], useFactory: openResponseCache },
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
