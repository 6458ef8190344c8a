import { nextStamp } from './stamps';

describe('nextStamp', () => {
  it('counts up without touching the marks', () => {
    const marks = Int32Array.of(5, 6);
    expect(nextStamp(6, marks)).toBe(7);
    expect([...marks]).toEqual([5, 6]);
  });

  it('clears the marks once when the numbers run out, so no old mark equals a new number', () => {
    const marks = Int32Array.of(0x7ffffffe, 1);
    const next = nextStamp(0x7ffffffe, marks);
    expect(next).toBe(1);
    expect([...marks]).toEqual([0, 0]);
  });
});
