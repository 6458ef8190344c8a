/** Elements sorted natively at a time, and merged between two pauses: a few milliseconds even with string keys. */
const CHUNK = 8_192;

interface Merge {
  i: number;
  j: number;
  k: number;
}

/**
 * Merges the sorted runs `from[i..middle)` and `from[j..high)` into `to[k..high)`, at most
 * `budget` elements of it; true when the merge is done (`state` says where it stopped).
 */
function mergeSome(
  from: Int32Array,
  to: Int32Array,
  state: Merge,
  middle: number,
  high: number,
  compare: (a: number, b: number) => number,
  budget: number,
): boolean {
  let { i, j, k } = state;
  const stop = Math.min(high, k + budget);
  while (k < stop && i < middle && j < high) to[k++] = compare(from[i], from[j]) <= 0 ? from[i++] : from[j++];
  while (k < stop && i < middle) to[k++] = from[i++];
  while (k < stop && j < high) to[k++] = from[j++];
  state.i = i;
  state.j = j;
  state.k = k;
  return k === high;
}

/**
 * Sorts `ids[0..length)` in place by `compare` (stable), pausing at a `yield` between chunks so
 * that a bulk build can hand the event loop back: chunks sorted by the engine, then merged two
 * runs at a time, a chunk's worth of output between pauses.
 */
export function* mergeSortSteps(ids: Int32Array, length: number, compare: (a: number, b: number) => number): Generator<void, void, void> {
  for (let start = 0; start < length; start += CHUNK) {
    ids.subarray(start, Math.min(start + CHUNK, length)).sort(compare);
    yield;
  }
  if (length <= CHUNK) return;
  let from: Int32Array = ids;
  let to: Int32Array = new Int32Array(length);
  for (let width = CHUNK; width < length; width *= 2) {
    for (let low = 0; low < length; low += 2 * width) {
      const middle = Math.min(low + width, length);
      const state = { i: low, j: middle, k: low };
      while (!mergeSome(from, to, state, middle, Math.min(low + 2 * width, length), compare, CHUNK)) yield;
      yield;
    }
    [from, to] = [to, from];
  }
  if (from !== ids) ids.set(from.subarray(0, length));
}

/** Runs a stepwise job to its end without pausing. */
export function runSteps(steps: Generator<void, void, void>): void {
  while (!steps.next().done);
}
