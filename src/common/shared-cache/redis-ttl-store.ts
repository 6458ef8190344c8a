import type Redis from 'ioredis';
import type { TtlStore } from './ttl-store';

/** Entries in Redis under the registry's namespace, so every instance of one registry reads them. */
export class RedisTtlStore implements TtlStore {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {}

  get(key: string): Promise<string | null> {
    return this.redis.get(`${this.namespace}:${key}`);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.namespace}:${key}`, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }
}
