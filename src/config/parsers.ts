import { InvalidAllowHostError, parseAllowedHost } from '../lib/net/address-policy';
import { Invalid, type Parser } from './variable';

/**
 * A whole number within bounds. Digits only: `60s`, `1e4` or `-1` is refused rather than misread.
 * Without `max`, any safe integer from `min` (0) up.
 */
export function integer({
  min,
  max,
  unit,
}: {
  min: number;
  max?: number;
  unit?: 'milliseconds' | 'seconds' | 'MiB' | 'bytes';
}): Parser<number> {
  const of = unit ? ` number of ${unit}` : '';
  const message = max === undefined ? `must be a non-negative integer${of}` : `must be an integer${of} from ${min} to ${max}`;
  return {
    type: `integer${unit ? ` ${unit}` : ''}, ${max === undefined ? `${min} or more` : `${min} to ${max}`}`,
    parse(raw) {
      const text = raw.trim();
      const value = Number(text);
      const inBounds = Number.isSafeInteger(value) && value >= min && (max === undefined || value <= max);
      return /^\d+$/.test(text) && inBounds ? value : new Invalid(message);
    },
  };
}

/** A URL with one of `protocols`, as given (trimmed); `phrase` names it with its article ("a postgres:// URL"). */
export function url(phrase: string, protocols: readonly string[]): Parser<string> {
  return {
    type: phrase.replace(/^an? /, ''),
    parse(raw) {
      const text = raw.trim();
      try {
        if (protocols.includes(new URL(text).protocol)) return text;
      } catch {
        // not a URL at all: the same answer as the wrong protocol
      }
      return new Invalid(`must be ${phrase}`);
    },
  };
}

export function oneOf<T extends string>(values: readonly T[]): Parser<T> {
  return {
    type: values.join(' | '),
    parse(raw) {
      const text = raw.trim();
      return values.includes(text as T) ? (text as T) : new Invalid(`must be one of ${values.join(', ')}`);
    },
  };
}

export const boolean: Parser<boolean> = {
  type: 'boolean: 1/0, true/false, yes/no, on/off',
  parse(raw) {
    const text = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(text)) return true;
    if (['0', 'false', 'no', 'off'].includes(text)) return false;
    return new Invalid('must be a boolean (1/0, true/false)');
  },
};

/** Free text; trimmed unless `trim: false` (a secret is taken exactly as given). */
export function text({
  minLength,
  maxLength,
  trim = true,
}: { minLength?: number; maxLength?: number; trim?: boolean } = {}): Parser<string> {
  const bounds = [minLength && `at least ${minLength} characters`, maxLength && `at most ${maxLength} characters`].filter(Boolean);
  return {
    type: ['string', ...bounds].join(', '),
    parse(raw) {
      const value = trim ? raw.trim() : raw;
      if (minLength !== undefined && value.length < minLength) return new Invalid(`must be at least ${minLength} characters`);
      if (maxLength !== undefined && value.length > maxLength) return new Invalid(`must be at most ${maxLength} characters`);
      return value;
    },
  };
}

export function hexBytes(bytes: number): Parser<Buffer> {
  const pattern = new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`);
  return {
    type: `${bytes * 2} hex characters (${bytes} bytes)`,
    parse(raw) {
      const text = raw.trim();
      return pattern.test(text) ? Buffer.from(text, 'hex') : new Invalid(`must be ${bytes} bytes as ${bytes * 2} hex characters`);
    },
  };
}

/** Comma-separated entries, each read by `entry`; empty entries are skipped, and '' is an empty list. */
export function commaList<T>(type: string, entry: (text: string) => T | Invalid): Parser<readonly T[]> {
  return {
    type,
    parse(raw) {
      const values: T[] = [];
      const messages: string[] = [];
      for (const text of raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const value = entry(text);
        if (value instanceof Invalid) messages.push(...value.messages);
        else values.push(value);
      }
      return messages.length ? new Invalid(...messages) : Object.freeze(values);
    },
  };
}

/** The same parser with its value turned into what the config holds. */
export function map<T, U>(parser: Parser<T>, to: (value: T) => U): Parser<U> {
  return {
    type: parser.type,
    parse(raw) {
      const value = parser.parse(raw);
      return value instanceof Invalid ? value : to(value);
    },
  };
}

/** `host` / `host:port` entries in the fetcher's own grammar, so a typo stops the start instead of the first fetch. */
export const allowHostList: Parser<readonly string[]> = commaList('comma list of host or host:port', (entry) => {
  try {
    parseAllowedHost(entry);
    return entry.toLowerCase();
  } catch (error) {
    if (!(error instanceof InvalidAllowHostError)) throw error;
    return new Invalid(`"${entry}" is not host or host:port`);
  }
});
