/** 32-bit words for `capacity` documents. */
export function bitWords(capacity: number): number {
  return (capacity + 31) >>> 5;
}

export function setBit(bits: Int32Array, doc: number): void {
  bits[doc >>> 5] |= 1 << (doc & 31);
}

export function clearBit(bits: Int32Array, doc: number): void {
  bits[doc >>> 5] &= ~(1 << (doc & 31));
}

export function hasBit(bits: Int32Array, doc: number): boolean {
  return ((bits[doc >>> 5] >>> (doc & 31)) & 1) === 1;
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** `target |= source` over the words both have. */
export function orInto(target: Int32Array, source: Int32Array): void {
  const n = Math.min(target.length, source.length);
  for (let i = 0; i < n; i++) target[i] |= source[i];
}

/** `target &= source`, a word `source` lacks counting as zero. */
export function andInto(target: Int32Array, source: Int32Array): void {
  const n = Math.min(target.length, source.length);
  for (let i = 0; i < n; i++) target[i] &= source[i];
  target.fill(0, n);
}

export function popcount(bits: Int32Array): number {
  let count = 0;
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) count += popcount32(bits[i]);
  return count;
}

/** A copy of `bits` at least `words` long. */
export function widened(bits: Int32Array, words: number): Int32Array {
  if (bits.length >= words) return bits;
  const wider = new Int32Array(Math.max(words, Math.ceil(bits.length * 1.5)));
  wider.set(bits);
  return wider;
}

/** Calls `visit` with every document in `bits`, in id order. */
export function forEachBit(bits: Int32Array, visit: (doc: number) => void): void {
  for (let i = 0; i < bits.length; i++) {
    let x = bits[i];
    while (x !== 0) {
      const lowest = x & -x;
      visit(i * 32 + 31 - Math.clz32(lowest));
      x ^= lowest;
    }
  }
}
