import { Logger } from '@nestjs/common';
import type { Clock } from '../clock';
import type { SharedRedis } from '../redis/shared-redis';
import { MemoryTtlStore } from './memory-ttl-store';
import { RedisTtlStore } from './redis-ttl-store';
import { SharedTtlCache } from './shared-ttl-cache';
import type { TtlStore } from './ttl-store';

/**
 * Opens the caches whose values every instance shares: in Redis when REDIS_URL is set, else in
 * this process (one instance has nobody to share with).
 */
export class SharedCaches {
  private readonly store: TtlStore;
  private readonly log = new Logger('SharedCache');

  constructor(
    redis: SharedRedis,
    private readonly clock: Clock,
  ) {
    this.store = redis.client ? new RedisTtlStore(redis.client, `${redis.prefix}:cache`) : new MemoryTtlStore();
  }

  open<T>(name: string, ttlMs: number): SharedTtlCache<T> {
    return new SharedTtlCache<T>(this.store, name, ttlMs, this.clock, this.log);
  }
}
