/** Random and hostile input: every parser refuses with its own error class, never a TypeError or a hang. */
import fc from 'fast-check';
import { CheckpointError, parseCheckpoint } from './checkpoint';
import { decodeLogEntry, LogEntryError } from './log-entry';
import { NoteError, openNote, parseVerifierKey } from './note';
import { decodeEntryBundle, parseTilePath, TileError } from './tiles';

const KEY = { name: 'example.com/log', publicKey: new Uint8Array(32).fill(9) };

function refusesWith(errorClass: new (...args: never[]) => Error, parse: () => unknown): void {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(errorClass);
  }
}

describe('parsers on arbitrary input', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: fc.constantFrom('\n', '—', ' ', 'a', '+', '/', '=', '0', 'x', '.', 'p'), maxLength: 80 }),
  );
  const bytes = fc.uint8Array({ maxLength: 600 });

  it('parseCheckpoint', () => fc.assert(fc.property(text, (t) => refusesWith(CheckpointError, () => parseCheckpoint(t)))));
  it('openNote (text and bytes)', () => {
    fc.assert(fc.property(text, (t) => refusesWith(NoteError, () => openNote(t, [KEY]))));
    fc.assert(fc.property(bytes, (b) => refusesWith(NoteError, () => openNote(b, [KEY]))));
  });
  it('parseVerifierKey', () => fc.assert(fc.property(text, (t) => refusesWith(NoteError, () => parseVerifierKey(t)))));
  it('parseTilePath', () => fc.assert(fc.property(text, (t) => refusesWith(TileError, () => parseTilePath(t)))));
  it('decodeEntryBundle', () => fc.assert(fc.property(bytes, (b) => refusesWith(TileError, () => decodeEntryBundle(b)))));
  it('decodeLogEntry', () => {
    const json = fc.json({ maxDepth: 3 }).map((j) => new TextEncoder().encode(j));
    fc.assert(fc.property(fc.oneof(bytes, json), (b) => refusesWith(LogEntryError, () => decodeLogEntry(b))));
  });
});

describe('parsers on values of the wrong type (a decoded JSON body can be anything)', () => {
  const values: unknown[] = [undefined, null, 42, {}, [], 'x', new Uint16Array(4), { length: 3 }];
  it.each(values.map((value) => [String(value), value]))('refuses %s', (_, value) => {
    const anything = value as never;
    refusesWith(CheckpointError, () => parseCheckpoint(anything));
    refusesWith(NoteError, () => openNote(anything, [KEY]));
    refusesWith(NoteError, () => parseVerifierKey(anything));
    refusesWith(TileError, () => parseTilePath(anything));
    refusesWith(TileError, () => decodeEntryBundle(anything));
    refusesWith(LogEntryError, () => decodeLogEntry(anything));
  });
});

describe('oversize input', () => {
  it('each parser refuses before reading it all', () => {
    const huge = 'a\n'.repeat(600_000);
    expect(() => parseCheckpoint(huge)).toThrow(CheckpointError);
    expect(() => openNote(huge, [KEY])).toThrow(NoteError);
    expect(() => parseVerifierKey(huge)).toThrow(NoteError);
    expect(() => parseTilePath(`tile/0/${'x001/'.repeat(1000)}000`)).toThrow(TileError);
    expect(() => decodeEntryBundle(new Uint8Array(20_000_000))).toThrow(TileError);
    expect(() => decodeLogEntry(new Uint8Array(10_000))).toThrow(LogEntryError);
  });
});
