import { IdleCollector, type IdleCollectorParts, processIdleCollectorParts } from './idle-collector';

const MiB = 1024 * 1024;

function fakeParts() {
  const state = { utilization: 0, heap: 100 * MiB, collected: 0, tick: null as null | (() => void), intervalMs: 0 };
  const parts: IdleCollectorParts = {
    utilization: () => state.utilization,
    heapUsedBytes: () => state.heap,
    collect: () => {
      state.collected += 1;
      state.heap = 50 * MiB;
    },
    every: (ms, tick) => {
      state.intervalMs = ms;
      state.tick = tick;
      return { stop: () => (state.tick = null) };
    },
  };
  return { state, parts };
}

describe('IdleCollector', () => {
  it('collects once when quiet with garbage to give back, and not again until the heap grows', () => {
    const { state, parts } = fakeParts();
    const collector = new IdleCollector(parts);
    collector.start(10_000);
    expect(state.intervalMs).toBe(10_000);
    state.tick!();
    expect(state.collected).toBe(0);
    state.tick!();
    expect(state.collected).toBe(1);
    state.tick!();
    expect(state.collected).toBe(1);
    state.heap = 57 * MiB;
    state.tick!();
    expect(state.collected).toBe(1);
    state.heap = 58 * MiB;
    state.tick!();
    expect(state.collected).toBe(2);
  });

  it('never collects while the server is busy', () => {
    const { state, parts } = fakeParts();
    const collector = new IdleCollector(parts);
    collector.start(10_000);
    state.utilization = 0.3;
    for (let i = 0; i < 5; i++) state.tick!();
    expect(state.collected).toBe(0);
    state.utilization = 0.01;
    state.tick!();
    expect(state.collected).toBe(0);
    state.tick!();
    expect(state.collected).toBe(1);
    // A busy interval between quiet ones starts the count again.
    state.heap = 100 * MiB;
    state.utilization = 0.3;
    state.tick!();
    state.utilization = 0.01;
    state.tick!();
    expect(state.collected).toBe(1);
  });

  it('does nothing with an interval of 0, and stops', () => {
    const { state, parts } = fakeParts();
    const collector = new IdleCollector(parts);
    collector.start(0);
    expect(state.tick).toBeNull();
    collector.start(5_000);
    collector.stop();
    expect(state.tick).toBeNull();
  });

  it("the process's collector really frees the heap", () => {
    const parts = processIdleCollectorParts();
    let garbage: unknown[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `item ${i}` }));
    const before = parts.heapUsedBytes();
    garbage = null;
    parts.collect();
    expect(garbage).toBeNull();
    expect(parts.heapUsedBytes()).toBeLessThan(before - 8 * MiB);
    const utilization = parts.utilization();
    expect(utilization).toBeGreaterThanOrEqual(0);
    expect(utilization).toBeLessThanOrEqual(1);
  });
});
