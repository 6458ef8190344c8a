/**
 * Per-query marks: an array sized to the documents holds, for each one, the number of the pass
 * that last marked it, so a new pass needs a new number instead of a cleared array. The numbers
 * wrap only after 2^31 passes, and then the array is cleared once.
 */
export function nextStamp(current: number, marks: Int32Array): number {
  if (current + 1 < 0x7fffffff) return current + 1;
  marks.fill(0);
  return 1;
}
