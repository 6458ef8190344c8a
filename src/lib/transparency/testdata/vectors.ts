/** Loads the vendored known-answer vectors (see README.md, "Test data"). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function readVectors<T>(file: string): T {
  return JSON.parse(readFileSync(join(__dirname, file), 'utf8')) as T;
}

export const hex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'));
export const b64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));
export const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
