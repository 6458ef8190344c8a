/** A query reads at most this many words, as `searchWords` in the catalogue service does. */
export const MAX_QUERY_WORDS = 8;

/** Where a word was found; lower is stronger. `FILTER` marks the exact-value keys of filters. */
export const FIELD_NAME = 0;
export const FIELD_MIDDLE = 1;
export const FIELD_README = 2;
export const FIELD_FILTER = 3;

const WORD_CHAR = /[\p{L}\p{N}]/u;
/** Non-ASCII UTF-16 units classified so far: 0 unknown, 1 not a word character, 2 a word character. */
const unitClass = new Uint8Array(65536);

function isWordUnit(unit: number): boolean {
  let known = unitClass[unit];
  if (known === 0) {
    known = WORD_CHAR.test(String.fromCharCode(unit)) ? 2 : 1;
    unitClass[unit] = known;
  }
  return known === 2;
}

/**
 * Finds the words of a lowercased text: runs of letters and digits, unicode-aware, the same words
 * as `text.toLowerCase().match(/[\p{L}\p{N}]+/gu)`, scanned by hand (no string a word) because
 * the build reads a few million of them. After `scan`, word i is `text.slice(starts[i], ends[i])`.
 */
export class WordScanner {
  starts = new Int32Array(64);
  ends = new Int32Array(64);
  count = 0;

  scan(lower: string): number {
    const length = lower.length;
    this.count = 0;
    let start = -1;
    for (let i = 0; i < length; i++) {
      const unit = lower.charCodeAt(i);
      let word: boolean;
      let width = 1;
      if (unit < 128) word = (unit >= 97 && unit <= 122) || (unit >= 48 && unit <= 57);
      else if ((unit & 0xfc00) === 0xd800 && i + 1 < length && (lower.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        word = WORD_CHAR.test(lower.slice(i, i + 2));
        width = 2;
      } else word = isWordUnit(unit);
      if (word) {
        if (start < 0) start = i;
        i += width - 1;
      } else if (start >= 0) {
        this.push(start, i);
        start = -1;
      }
    }
    if (start >= 0) this.push(start, length);
    return this.count;
  }

  private push(start: number, end: number): void {
    if (this.count === this.starts.length) {
      const starts = new Int32Array(this.count * 2);
      const ends = new Int32Array(this.count * 2);
      starts.set(this.starts);
      ends.set(this.ends);
      this.starts = starts;
      this.ends = ends;
    }
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
  }
}

const scanner = new WordScanner();

/** Lowercase letters and digits, unicode-aware: the same words the catalogue service's `searchWords` makes. */
export function textWords(text: string | null | undefined): string[] {
  const lower = (text ?? '').toLowerCase();
  const count = scanner.scan(lower);
  return Array.from({ length: count }, (_, i) => lower.slice(scanner.starts[i], scanner.ends[i]));
}

/** The words of a search: the first eight words of the text, each a prefix. */
export function searchWords(search: string | null | undefined): string[] {
  return textWords(search).slice(0, MAX_QUERY_WORDS);
}

/**
 * Filter keys share the term table with words but can never be typed: a word is letters and
 * digits, these start with a control character. An extension key never holds the NUL that ends
 * it (keys match EXTENSION_KEY_PATTERN, checked by the catalogue's query pipe and the manifest).
 */
export const filterKeys = {
  category: (value: string): string => `\u0001c${value}`,
  tag: (value: string): string => `\u0001t${value}`,
  kind: (value: string): string => `\u0001k${value}`,
  extension: (key: string, value: string): string => `\u0001e${key}\u0000${value}`,
  featured: '\u0001f',
  verified: '\u0001v',
} as const;

function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
}

/**
 * The filter keys of a plugin's extension fields, as the SQL compares them: a scalar by its text
 * (5 and "5" both give `5`), an array by each scalar member. Objects and nulls match nothing.
 */
export function extensionFilterKeys(extensions: Readonly<Record<string, unknown>> | null, out: string[]): void {
  if (!extensions) return;
  for (const key in extensions) {
    if (!Object.prototype.hasOwnProperty.call(extensions, key)) continue;
    const value = extensions[key];
    if (Array.isArray(value)) {
      for (const member of value) {
        const text = scalarText(member);
        if (text !== null) out.push(filterKeys.extension(key, text));
      }
    } else {
      const text = scalarText(value);
      if (text !== null) out.push(filterKeys.extension(key, text));
    }
  }
}
