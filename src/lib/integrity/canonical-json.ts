import { createHash } from 'node:crypto';

/**
 * RFC 8785 (JSON Canonicalization Scheme) serialization.
 *
 * Written out rather than delegated to the `canonicalize` package: that package is ESM-only (awkward
 * from this CommonJS build) and silently accepts values we must refuse before signing, since a
 * signature over bytes that another implementation would serialize differently cannot be verified.
 */

export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';

  constructor(
    readonly reason: string,
    /** RFC 6901 JSON pointer to the offending value ('' is the root). */
    readonly pointer: string,
  ) {
    super(`cannot canonicalize value at '${pointer || '/'}': ${reason}`);
  }
}

export interface CanonicalJsonOptions {
  /**
   * Refuse integers outside ±(2^53−1) (default true). Such numbers are valid JCS, but I-JSON
   * (RFC 7493) warns they lose precision in most parsers, so a signed document containing one
   * could be re-read as a different value. Off only to check the published JCS test vectors.
   */
  rejectUnsafeIntegers?: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function serializeString(text: string, pointer: string): string {
  if (LONE_SURROGATE.test(text)) throw new CanonicalJsonError('string contains a lone UTF-16 surrogate', pointer);
  // ECMAScript's JSON.stringify escapes exactly what JCS mandates (\b \t \n \f \r \" \\ and other
  // C0 controls as lowercase \u00xx) and leaves everything else literal.
  return JSON.stringify(text);
}

function serializeNumber(value: number, pointer: string, options: Required<CanonicalJsonOptions>): string {
  if (!Number.isFinite(value)) throw new CanonicalJsonError(`${value} is not representable in JSON`, pointer);
  if (options.rejectUnsafeIntegers && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw new CanonicalJsonError(`integer ${value} exceeds the I-JSON safe range ±(2^53-1)`, pointer);
  }
  // JSON.stringify uses ECMAScript Number::toString, which RFC 8785 adopts verbatim (and maps -0 to 0).
  return JSON.stringify(value);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'object' && value !== null) {
    const constructor: unknown = (value as { constructor?: unknown }).constructor;
    return typeof constructor === 'function' && constructor.name ? constructor.name : 'object';
  }
  return typeof value;
}

function serialize(value: unknown, pointer: string, options: Required<CanonicalJsonOptions>, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return serializeString(value, pointer);
    case 'number':
      return serializeNumber(value, pointer, options);
    case 'object':
      break;
    default:
      throw new CanonicalJsonError(`${describe(value)} is not a JSON value`, pointer);
  }
  if (ancestors.has(value)) throw new CanonicalJsonError('circular reference', pointer);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items: string[] = [];
      // Indexed loop, not map(): map skips holes, which would silently shorten a sparse array.
      for (let index = 0; index < value.length; index++) {
        items.push(serialize(value[index], `${pointer}/${index}`, options, ancestors));
      }
      return `[${items.join(',')}]`;
    }
    if (!isPlainObject(value)) throw new CanonicalJsonError(`${describe(value)} is not a plain object`, pointer);
    if (Object.getOwnPropertySymbols(value).length > 0) {
      throw new CanonicalJsonError('object has symbol-keyed properties', pointer);
    }
    // Default sort compares UTF-16 code units, which is the order RFC 8785 section 3.2.3 requires.
    const keys = Object.keys(value).sort();
    const members = keys.map((key) => {
      const memberPointer = `${pointer}/${pointerToken(key)}`;
      if (LONE_SURROGATE.test(key)) throw new CanonicalJsonError('key contains a lone UTF-16 surrogate', memberPointer);
      return `${JSON.stringify(key)}:${serialize(value[key], memberPointer, options, ancestors)}`;
    });
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

/** The RFC 8785 canonical text of a JSON value; throws CanonicalJsonError for anything not plain JSON. */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  return serialize(value, '', { rejectUnsafeIntegers: options.rejectUnsafeIntegers ?? true }, new Set());
}

/** The UTF-8 bytes of canonicalJson(value): what gets hashed and signed. */
export function canonicalJsonBytes(value: unknown, options?: CanonicalJsonOptions): Uint8Array {
  return new Uint8Array(Buffer.from(canonicalJson(value, options), 'utf8'));
}

/** Lowercase hex SHA-256; strings are hashed as UTF-8. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Signed bytes as a JSON value, strictly: UTF-8, JSON, and exactly the RFC 8785 form of what they
 * parse to, so no two byte strings are accepted as the same document. `what` names the document in
 * the reason ("payload", "statement").
 */
export function decodeCanonicalJson(bytes: Uint8Array, what: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${what} is not UTF-8 JSON` };
  }
  try {
    if (canonicalJson(value) !== text) return { ok: false, reason: `${what} is not in RFC 8785 canonical form` };
  } catch (error) {
    if (error instanceof CanonicalJsonError) return { ok: false, reason: `${what} is not canonicalizable: ${error.message}` };
    throw error;
  }
  return { ok: true, value };
}
