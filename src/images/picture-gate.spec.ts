import { GateFull, PictureGate } from './picture-gate';

describe('PictureGate', () => {
  it('runs at most `permits` tasks at once, the rest in arrival order, and goes on after a failure', async () => {
    const gate = new PictureGate(1);
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = gate.run(async () => {
      order.push('first starts');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first ends');
      throw new Error('first failed');
    });
    const second = gate.run(async () => {
      order.push('second runs');
      return 2;
    });
    const third = gate.run(async () => {
      order.push('third runs');
      return 3;
    });
    await Promise.resolve();
    expect(order).toEqual(['first starts']);
    releaseFirst();
    await expect(first).rejects.toThrow('first failed');
    await expect(second).resolves.toBe(2);
    await expect(third).resolves.toBe(3);
    expect(order).toEqual(['first starts', 'first ends', 'second runs', 'third runs']);
  });
});

describe('PictureGate with a bounded queue', () => {
  it('refuses a task that would be one waiter too many, without running it, and takes tasks again once one ends', async () => {
    const gate = new PictureGate(1, 1);
    let releaseFirst!: () => void;
    const first = gate.run(() => new Promise<string>((resolve) => (releaseFirst = () => resolve('first'))));
    const second = gate.run(async () => 'second');
    let ranThird = false;
    await expect(
      gate.run(async () => {
        ranThird = true;
      }),
    ).rejects.toBeInstanceOf(GateFull);
    expect(ranThird).toBe(false);
    releaseFirst();
    await expect(first).resolves.toBe('first');
    await expect(second).resolves.toBe('second');
    await expect(gate.run(async () => 'fourth')).resolves.toBe('fourth');
  });
});
