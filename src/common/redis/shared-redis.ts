import Redis from 'ioredis';

/**
 * The one Redis connection an instance holds (null without REDIS_URL), shared by the response
 * cache and the rate limiter, with the registry's namespace: every key starts with `prefix`, so
 * registries that share one Redis never see each other's keys.
 */
export class SharedRedis {
  constructor(
    readonly client: Redis | null,
    /** `registry:<identity>:<database>`; empty when there is no Redis. */
    readonly prefix: string,
  ) {}

  static none(): SharedRedis {
    return new SharedRedis(null, '');
  }

  /**
   * A Redis that does not answer must cost a request milliseconds, never its answer: one retry,
   * a 500 ms command timeout and no offline queue, so commands fail at once while it is down and
   * each caller decides what a failure means (a cache miss, or a refusal for publish).
   */
  static connect(url: string, prefix: string): SharedRedis {
    const client = new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 500, enableOfflineQueue: false, lazyConnect: false });
    // Failures surface on each command; the connection's own errors would only repeat them.
    client.on('error', () => undefined);
    return new SharedRedis(client, prefix);
  }

  async close(): Promise<void> {
    if (!this.client) return;
    await this.client.quit().catch(() => this.client?.disconnect());
  }
}
