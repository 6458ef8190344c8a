/** Elements sorted natively at a time: a few milliseconds even with string keys. */
const CHUNK = 8_192;

/** Merges the sorted runs `from[low..middle)` and `from[middle..high)` into `to[low..high)`. */
function mergeRuns(from: Int32Array, to: Int32Array, low: number, middle: number, high: number, compare: (a: number, b: number) => number): void {
  let i = low;
  let j = middle;
  let k = low;
  while (i < middle && j < high) to[k++] = compare(from[i], from[j]) <= 0 ? from[i++] : from[j++];
  while (i < middle) to[k++] = from[i++];
  while (j < high) to[k++] = from[j++];
}

/**
 * Sorts `ids[0..length)` in place by `compare` (stable), pausing at a `yield` between chunks so
 * that a bulk build can hand the event loop back: chunks sorted by the engine, then merged two
 * runs at a time (the last merge of 100k ids takes a few milliseconds).
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
      mergeRuns(from, to, low, Math.min(low + width, length), Math.min(low + 2 * width, length), compare);
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
