import { randomBytes } from 'node:crypto';
import { ChangeChannel } from '../../src/common/redis/change-channel';
import { SharedRedis } from '../../src/common/redis/shared-redis';

// Two instances' messages cross a real Redis: this runs in the PostgreSQL + Redis pass.
const withRedis = process.env.REDIS_URL ? describe : describe.skip;

/** Polls (a not yet connected client fails fast: that counts as "not yet"). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const holds = async () => {
    try {
      return await condition();
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 500; i++) {
    if (await holds()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition never held');
}

withRedis('ChangeChannel over Redis', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}`;
  let a: SharedRedis;
  let b: SharedRedis;
  const channels: ChangeChannel[] = [];

  beforeAll(() => {
    a = SharedRedis.connect(process.env.REDIS_URL!, prefix);
    b = SharedRedis.connect(process.env.REDIS_URL!, prefix);
  });
  afterAll(async () => {
    for (const channel of channels) channel.close();
    await a.close();
    await b.close();
  });

  it("runs the other instances' listeners, never the announcer's own (it has already reloaded)", async () => {
    const heard = { a: 0, b: 0 };
    const onA = new ChangeChannel(a, 'things-changed');
    const onB = new ChangeChannel(b, 'things-changed');
    channels.push(onA, onB);
    onA.listen(() => (heard.a += 1));
    onB.listen(() => (heard.b += 1));
    await until(async () => {
      const [, count] = (await a.client!.pubsub('NUMSUB', `${prefix}:things-changed`)) as [string, number];
      return Number(count) === 2;
    });

    await onA.announce();
    await until(() => heard.b === 1);
    // B's answer is published after A's message reached every subscriber: once A hears it, A has
    // already been handed its own message, and must have skipped it.
    await onB.announce();
    await until(() => heard.a === 1);
    expect(heard).toEqual({ a: 1, b: 1 });
  });
});
