/** C2SP tlog-tiles (https://c2sp.org/tlog-tiles): tile paths and entry bundles. */

export class TileError extends Error {
  override readonly name = 'TileError';
}

/** Tiles are 2^8 = 256 hashes (or entries) wide. */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 2 ** TILE_HEIGHT;
const MAX_LEVEL = 63;
const MAX_ENTRY_BYTES = 0xffff;
/** A full bundle of maximal entries; anything longer cannot be one bundle. */
const MAX_BUNDLE_BYTES = TILE_WIDTH * (2 + MAX_ENTRY_BYTES);
const MAX_PATH_LENGTH = 64;
const TILE_PATH = /^tile\/(entries|0|[1-9][0-9]?)\/((?:x[0-9]{3}\/)*[0-9]{3})(?:\.p\/([1-9][0-9]{0,2}))?$/;

function checkTile(level: number | 'entries', index: number, width: number): void {
  if (level !== 'entries' && !(Number.isInteger(level) && level >= 0 && level <= MAX_LEVEL))
    throw new TileError('tile level must be 0..63 or "entries"');
  if (!Number.isSafeInteger(index) || index < 0) throw new TileError('tile index must be a safe integer >= 0');
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) throw new TileError(`tile width must be 1..${TILE_WIDTH}`);
}

/** "tile/<level>/<index as x-prefixed 3-digit groups>[.p/<width>]"; width 256 (or none) is a full tile. */
export function tilePath(level: number | 'entries', index: number, width: number = TILE_WIDTH): string {
  checkTile(level, index, width);
  let groups = String(index % 1000).padStart(3, '0');
  for (let rest = Math.floor(index / 1000); rest > 0; rest = Math.floor(rest / 1000)) {
    groups = `x${String(rest % 1000).padStart(3, '0')}/${groups}`;
  }
  return `tile/${level}/${groups}${width === TILE_WIDTH ? '' : `.p/${width}`}`;
}

/** Parses a path as tilePath writes it, and only so (no leading zero groups, no full width spelled out). */
export function parseTilePath(path: string): { level: number | 'entries'; index: number; width: number | null } {
  if (typeof path !== 'string' || path.length > MAX_PATH_LENGTH) throw new TileError('malformed tile path');
  const match = TILE_PATH.exec(path);
  if (!match) throw new TileError('malformed tile path');
  const level = match[1] === 'entries' ? 'entries' : Number(match[1]);
  const index = Number(match[2]!.replace(/x|\//g, ''));
  const width = match[3] === undefined ? null : Number(match[3]);
  if (level !== 'entries' && level > MAX_LEVEL) throw new TileError('malformed tile path');
  if (!Number.isSafeInteger(index) || (width !== null && width >= TILE_WIDTH)) throw new TileError('malformed tile path');
  if (tilePath(level, index, width ?? TILE_WIDTH) !== path) throw new TileError('tile path is not canonical');
  return { level, index, width };
}

/** Each entry as a big-endian uint16 length and its bytes. */
export function encodeEntryBundle(entries: Uint8Array[]): Uint8Array {
  if (entries.length > TILE_WIDTH) throw new TileError(`a bundle holds at most ${TILE_WIDTH} entries`);
  const chunks: Uint8Array[] = [];
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY_BYTES) throw new TileError(`an entry is at most ${MAX_ENTRY_BYTES} bytes`);
    chunks.push(Uint8Array.of(entry.length >> 8, entry.length & 0xff), entry);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export function decodeEntryBundle(bytes: Uint8Array): Uint8Array[] {
  if (!(bytes instanceof Uint8Array)) throw new TileError('entry bundle is not bytes');
  if (bytes.length > MAX_BUNDLE_BYTES) throw new TileError('entry bundle is too long');
  const entries: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length;) {
    if (entries.length === TILE_WIDTH) throw new TileError(`entry bundle holds more than ${TILE_WIDTH} entries`);
    if (offset + 2 > bytes.length) throw new TileError('entry bundle ends inside a length');
    const length = (bytes[offset]! << 8) | bytes[offset + 1]!;
    offset += 2;
    if (offset + length > bytes.length) throw new TileError('entry bundle ends inside an entry');
    entries.push(bytes.slice(offset, offset + length));
    offset += length;
  }
  return entries;
}
