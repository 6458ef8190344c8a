/** Checkpoints, tile paths and entry bundles: golang.org/x/mod sumdb/tlog vectors (BSD-3-Clause) and our own. */
import { CheckpointError, formatCheckpoint, parseCheckpoint } from './checkpoint';
import { leafHash } from './hashing';
import { decodeEntryBundle, encodeEntryBundle, parseTilePath, TileError, tilePath } from './tiles';
import { readVectors } from './testdata/vectors';

interface TlogVectors {
  tilePaths: [string, [number, number, number, number] | null][];
  tree: { text: string; size: number; recordData: string; badTrees: string[]; trailers: { suffix: string; repeat: number }[] };
}

const v = readVectors<TlogVectors>('golang-tlog.json');

describe('checkpoints (TestFormatTree, TestParseTree)', () => {
  const rootHash = leafHash(new TextEncoder().encode(v.tree.recordData));

  it('formats and parses the go.sum tree head', () => {
    expect(formatCheckpoint({ origin: 'go.sum database tree', size: v.tree.size, rootHash, extensions: [] })).toBe(v.tree.text);
    expect(parseCheckpoint(v.tree.text)).toEqual({ origin: 'go.sum database tree', size: v.tree.size, rootHash, extensions: [] });
  });

  it.each(v.tree.badTrees)('refuses %j', (text) => {
    if (text.startsWith('not-'))
      expect(parseCheckpoint(text).origin).toBe('not-go.sum database tree'); // another origin, still a checkpoint
    else expect(() => parseCheckpoint(text)).toThrow(CheckpointError);
  });

  it('reads whole trailing lines as extension lines, and refuses a trailer without its newline (Go ignores junk)', () => {
    for (const { suffix, repeat } of v.tree.trailers) {
      const text = v.tree.text + suffix.repeat(repeat);
      if (suffix.endsWith('\n')) expect(parseCheckpoint(text).extensions).toEqual(Array(repeat).fill('JOE'));
      else expect(() => parseCheckpoint(text)).toThrow(CheckpointError);
    }
  });

  it.each([
    ['', 'empty'],
    ['origin\n1\n', 'two lines'],
    ['origin\n01\n' + Buffer.alloc(32).toString('base64') + '\n', 'leading zero'],
    ['origin\n-1\n' + Buffer.alloc(32).toString('base64') + '\n', 'negative'],
    ['origin\n9007199254740992\n' + Buffer.alloc(32).toString('base64') + '\n', 'past 2^53'],
    ['origin\n1\n' + Buffer.alloc(31).toString('base64') + '\n', 'short root'],
    ['origin\n1\n' + Buffer.alloc(32).toString('base64') + '\n\n', 'empty extension'],
    ['\n1\n' + Buffer.alloc(32).toString('base64') + '\n', 'empty origin'],
    ['origin\r\n1\n' + Buffer.alloc(32).toString('base64') + '\n', 'carriage return'],
    ['o\n1\n' + Buffer.alloc(32).toString('base64') + '\n' + 'x\n'.repeat(9000), 'oversize'],
  ])('refuses %j (%s)', (text) => {
    expect(() => parseCheckpoint(text)).toThrow(CheckpointError);
  });
});

describe('tile paths (tlog_test.go tilePaths, with the height segment dropped as tlog-tiles does)', () => {
  it.each(v.tilePaths)('%s', (goPath, tile) => {
    const path = goPath.replace(/^tile\/[^/]+\//, 'tile/').replace('tile/data/', 'tile/entries/');
    if (tile === null) return expect(() => parseTilePath(path)).toThrow(TileError);
    const [height, level, index, width] = tile;
    const parsed = { level: level === -1 ? ('entries' as const) : level, index, width: width === 2 ** height ? null : width };
    expect(parseTilePath(path)).toEqual(parsed);
    expect(tilePath(parsed.level, index, parsed.width ?? undefined)).toBe(path);
  });

  it('writes the tlog-tiles example and full tiles without a width', () => {
    expect(tilePath(0, 1234067, 5)).toBe('tile/0/x001/x234/067.p/5');
    expect(tilePath('entries', 0)).toBe('tile/entries/000');
    expect(tilePath(2, 1000, 256)).toBe('tile/2/x001/000');
  });

  it.each([
    'tile/0/x000/001',
    'tile/0/001.p/256',
    'tile/0/001.p/0',
    'tile/0/001.p/05',
    'tile/64/000',
    'tile/01/000',
    'tile/0/1',
    'tile/x/000',
    `tile/0/${'x999/'.repeat(20)}000`,
    '../tile/0/000',
  ])('refuses %s', (path) => expect(() => parseTilePath(path)).toThrow(TileError));
});

describe('entry bundles', () => {
  it('round-trips, big-endian lengths first', () => {
    const entries = [new Uint8Array(), Uint8Array.of(1, 2, 3), new Uint8Array(300).fill(7)];
    const bundle = encodeEntryBundle(entries);
    expect(Array.from(bundle.subarray(0, 7))).toEqual([0, 0, 0, 3, 1, 2, 3]);
    expect(Array.from(bundle.subarray(7, 9))).toEqual([1, 44]);
    expect(decodeEntryBundle(bundle)).toEqual(entries);
  });

  it('refuses truncated bundles, more than 256 entries, and oversize input', () => {
    expect(() => decodeEntryBundle(Uint8Array.of(0))).toThrow(TileError);
    expect(() => decodeEntryBundle(Uint8Array.of(0, 5, 1))).toThrow(TileError);
    expect(() => decodeEntryBundle(new Uint8Array(2 * 257))).toThrow(TileError);
    expect(() => decodeEntryBundle(new Uint8Array(256 * 65537 + 1))).toThrow(TileError);
    expect(() => encodeEntryBundle([new Uint8Array(65536)])).toThrow(TileError);
  });
});
