import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import type { CachedResponse, ResponseCacheStore } from './store';

/**
 * How long a marked write holds the cache off at most: an instance that dies between beginWrite
 * and endWrite leaves its mark, and the cache answers from the database until it expires. Far
 * longer than any catalogue transaction.
 */
const WRITE_MARK_MS = 60_000;

/** endWrite: a new generation, and one marked write fewer (the mark gone with the last). */
const END_WRITE = `redis.call('INCR', KEYS[1])
local left = redis.call('DECR', KEYS[2])
if left <= 0 then redis.call('DEL', KEYS[2]) end
return left`;

/**
 * Entries in Redis, shared by every instance of one registry. `namespace` names the registry
 * (its database), so registries sharing a Redis never read each other's answers. A read is one
 * round trip (MGET of the generation, the count of marked writes under way and the entry); the
 * generation is an INCR counter.
 */
export class RedisResponseStore implements ResponseCacheStore {
  private readonly generationKey: string;
  private readonly writingKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    this.generationKey = `${namespace}:generation`;
    this.writingKey = `${namespace}:writing`;
  }

  async read(key: string): Promise<{ generation: string | null; entry: CachedResponse | null }> {
    const [generation, writing, stored] = await this.redis.mget(this.generationKey, this.writingKey, this.entryKey(key));
    if (Number(writing ?? 0) > 0) return { generation: null, entry: null };
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

  async beginWrite(): Promise<void> {
    await this.redis.multi().incr(this.writingKey).pexpire(this.writingKey, WRITE_MARK_MS).incr(this.generationKey).exec();
  }

  async endWrite(): Promise<void> {
    await this.redis.eval(END_WRITE, 2, this.generationKey, this.writingKey);
  }

  async close(): Promise<void> {
    // The connection is the instance's shared one (SharedRedis), closed by its module.
  }

  private entryKey(key: string): string {
    return `${this.namespace}:entry:${createHash('sha256').update(key).digest('base64url')}`;
  }
}
