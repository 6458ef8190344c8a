/** Our leaves: canonical JSON (RFC 8785) of one event, UTF-8. */
import { canonicalJsonBytes } from '../integrity/canonical-json';

export class LogEntryError extends Error {
  override readonly name = 'LogEntryError';
}

export type LogEntry =
  | { type: 'release'; slug: string; version: string; kid: string; jws_sha256: string }
  | { type: 'resign'; slug: string; version: string; kid: string; jws_sha256: string }
  | { type: 'yank' | 'unyank'; slug: string; version: string }
  /** An administrator deleted the release: no registry serves it after this entry. */
  | { type: 'delete'; slug: string; version: string }
  | { type: 'keys'; keys_sha256: string };

/** Leaves are short records; the bound refuses a hostile tile before JSON.parse sees it. */
export const MAX_LOG_ENTRY_BYTES = 4096;
const MAX_FIELD_LENGTH = 512;
const SHA256_HEX = /^[0-9a-f]{64}$/;

const FIELDS: Record<LogEntry['type'], string[]> = {
  release: ['type', 'slug', 'version', 'kid', 'jws_sha256'],
  resign: ['type', 'slug', 'version', 'kid', 'jws_sha256'],
  yank: ['type', 'slug', 'version'],
  unyank: ['type', 'slug', 'version'],
  delete: ['type', 'slug', 'version'],
  keys: ['type', 'keys_sha256'],
};

const hasControl = (text: string): boolean => [...text].some((char) => char.charCodeAt(0) < 0x20);

function checkEntry(value: unknown): LogEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new LogEntryError('log entry is not an object');
  const record = value as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) throw new LogEntryError('log entry has an unknown type');
  const fields = FIELDS[type as LogEntry['type']];
  const keys = Object.keys(record);
  if (keys.length !== fields.length || !keys.every((key) => fields.includes(key))) {
    throw new LogEntryError(`a ${type} entry has exactly the members ${fields.join(', ')}`);
  }
  for (const field of fields) {
    const member = record[field];
    if (typeof member !== 'string' || member === '' || member.length > MAX_FIELD_LENGTH || hasControl(member)) {
      throw new LogEntryError(`${field} must be a non-empty single-line string`);
    }
    if (field.endsWith('_sha256') && !SHA256_HEX.test(member)) throw new LogEntryError(`${field} must be 64 lowercase hex digits`);
  }
  return value as LogEntry;
}

export function encodeLogEntry(entry: LogEntry): Uint8Array {
  return canonicalJsonBytes(checkEntry(entry));
}

/** Validates the shape and that the bytes are the canonical encoding (one entry, one leaf hash). */
export function decodeLogEntry(bytes: Uint8Array): LogEntry {
  if (!(bytes instanceof Uint8Array)) throw new LogEntryError('log entry is not bytes');
  if (bytes.length > MAX_LOG_ENTRY_BYTES) throw new LogEntryError(`log entry exceeds ${MAX_LOG_ENTRY_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes));
  } catch {
    throw new LogEntryError('log entry is not UTF-8 JSON');
  }
  const entry = checkEntry(value);
  if (!Buffer.from(canonicalJsonBytes(entry)).equals(Buffer.from(bytes))) throw new LogEntryError('log entry is not canonical JSON');
  return entry;
}
