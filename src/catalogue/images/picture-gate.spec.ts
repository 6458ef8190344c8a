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

describe('PictureGate with patience', () => {
  it('lets a waiting task leave once its patience is over, without running it or taking a permit, and hands the permit on', async () => {
    const gate = new PictureGate(1);
    let releaseFirst!: () => void;
    const first = gate.run(() => new Promise<string>((resolve) => (releaseFirst = () => resolve('first'))));
    const impatient = new AbortController();
    let ranImpatient = false;
    const leaving = gate.run(async () => {
      ranImpatient = true;
    }, impatient.signal);
    const third = gate.run(async () => 'third');
    impatient.abort(new Error('waited long enough'));
    await expect(leaving).rejects.toThrow('waited long enough');
    releaseFirst();
    await expect(first).resolves.toBe('first');
    await expect(third).resolves.toBe('third');
    expect(ranImpatient).toBe(false);
    // The one permit was given back, neither lost nor doubled: tasks run again, one at a time.
    let open = 0;
    let mostOpen = 0;
    const task = async () => {
      mostOpen = Math.max(mostOpen, ++open);
      await new Promise((resolve) => setTimeout(resolve, 5));
      open--;
    };
    await Promise.all([gate.run(task), gate.run(task), gate.run(task)]);
    expect(mostOpen).toBe(1);
  });

  it('runs a task at once when a permit is free, whatever its patience; refuses at once to queue one whose patience is already over', async () => {
    const gate = new PictureGate(1);
    const over = AbortSignal.abort(new Error('no time left'));
    await expect(gate.run(async () => 'free permit', over)).resolves.toBe('free permit');
    let releaseFirst!: () => void;
    const first = gate.run(() => new Promise<void>((resolve) => (releaseFirst = resolve)));
    await expect(gate.run(async () => 'never', over)).rejects.toThrow('no time left');
    releaseFirst();
    await first;
  });

  it('leaves a task that got its turn running when its patience ends later', async () => {
    const gate = new PictureGate(1);
    const patience = new AbortController();
    let finish!: () => void;
    const running = gate.run(() => new Promise<string>((resolve) => (finish = () => resolve('finished'))), patience.signal);
    patience.abort();
    finish();
    await expect(running).resolves.toBe('finished');
  });
});
