import { bitWords, clearBit, setBit, widened } from './bitset';
import { mergeSortSteps } from './merge-sort';
import { hashRange, TermHash } from './term-hash';
import { DeletionMap, typoEligible } from './typo-dictionary';

/** Revived filter keys kept for the facet counter before it is told to look at every term instead. */
const REVIVED_CAP = 65_536;

function grown<T extends Int32Array | Uint8Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const bigger = new (array.constructor as new (length: number) => T)(Math.max(needed, Math.ceil(array.length * 1.5), 16));
  bigger.set(array);
  return bigger;
}

/**
 * The vocabulary and its postings. A term is a word (letters and digits) or a filter key; each
 * has an id, a document frequency, and a posting list of `doc * 4 + field` entries in doc order
 * (the field: where in the document the word was strongest). A term found in one document keeps
 * its entry inline; longer lists are typed arrays. Words are also kept in a sorted vocabulary
 * (prefix ranges by binary search) and, once seen in a name, description or tag, in the typo
 * dictionary. Terms are never dropped, only emptied: a rebuild reclaims them.
 */
export class TermTable {
  readonly strings: string[] = [];
  /** Documents holding the term. */
  df = new Int32Array(1024);
  /** Documents holding the term in a name, description, tag, category or kind. */
  upperDf = new Int32Array(1024);
  /** The one entry of a term without a list. */
  single = new Int32Array(1024);
  readonly lists: Array<Int32Array | undefined> = [];
  /**
   * For a common term (in at least one document in 32, and 1,024): a bitset of its documents per
   * field, so a broad word is counted and ranked by whole words of 32 documents.
   */
  readonly bits: Array<Array<Int32Array | undefined> | undefined> = [];
  /** Bitset words the document capacity needs; the index keeps it current. */
  bitsetWords = 0;
  /** Word term ids in string order (filter keys are left out). */
  vocab = new Int32Array(1024);
  vocabLength = 0;
  readonly typos = new DeletionMap();
  private typoIndexed = new Uint8Array(1024);
  /** Scratch for the indexer: the document that last saw the term, where, and the last to see it in a README. */
  seenBy = new Int32Array(1024);
  seenField = new Uint8Array(1024);
  seenInReadme = new Int32Array(1024);
  /** Scratch for an upsert: the document that kept the term's posting as it was. */
  keptBy = new Int32Array(1024);
  /**
   * Filter keys whose postings went from empty to one (new or revived), for the facet counter's
   * lists of live values; drained by it. Left to grow to `REVIVED_CAP`, then dropped and flagged.
   */
  revived: number[] = [];
  revivedOverflow = false;
  /** Moves with every posting added or removed: whoever keeps figures over the postings compares it. */
  postingChanges = 0;
  private readonly ids = new TermHash(this.strings);
  /** During a bulk build new words are appended and sorted once at the end. */
  private bulk = false;

  get size(): number {
    return this.strings.length;
  }

  idOf(term: string): number | undefined {
    const id = this.ids.find(term, 0, term.length, hashRange(term, 0, term.length));
    return id < 0 ? undefined : id;
  }

  /** The id of `term`, created (and placed in the vocabulary if it is a word) when new. */
  intern(term: string, isWord: boolean): number {
    return this.internRange(term, 0, term.length, isWord);
  }

  /** `intern` for the term `text[start..end)`, making a string only for a new term. */
  internRange(text: string, start: number, end: number, isWord: boolean): number {
    const hash = hashRange(text, start, end);
    const known = this.ids.find(text, start, end, hash);
    if (known >= 0) return known;
    const id = this.strings.length;
    // A slice of a long text would keep the whole text alive: store a flat copy.
    const term = end - start > 12 ? (JSON.parse(JSON.stringify(text.slice(start, end))) as string) : text.slice(start, end);
    this.strings.push(term);
    this.lists.push(undefined);
    this.bits.push(undefined);
    this.ids.insert(id, hash);
    this.df = grown(this.df, id + 1);
    this.upperDf = grown(this.upperDf, id + 1);
    this.single = grown(this.single, id + 1);
    this.typoIndexed = grown(this.typoIndexed, id + 1);
    this.seenBy = grown(this.seenBy, id + 1);
    this.seenField = grown(this.seenField, id + 1);
    this.seenInReadme = grown(this.seenInReadme, id + 1);
    this.keptBy = grown(this.keptBy, id + 1);
    if (isWord) this.addToVocab(id);
    return id;
  }

  /** Adds `doc * 4 + field` to the term's postings (the doc must not be there yet). */
  addPosting(termId: number, entry: number, upper: boolean): void {
    this.addToList(termId, entry, upper);
    const bits = this.bits[termId];
    if (bits) {
      const field = entry & 3;
      const fieldBits = widened(bits[field] ?? new Int32Array(this.bitsetWords), this.bitsetWords);
      setBit(fieldBits, entry >> 2);
      bits[field] = fieldBits;
    } else if (this.df[termId] >= Math.max(1024, this.bitsetWords)) {
      this.bits[termId] = this.fieldBitsets(termId);
    }
  }

  private fieldBitsets(termId: number): Array<Int32Array | undefined> {
    const bits: Array<Int32Array | undefined> = [undefined, undefined, undefined];
    const list = this.lists[termId] as Int32Array;
    for (let p = 0; p < this.df[termId]; p++) {
      const entry = list[p];
      const field = entry & 3;
      const fieldBits = bits[field] ?? new Int32Array(Math.max(this.bitsetWords, bitWords((entry >> 2) + 1)));
      setBit(fieldBits, entry >> 2);
      bits[field] = fieldBits;
    }
    return bits;
  }

  private addToList(termId: number, entry: number, upper: boolean): void {
    const n = this.df[termId];
    this.df[termId] = n + 1;
    this.postingChanges++;
    if (n === 0 && this.strings[termId].charCodeAt(0) === 1 && !this.revivedOverflow) {
      if (this.revived.length < REVIVED_CAP) this.revived.push(termId);
      else {
        this.revived = [];
        this.revivedOverflow = true;
      }
    }
    if (upper && this.upperDf[termId]++ === 0 && !this.typoIndexed[termId] && typoEligible(this.strings[termId])) {
      this.typoIndexed[termId] = 1;
      this.typos.add(this.strings[termId], termId);
    }
    let list = this.lists[termId];
    if (!list) {
      if (n === 0) {
        this.single[termId] = entry;
        return;
      }
      list = new Int32Array(4);
      list[0] = this.single[termId];
      this.lists[termId] = list;
    }
    if (n === list.length) {
      const bigger = new Int32Array(n < 64 ? n * 2 : Math.ceil(n * 1.25));
      bigger.set(list);
      list = bigger;
      this.lists[termId] = list;
    }
    if (n === 0 || list[n - 1] < entry) {
      list[n] = entry;
      return;
    }
    const at = lowerBound(list, n, entry);
    list.copyWithin(at + 1, at, n);
    list[at] = entry;
  }

  /** Takes `doc` out of the term's postings. */
  removePosting(termId: number, doc: number, field: number, upper: boolean): void {
    const n = this.df[termId];
    this.df[termId] = n - 1;
    this.postingChanges++;
    if (upper) this.upperDf[termId]--;
    const bits = this.bits[termId]?.[field];
    if (bits) clearBit(bits, doc);
    const list = this.lists[termId];
    if (!list) return;
    if (n === 1) {
      this.lists[termId] = undefined;
      return;
    }
    const at = lowerBound(list, n, doc * 4);
    list.copyWithin(at, at + 1, n);
    // Shrink a list that emptied out, so churn does not pin memory.
    if (n - 1 < list.length / 4 && list.length > 16) this.lists[termId] = list.slice(0, Math.max(4, n * 2));
  }

  /** The range `[from, to)` of `vocab` holding the words that start with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    return [this.vocabBound(prefix), this.vocabBound(`${prefix}\uffff`)];
  }

  beginBulk(): void {
    this.bulk = true;
  }

  *finishBulk(): Generator<void, void, void> {
    const { strings } = this;
    yield* mergeSortSteps(this.vocab, this.vocabLength, (a, b) => (strings[a] < strings[b] ? -1 : strings[a] > strings[b] ? 1 : 0));
    // Appends grew lists by a quarter at a time: give the slack back.
    for (let id = 0; id < this.lists.length; id++) {
      const list = this.lists[id];
      if (list && list.length > this.df[id] + 8) this.lists[id] = list.slice(0, this.df[id]);
      if ((id & 4095) === 4095) yield;
    }
    this.bulk = false;
  }

  /** Bytes held, approximately: typed arrays exactly, strings and map entries by V8's usual sizes. */
  approximateBytes(): number {
    let bytes = this.typos.byteLength + this.ids.byteLength;
    for (const array of [
      this.df,
      this.upperDf,
      this.single,
      this.typoIndexed,
      this.vocab,
      this.seenBy,
      this.seenField,
      this.seenInReadme,
      this.keptBy,
    ])
      bytes += array.byteLength;
    for (let id = 0; id < this.strings.length; id++) {
      // A string (header + one byte a character, rounded) and two array slots.
      bytes += 24 + this.strings[id].length + 16;
      const list = this.lists[id];
      if (list) bytes += list.byteLength + 120;
      for (const fieldBits of this.bits[id] ?? []) bytes += fieldBits ? fieldBits.byteLength + 120 : 0;
    }
    return bytes;
  }

  private addToVocab(id: number): void {
    this.vocab = grown(this.vocab, this.vocabLength + 1);
    if (this.bulk) {
      this.vocab[this.vocabLength++] = id;
      return;
    }
    const at = this.vocabBound(this.strings[id]);
    this.vocab.copyWithin(at + 1, at, this.vocabLength);
    this.vocab[at] = id;
    this.vocabLength++;
  }

  /** The first vocabulary position whose word is not below `word`. */
  private vocabBound(word: string): number {
    let low = 0;
    let high = this.vocabLength;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.strings[this.vocab[middle]] < word) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** The first position in `list[0..n)` whose value is not below `value`. */
export function lowerBound(list: Int32Array, n: number, value: number): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
