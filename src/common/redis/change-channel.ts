import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { SharedRedis } from './shared-redis';

/**
 * "Something changed" told to every instance over Redis publish/subscribe (REDIS_URL), so a copy
 * kept in memory is reloaded at once rather than at its next scheduled check. Best effort: a lost
 * message (Redis down) leaves that check as the bound. `announce` never runs this instance's own
 * listener: the caller has already reloaded, so each message carries the sender's id and the
 * sender's subscriber skips it. Without Redis `announce` does nothing.
 */
export class ChangeChannel {
  private subscriber: Redis | null = null;
  private listener: (() => void) | null = null;
  /** Tells this instance's messages from the others' (a subscriber also hears what it published). */
  private readonly senderId = randomUUID();

  constructor(
    private readonly redis: SharedRedis,
    private readonly name: string,
  ) {}

  private get channel(): string {
    return `${this.redis.prefix}:${this.name}`;
  }

  /** `listener` runs after every change another instance announces (with Redis); never for this one's. */
  listen(listener: () => void): void {
    this.listener = listener;
    if (!this.redis.client || this.subscriber) return;
    // A subscribing connection of its own, patient where the shared one is quick to fail: it holds
    // the subscription until Redis answers and subscribes again after every reconnect.
    const subscriber = this.redis.client.duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      lazyConnect: false,
    });
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel && message !== this.senderId) this.listener?.();
    });
    subscriber.subscribe(this.channel).catch(() => undefined);
    this.subscriber = subscriber;
  }

  /** Tells the other instances (this one's listener is the caller's business). */
  async announce(): Promise<void> {
    await this.redis.client?.publish(this.channel, this.senderId).catch(() => undefined);
  }

  close(): void {
    // Nothing to flush on a subscriber; a QUIT could wait for a Redis that is down.
    this.subscriber?.disconnect();
    this.subscriber = null;
    this.listener = null;
  }
}
