import { lowestHeldLevel, UPPER_MAX_BYTES, UPPER_MIN_LEVEL } from './upper-tree-levels';

describe('lowestHeldLevel', () => {
  it('holds level 1 and up while that fits 64 MiB (about 2M leaves), then rises one level per doubling', () => {
    expect(lowestHeldLevel(0)).toBe(UPPER_MIN_LEVEL);
    expect(UPPER_MIN_LEVEL).toBe(1);
    expect(lowestHeldLevel(1_000_000)).toBe(1);
    expect(lowestHeldLevel(2_097_152)).toBe(1);
    expect(lowestHeldLevel(2_097_152 + 2)).toBe(2);
    expect(lowestHeldLevel(4_194_304 + 4)).toBe(3);
    expect(lowestHeldLevel(1_000_000_000)).toBe(10);
  });

  it('keeps what it would hold within the bound at any size', () => {
    for (const size of [17, 1_000, 123_456, 9_999_999, 2 ** 40 + 3]) {
      const level = lowestHeldLevel(size);
      let bytes = 0;
      for (let l = level; Math.floor(size / 2 ** l) > 0; l++) bytes += Math.floor(size / 2 ** l) * 32;
      expect(bytes).toBeLessThanOrEqual(UPPER_MAX_BYTES);
    }
  });
});
