import { startHeartbeat } from './heartbeat';

describe('startHeartbeat', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats every interval until stopped, never two at once, and reports failures', async () => {
    let calls = 0;
    let finish: () => void = () => undefined;
    const errors: string[] = [];
    const beat = () => {
      calls += 1;
      if (calls === 2) return Promise.reject(new Error('database away'));
      return new Promise<void>((resolve) => (finish = resolve));
    };
    const heartbeat = startHeartbeat(beat, 1_000, (error) => errors.push(error.message));
    await jest.advanceTimersByTimeAsync(3_000);
    // The first beat is still running: the ticks in between start none.
    expect(calls).toBe(1);
    finish();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    expect(errors).toEqual(['database away']);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(3);
    finish();
    heartbeat.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(3);
  });
});
