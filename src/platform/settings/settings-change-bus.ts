import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { SharedRedis } from '../../common/redis/shared-redis';

/**
 * Tells every instance that the settings changed, over Redis publish/subscribe (REDIS_URL), so
 * holders of a copy that skips the version check (the rate limiter's limits) re-read at once
 * rather than within their age. Best effort: a lost message (Redis down) leaves that age as the
 * bound. Without Redis there is nobody to tell; the instance's own listeners run directly.
 */
@Injectable()
export class SettingsChangeBus implements OnModuleInit, OnApplicationShutdown {
  private subscriber: Redis | null = null;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly redis: SharedRedis) {}

  private get channel(): string {
    return `${this.redis.prefix}:settings-changed`;
  }

  onModuleInit(): void {
    if (!this.redis.client) return;
    // A subscribing connection of its own, patient where the shared one is quick to fail: it holds
    // the subscription until Redis answers and subscribes again after every reconnect.
    const subscriber = this.redis.client.duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      lazyConnect: false,
    });
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string) => {
      if (channel === this.channel) this.notify();
    });
    subscriber.subscribe(this.channel).catch(() => undefined);
    this.subscriber = subscriber;
  }

  /** `listener` runs after every change, made here or (with Redis) on another instance. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Runs this instance's listeners now and tells the others. */
  async announce(): Promise<void> {
    this.notify();
    await this.redis.client?.publish(this.channel, 'changed').catch(() => undefined);
  }

  onApplicationShutdown(): void {
    // Nothing to flush on a subscriber; a QUIT could wait for a Redis that is down.
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
