import { Buffer } from 'node:buffer';
import { MAX_MANIFEST_BYTES } from './constants';
import { readStrictJson } from './parse-json';
import { parseYaml } from './parse-yaml';
import type { ParseResult, Violation } from './types';
import { violation } from './violations';

export type ManifestFormat = 'json' | 'yaml' | 'either';

/** The format a file name promises. `.plugin` (or no name at all) may hold either. */
export function manifestFormat(fileName?: string): ManifestFormat {
  const base = (fileName ?? '').split(/[\\/]/).pop()!.toLowerCase();
  if (base.endsWith('.json')) return 'json';
  if (base.endsWith('.yaml') || base.endsWith('.yml')) return 'yaml';
  return 'either';
}

/** For callers that see the size before the text (a file, a stream) and should not read further. */
export function manifestTooLarge(bytes: number): Violation {
  return violation('', `must be at most ${MAX_MANIFEST_BYTES} bytes of UTF-8 (got ${bytes})`);
}

/**
 * Reads manifest text as YAML or JSON into a plain value; never throws for bad input.
 *
 * Text that may be either is read as JSON when it looks like JSON (starts with `{` or `[`), so a
 * JSON manifest is held to JSON's rules; only when it breaks JSON's grammar is it read again as
 * YAML, whose flow style (`{name: x}`) looks the same at first glance.
 */
export function parseManifestText(text: string, fileName?: string): ParseResult {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_MANIFEST_BYTES) return { ok: false, violations: [manifestTooLarge(bytes)] };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const format = manifestFormat(fileName);
  if (format === 'yaml') return parseYaml(body);
  if (format === 'json') return readStrictJson(body).result;
  if (!/^\s*[{[]/.test(body)) return parseYaml(body);
  const asJson = readStrictJson(body);
  return asJson.grammarError ? parseYaml(body) : asJson.result;
}
