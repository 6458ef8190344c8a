import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { CachedResponse, ResponseCacheStore } from './store';

/**
 * Entries in Redis, shared by every instance of one registry. `namespace` names the registry
 * (its database), so registries sharing a Redis never read each other's answers. A read is one
 * round trip (MGET of the generation and the entry); the generation is an INCR counter.
 */
export class RedisResponseStore implements ResponseCacheStore {
  private readonly generationKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    this.generationKey = `${namespace}:generation`;
  }

  async read(key: string): Promise<{ generation: string; entry: CachedResponse | null }> {
    const [generation, stored] = await this.redis.mget(this.generationKey, this.entryKey(key));
    const current = generation ?? '0';
    if (!stored) return { generation: current, entry: null };
    const parsed = JSON.parse(stored) as { generation: string; entry: CachedResponse };
    return { generation: current, entry: parsed.generation === current ? parsed.entry : null };
  }

  async write(key: string, generation: string, entry: CachedResponse, ttlMs: number): Promise<void> {
    await this.redis.set(this.entryKey(key), JSON.stringify({ generation, entry }), 'PX', ttlMs);
  }

  async bump(): Promise<void> {
    await this.redis.incr(this.generationKey);
  }

  async close(): Promise<void> {
    // The connection is the instance's shared one (SharedRedis), closed by its module.
  }

  private entryKey(key: string): string {
    return `${this.namespace}:entry:${createHash('sha256').update(key).digest('base64url')}`;
  }
}
