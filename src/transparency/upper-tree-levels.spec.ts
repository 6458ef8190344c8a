import { lowestHeldLevel, UPPER_MAX_BYTES, UPPER_MIN_LEVEL } from './upper-tree-levels';

describe('lowestHeldLevel', () => {
  it('holds level 4 and up while that fits 16 MB (about 4M leaves), then rises one level per doubling', () => {
    expect(lowestHeldLevel(0)).toBe(UPPER_MIN_LEVEL);
    expect(lowestHeldLevel(1_000_000)).toBe(4);
    expect(lowestHeldLevel(4_194_304)).toBe(4);
    expect(lowestHeldLevel(4_194_304 + 16)).toBe(5);
    expect(lowestHeldLevel(1_000_000_000)).toBe(12);
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
