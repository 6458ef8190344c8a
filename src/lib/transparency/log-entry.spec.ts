import { decodeLogEntry, encodeLogEntry, LogEntryError, type LogEntry } from './log-entry';

const SHA = 'ab'.repeat(32);
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('log entries', () => {
  it.each<LogEntry>([
    { type: 'release', slug: 'acme-tool', version: '1.2.0', kid: 'k1', jws_sha256: SHA },
    { type: 'resign', slug: 'acme-tool', version: '1.2.0', kid: 'k2', jws_sha256: SHA },
    { type: 'yank', slug: 'acme-tool', version: '1.2.0' },
    { type: 'unyank', slug: 'acme-tool', version: '1.2.0' },
    { type: 'delete', slug: 'acme-tool', version: '1.2.0' },
    { type: 'keys', keys_sha256: SHA },
  ])('encodes a $type entry as canonical JSON and decodes it back', (entry) => {
    const bytes = encodeLogEntry(entry);
    expect(new TextDecoder().decode(bytes)).toBe(
      JSON.stringify(Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1)))),
    );
    expect(decodeLogEntry(bytes)).toEqual(entry);
  });

  it.each([
    ['not JSON', '{'],
    ['not UTF-8', '\xff'],
    ['an array', '[]'],
    ['null', 'null'],
    ['an unknown type', '{"type":"delete"}'],
    ['a missing member', '{"slug":"a","type":"yank"}'],
    ['an extra member', '{"extra":"x","slug":"a","type":"yank","version":"1"}'],
    ['a number where a string belongs', '{"slug":1,"type":"yank","version":"1"}'],
    ['an empty string', '{"slug":"","type":"yank","version":"1"}'],
    ['a control character', '{"slug":"a\\n","type":"yank","version":"1"}'],
    ['a bad digest', `{"keys_sha256":"${'AB'.repeat(32)}","type":"keys"}`],
    ['non-canonical member order', '{"type":"yank","slug":"a","version":"1"}'],
    ['non-canonical whitespace', '{"slug":"a", "type":"yank","version":"1"}'],
    ['a __proto__ member', '{"__proto__":{},"slug":"a","type":"yank","version":"1"}'],
  ])('refuses %s', (_, text) => {
    const bytes = text === '\xff' ? Uint8Array.of(0xff) : utf8(text);
    expect(() => decodeLogEntry(bytes)).toThrow(LogEntryError);
  });

  it('refuses oversize input before parsing it', () => {
    expect(() => decodeLogEntry(utf8(`{"slug":"${'a'.repeat(5000)}","type":"yank","version":"1"}`))).toThrow('exceeds 4096 bytes');
  });

  it('refuses to encode an entry of the wrong shape', () => {
    expect(() => encodeLogEntry({ type: 'keys', keys_sha256: 'nope' })).toThrow(LogEntryError);
    expect(() => encodeLogEntry({ type: 'yank', slug: 'a', version: '1', kid: 'x' } as LogEntry)).toThrow(LogEntryError);
  });
});
