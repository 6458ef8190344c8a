/** One edit is forgiven only between words of at least this many characters, on both sides. */
export const MIN_TYPO_LENGTH = 5;
/** Longer words are not typo-indexed: no one mistypes a 40-letter word and expects a match. */
export const MAX_TYPO_LENGTH = 32;

const DIGIT = /\p{N}/u;

/**
 * Whether a word takes part in typo matching: five to 32 characters and no digit (`zoom5` is not
 * a misspelt `zoom`, and `12346` is not a misspelt `12345`).
 */
export function typoEligible(word: string): boolean {
  return word.length >= MIN_TYPO_LENGTH && word.length <= MAX_TYPO_LENGTH && !DIGIT.test(word);
}

/** FNV-1a over the UTF-16 code units of `word`, skipping the one at `skip` (-1: none). */
function hashWithout(word: string, skip: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    if (i === skip) continue;
    hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  }
  return hash | 0;
}

/**
 * True when `a` and `b` differ by at most one insertion, deletion, substitution or transposition
 * of neighbours (optimal string alignment distance <= 1).
 */
export function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (la === lb) {
    if (i === la || a.slice(i + 1) === b.slice(i + 1)) return true;
    return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : b.slice(i + 1) === a.slice(i);
}

/**
 * The deletion map of a symmetric-delete spelling corrector, as an open-addressing multimap from
 * the hash of "a word less one character" to the word's term id, in two typed arrays (no string
 * per deletion: ~16 bytes per entry). A query word finds its one-edit neighbours by looking up
 * itself and each of its own deletions; hash collisions only add candidates, which the caller
 * checks with `withinOneEdit`.
 */
export class DeletionMap {
  private hashes = new Int32Array(1024);
  /** Term id + 1; 0 marks an empty slot. */
  private terms = new Int32Array(1024);
  private size = 0;

  add(word: string, termId: number): void {
    for (let i = 0; i < word.length; i++) {
      // Deleting either of two equal neighbours gives the same word.
      if (i > 0 && word.charCodeAt(i) === word.charCodeAt(i - 1)) continue;
      this.insert(hashWithout(word, i), termId);
    }
  }

  /** Calls `found` with every term id that may be one edit from `word` (and some that are not). */
  candidates(word: string, found: (termId: number) => void): void {
    this.probe(hashWithout(word, -1), found);
    for (let i = 0; i < word.length; i++) {
      if (i > 0 && word.charCodeAt(i) === word.charCodeAt(i - 1)) continue;
      this.probe(hashWithout(word, i), found);
    }
  }

  get byteLength(): number {
    return this.hashes.byteLength + this.terms.byteLength;
  }

  private probe(hash: number, found: (termId: number) => void): void {
    const mask = this.terms.length - 1;
    for (let slot = hash & mask; this.terms[slot] !== 0; slot = (slot + 1) & mask) {
      if (this.hashes[slot] === hash) found(this.terms[slot] - 1);
    }
  }

  private insert(hash: number, termId: number): void {
    if ((this.size + 1) * 2 > this.terms.length) this.grow();
    const mask = this.terms.length - 1;
    let slot = hash & mask;
    while (this.terms[slot] !== 0) slot = (slot + 1) & mask;
    this.hashes[slot] = hash;
    this.terms[slot] = termId + 1;
    this.size++;
  }

  private grow(): void {
    const { hashes, terms } = this;
    this.hashes = new Int32Array(terms.length * 2);
    this.terms = new Int32Array(terms.length * 2);
    this.size = 0;
    for (let slot = 0; slot < terms.length; slot++) if (terms[slot] !== 0) this.insert(hashes[slot], terms[slot] - 1);
  }
}
