import { randomBytes } from 'node:crypto';
import { SharedRedis } from '../../src/common/redis/shared-redis';
import { SettingsChangeBus } from '../../src/platform/settings/settings-change-bus';

/** Two instances' buses on one Redis: a change announced on one reaches the other's listeners. */
(process.env.REDIS_URL ? describe : describe.skip)('SettingsChangeBus over Redis', () => {
  const prefix = `registry:test-bus-${randomBytes(6).toString('hex')}`;
  let redis: SharedRedis[] = [];
  let buses: SettingsChangeBus[] = [];
  const heard = [0, 0];

  beforeAll(() => {
    // Opened here, not in the describe body, which runs even when the block is skipped.
    redis = [SharedRedis.connect(process.env.REDIS_URL!, prefix), SharedRedis.connect(process.env.REDIS_URL!, prefix)];
    buses = redis.map((r) => new SettingsChangeBus(r));
    buses.forEach((bus, i) => {
      bus.onModuleInit();
      bus.onChange(() => (heard[i] += 1));
    });
  });

  afterAll(async () => {
    for (const bus of buses) bus.onApplicationShutdown();
    for (const r of redis) await r.close();
  });

  it('runs the announcing instance’s listeners at once and the other’s when the message arrives', async () => {
    // The subscription is in place once a message announced meanwhile gets through.
    const deadline = Date.now() + 30_000;
    while (heard[1] === 0) {
      if (Date.now() > deadline) throw new Error('the other instance never heard the change');
      const before = heard[0];
      // At once: before the publish is even sent (its own echo from Redis may come back later).
      const announced = buses[0].announce();
      expect(heard[0]).toBe(before + 1);
      await announced;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const other = heard[1];
    await buses[1].announce();
    while (heard[0] === 0 || heard[1] === other) {
      if (Date.now() > deadline) throw new Error('the change was not heard both ways');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});

(process.env.REDIS_URL ? describe.skip : describe)('SettingsChangeBus without Redis', () => {
  it('runs this instance’s listeners', async () => {
    const bus = new SettingsChangeBus(SharedRedis.none());
    bus.onModuleInit();
    let heard = 0;
    bus.onChange(() => (heard += 1));
    await bus.announce();
    expect(heard).toBe(1);
    bus.onApplicationShutdown();
  });
});
