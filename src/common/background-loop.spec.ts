import { BackgroundLoop } from './background-loop';

describe('BackgroundLoop', () => {
  /** A loop whose passes fail while `failing` is set; each kick runs one pass, at the given clock. */
  function failingLoop() {
    const state = { failing: true, now: 0, reported: [] as string[], passes: 0 };
    const loop = new BackgroundLoop(
      async () => {
        state.passes += 1;
        if (state.failing) throw new Error(`down (pass ${state.passes})`);
      },
      3_600_000,
      (error) => state.reported.push(error.message),
      () => state.now,
    );
    const pass = async (at: number) => {
      state.now = at;
      loop.kick();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { loop, state, pass };
  }

  it('reports the first failure of a run, then at most one a minute, and again at once after a success', async () => {
    const { loop, state, pass } = failingLoop();
    loop.start();
    await new Promise((resolve) => setImmediate(resolve));
    for (const at of [1_000, 2_000, 59_999]) await pass(at);
    expect(state.reported).toEqual(['down (pass 1)']);
    await pass(60_000);
    expect(state.reported).toEqual(['down (pass 1)', 'down (pass 5)']);
    state.failing = false;
    await pass(61_000);
    state.failing = true;
    await pass(62_000);
    expect(state.reported).toEqual(['down (pass 1)', 'down (pass 5)', 'down (pass 7)']);
    await loop.stop();
    expect(state.passes).toBe(7);
  });
});
