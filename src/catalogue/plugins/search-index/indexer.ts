import type { TermTable } from './term-table';
import { extensionFilterKeys, FIELD_FILTER, FIELD_MIDDLE, FIELD_NAME, FIELD_README, filterKeys, WordScanner } from './tokenize';
import type { SearchDocument } from './types';

/** README text indexed per plugin: the distinct words of its first characters, bounded twice, so memory stays near 1 KB a plugin. */
export const README_INDEXED_CHARS = 2_000;
export const README_INDEXED_WORDS = 100;
/** Longer README "words" are hashes, URLs run together or base64: noise that would only grow the vocabulary. */
export const README_MAX_WORD_LENGTH = 32;

const WORD_START = /^[\p{L}\p{N}]/u;

/**
 * Turns a document into its term entries (`termId * 4 + field`, each term once, at the strongest
 * field it appears in: name, then description, tags, category and kind, then README), the filter
 * keys included. Terms are deduplicated with per-term stamps rather than a Map a document.
 */
export class DocumentIndexer {
  entries = new Int32Array(256);
  count = 0;
  nameWords = 0;
  /** Which read this is: the stamp `read` leaves on the terms it saw. */
  sequence = 0;
  private readonly scanner = new WordScanner();
  private readonly keys: string[] = [];

  constructor(private readonly terms: TermTable) {}

  read(doc: SearchDocument): void {
    this.sequence++;
    this.count = 0;
    this.addWords(doc.name, FIELD_NAME);
    this.nameWords = this.count;
    if (doc.description) this.addWords(doc.description, FIELD_MIDDLE);
    for (const tag of doc.tags) this.addWords(tag, FIELD_MIDDLE);
    if (doc.category) this.addWords(doc.category, FIELD_MIDDLE);
    if (doc.kind) this.addWords(doc.kind, FIELD_MIDDLE);
    this.addReadme(doc.readme);
    const keys = this.keys;
    keys.length = 0;
    if (doc.category) keys.push(filterKeys.category(doc.category));
    if (doc.kind) keys.push(filterKeys.kind(doc.kind));
    for (const tag of doc.tags) keys.push(filterKeys.tag(tag));
    extensionFilterKeys(doc.extensions, keys);
    if (doc.featured) keys.push(filterKeys.featured);
    if (doc.verifiedAt !== null && doc.verifiedAt !== undefined) keys.push(filterKeys.verified);
    for (const key of keys) this.add(this.terms.intern(key, false), FIELD_FILTER);
    const { entries, terms } = this;
    for (let i = 0; i < this.count; i++) entries[i] = entries[i] * 4 + terms.seenField[entries[i]];
  }

  private addWords(text: string, field: number): void {
    const lower = text.toLowerCase();
    const { scanner, terms } = this;
    const n = scanner.scan(lower);
    for (let i = 0; i < n; i++) this.add(terms.internRange(lower, scanner.starts[i], scanner.ends[i], true), field);
  }

  private addReadme(readme: string): void {
    if (!readme) return;
    const lower = readme.slice(0, README_INDEXED_CHARS).toLowerCase();
    const { terms, sequence, scanner } = this;
    let n = scanner.scan(lower);
    // A word the limit cuts in two is left out, not indexed as a prefix of itself.
    if (n > 0 && scanner.ends[n - 1] === lower.length && WORD_START.test(readme.slice(README_INDEXED_CHARS, README_INDEXED_CHARS + 2))) n--;
    let distinct = 0;
    for (let i = 0; i < n && distinct < README_INDEXED_WORDS; i++) {
      if (scanner.ends[i] - scanner.starts[i] > README_MAX_WORD_LENGTH) continue;
      const termId = terms.internRange(lower, scanner.starts[i], scanner.ends[i], true);
      if (terms.seenInReadme[termId] === sequence) continue;
      terms.seenInReadme[termId] = sequence;
      distinct++;
      this.add(termId, FIELD_README);
    }
  }

  private add(termId: number, field: number): void {
    const { terms } = this;
    if (terms.seenBy[termId] === this.sequence) {
      if (field < terms.seenField[termId]) terms.seenField[termId] = field;
      return;
    }
    terms.seenBy[termId] = this.sequence;
    terms.seenField[termId] = field;
    if (this.count === this.entries.length) {
      const bigger = new Int32Array(this.count * 2);
      bigger.set(this.entries);
      this.entries = bigger;
    }
    this.entries[this.count++] = termId;
  }
}
