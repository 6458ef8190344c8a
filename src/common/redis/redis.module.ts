import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../clock';
import { SharedCaches } from '../shared-cache/shared-caches';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { RegistryIdentityRepository } from './registry-identity.repository';
import { SharedRedis } from './shared-redis';

async function openSharedRedis(config: AppConfig, dataSource: DataSource): Promise<SharedRedis> {
  if (!config.redisUrl) return SharedRedis.none();
  const namespace = await new RegistryIdentityRepository(dataSource).namespace();
  return SharedRedis.connect(config.redisUrl, `registry:${namespace}`);
}

/** One Redis client an instance shares between its caches and rate-limit counters (REDIS_URL), and the shared caches over it. */
@Global()
@Module({
  providers: [
    { provide: SharedRedis, inject: [APP_CONFIG, DataSource], useFactory: openSharedRedis },
    {
      provide: SharedCaches,
      inject: [SharedRedis, Clock],
      useFactory: (redis: SharedRedis, clock: Clock) => new SharedCaches(redis, clock),
    },
  ],
  exports: [SharedRedis, SharedCaches],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(private readonly redis: SharedRedis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.close();
  }
}
