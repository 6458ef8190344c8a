import fc from 'fast-check';
import { mergeSortSteps, runSteps } from './merge-sort';

describe('mergeSortSteps', () => {
  it('sorts stably, as Array.prototype.sort does, across chunk boundaries', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 1, max: 50 }), fc.integer(), (length, spread, seed) => {
        const keys = Array.from({ length }, (_, i) => Math.abs((seed + i * 7919) % spread));
        const ids = Int32Array.from({ length: length + 5 }, (_, i) => i);
        const compare = (a: number, b: number) => keys[a] - keys[b];
        runSteps(mergeSortSteps(ids, length, compare));
        const expected = Array.from({ length }, (_, i) => i).sort(compare);
        expect(Array.from(ids.subarray(0, length))).toEqual(expected);
        expect(Array.from(ids.subarray(length))).toEqual([0, 1, 2, 3, 4].map((i) => length + i));
      }),
      { numRuns: 30 },
    );
  });

  it('pauses between chunks', () => {
    const ids = Int32Array.from({ length: 50_000 }, (_, i) => 50_000 - i);
    let pauses = 0;
    for (const _ of mergeSortSteps(ids, ids.length, (a, b) => a - b)) pauses++;
    expect(pauses).toBeGreaterThan(5);
    expect(ids[0]).toBe(1);
  });
});
