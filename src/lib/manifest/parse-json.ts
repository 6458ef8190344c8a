import { FORBIDDEN_KEYS, MAX_NESTING_DEPTH } from './constants';
import type { ParseResult, Violation } from './types';
import { childPointer, violation } from './violations';

/**
 * A strict RFC 8259 reader. JSON.parse keeps the last of duplicate keys without a word and has no
 * depth limit, and both matter for a manifest, so the grammar is read here by hand. Nesting is
 * capped before recursing, which bounds the stack whatever the input.
 */

/** Stops reading: the text cannot be read further, and the violation says why. */
class StopReading {
  constructor(
    readonly violation: Violation,
    readonly grammar: boolean,
  ) {}
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class JsonReader {
  private position = 0;
  private newlineOffsets: number[] | undefined;
  readonly violations: Violation[] = [];

  constructor(private readonly text: string) {}

  readDocument(): unknown {
    this.skipWhitespace();
    const value = this.readValue('', 0);
    this.skipWhitespace();
    if (this.position < this.text.length) this.fail('unexpected text after the JSON value');
    return value;
  }

  private readValue(pointer: string, depth: number): unknown {
    const char = this.text[this.position];
    if (char === '{' || char === '[') {
      if (depth >= MAX_NESTING_DEPTH) {
        throw new StopReading(violation(pointer, `must not nest deeper than ${MAX_NESTING_DEPTH} levels`), false);
      }
      return char === '{' ? this.readObject(pointer, depth + 1) : this.readArray(pointer, depth + 1);
    }
    if (char === '"') return this.readString();
    if (this.text.startsWith('true', this.position)) return this.advance(4, true);
    if (this.text.startsWith('false', this.position)) return this.advance(5, false);
    if (this.text.startsWith('null', this.position)) return this.advance(4, null);
    NUMBER.lastIndex = this.position;
    const number = NUMBER.exec(this.text);
    if (number) return this.advance(number[0].length, Number(number[0]));
    return this.fail(char === undefined ? 'unexpected end of text' : `unexpected character ${JSON.stringify(char)}`);
  }

  private readObject(pointer: string, depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    const firstSeenAt = new Map<string, number>();
    this.position++;
    this.skipWhitespace();
    if (this.consume('}')) return result;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"') this.fail('expected a quoted key');
      const keyOffset = this.position;
      const key = this.readString();
      this.skipWhitespace();
      if (!this.consume(':')) this.fail('expected ":" after the key');
      this.skipWhitespace();
      const memberPointer = childPointer(pointer, key);
      const value = this.readValue(memberPointer, depth);
      const firstOffset = firstSeenAt.get(key);
      if (FORBIDDEN_KEYS.has(key)) {
        this.violations.push(violation(memberPointer, 'is a reserved key and not allowed'));
      } else if (firstOffset !== undefined) {
        this.violations.push(violation(memberPointer, `duplicate key (first defined at line ${this.lineOf(firstOffset)})`));
      } else {
        firstSeenAt.set(key, keyOffset);
        result[key] = value;
      }
      this.skipWhitespace();
      if (this.consume('}')) return result;
      if (!this.consume(',')) this.fail('expected "," or "}"');
    }
  }

  private readArray(pointer: string, depth: number): unknown[] {
    const result: unknown[] = [];
    this.position++;
    this.skipWhitespace();
    if (this.consume(']')) return result;
    for (;;) {
      this.skipWhitespace();
      result.push(this.readValue(childPointer(pointer, result.length), depth));
      this.skipWhitespace();
      if (this.consume(']')) return result;
      if (!this.consume(',')) this.fail('expected "," or "]"');
    }
  }

  private readString(): string {
    let result = '';
    let runStart = ++this.position;
    for (;;) {
      const code = this.text.charCodeAt(this.position);
      if (Number.isNaN(code)) this.fail('unterminated string');
      if (code < 0x20) this.fail('control characters must be escaped inside strings');
      if (code === 0x22) {
        result += this.text.slice(runStart, this.position++);
        return result;
      }
      if (code === 0x5c) {
        result += this.text.slice(runStart, this.position) + this.readEscape();
        runStart = this.position;
      } else {
        this.position++;
      }
    }
  }

  private readEscape(): string {
    const letter = this.text[this.position + 1];
    if (letter === 'u') {
      const hex = this.text.slice(this.position + 2, this.position + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
      this.position += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const replacement = letter === undefined ? undefined : ESCAPES[letter];
    if (replacement === undefined) this.fail('bad escape sequence');
    this.position += 2;
    return replacement;
  }

  private skipWhitespace(): void {
    for (;;) {
      const code = this.text.charCodeAt(this.position);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      this.position++;
    }
  }

  private consume(char: string): boolean {
    if (this.text[this.position] !== char) return false;
    this.position++;
    return true;
  }

  private advance<T>(length: number, value: T): T {
    this.position += length;
    return value;
  }

  private lineOf(offset: number): number {
    this.newlineOffsets ??= [...this.text.matchAll(/\n/g)].map((match) => match.index);
    let low = 0;
    let high = this.newlineOffsets.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.newlineOffsets[middle] < offset) low = middle + 1;
      else high = middle;
    }
    return low + 1;
  }

  private fail(reason: string): never {
    const lineStart = this.text.lastIndexOf('\n', this.position - 1) + 1;
    const where = `line ${this.lineOf(this.position)}, column ${this.position - lineStart + 1}`;
    throw new StopReading(violation('', `is not valid JSON: ${reason} at ${where}`), true);
  }
}

export interface JsonReadOutcome {
  result: ParseResult;
  /** The text broke the JSON grammar (as opposed to breaking a manifest rule such as duplicate keys). */
  grammarError: boolean;
}

export function readStrictJson(text: string): JsonReadOutcome {
  const reader = new JsonReader(text);
  try {
    const value = reader.readDocument();
    const result: ParseResult = reader.violations.length === 0 ? { ok: true, value } : { ok: false, violations: reader.violations };
    return { result, grammarError: false };
  } catch (error) {
    if (!(error instanceof StopReading)) throw error;
    return { result: { ok: false, violations: [...reader.violations, error.violation] }, grammarError: error.grammar };
  }
}

export function parseStrictJson(text: string): ParseResult {
  return readStrictJson(text).result;
}
